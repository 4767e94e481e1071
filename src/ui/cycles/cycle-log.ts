import { countText, type CycleRecord } from '#core/api.ts';
import { bottleneckText } from '../common/model-messages.ts';

/** How many cycles the log keeps in view; older ones stay stored. */
export const CYCLE_LOG_LIMIT = 200;

/** A cycle's outcome as its badge reads. */
export const CYCLE_OUTCOME_LABELS = {
  completed: 'Completed',
  advanced: 'Advanced',
  'no-change': 'No change',
  failed: 'Failed',
  waiting: 'Waiting for you',
} as const satisfies Record<CycleRecord['outcome'], string>;

/**
 * Joins cycles into the log, newest first: a cycle already listed is replaced by its newer
 * copy, so the stored log and the cycles a run reports can arrive in any order.
 */
export function mergeCycles(
  log: readonly CycleRecord[],
  incoming: readonly CycleRecord[],
  limit = CYCLE_LOG_LIMIT,
): CycleRecord[] {
  const byCycle = new Map(log.map((record) => [record.cycle, record]));
  for (const record of incoming) byCycle.set(record.cycle, record);
  return [...byCycle.values()].sort((a, b) => b.cycle - a.cycle).slice(0, limit);
}

/** A score as the log shows it, two decimals: "0.77". */
export function scoreText(score: number): string {
  return score.toFixed(2);
}

type Rejection = NonNullable<CycleRecord['rejection']>;

/** A rejection's class as the log names it. */
export const REJECTION_CLASS_LABELS = {
  precondition_miss: 'Precondition missed',
  invalid_arguments: 'Invalid input',
  policy_block: 'Blocked by policy',
  dependency_unavailable: 'Dependency unavailable',
} as const satisfies Record<Rejection['class'], string>;

/** A refused action's evidence in words: its class, whether a retry could help, what it required and what was observed. */
export function rejectionText(rejection: Rejection): {
  heading: string;
  required: string;
  observed: string;
} {
  return {
    heading: `${REJECTION_CLASS_LABELS[rejection.class]} (${rejection.retryable ? 'a retry may succeed' : 'a retry cannot succeed'})`,
    required: rejection.required,
    observed: rejection.observed,
  };
}

type ChildRun = NonNullable<CycleRecord['children']>[number];

/** A posture's name as the log shows it. */
export const POSTURE_LABELS = {
  expander: 'Expander',
  reviewer: 'Reviewer',
  repair: 'Repair',
  'red-team': 'Red team',
} as const satisfies Record<ChildRun['posture'], string>;

/**
 * A child run as the log shows it under its cycle: its posture and purpose, its result or the
 * bottleneck it stopped at, and what it used of the budget it shares with the run.
 */
export function childRunText(run: ChildRun): { heading: string; outcome: string; usage: string } {
  const { usage } = run;
  const seconds = (usage.wallMs / 1000).toLocaleString('en', { maximumFractionDigits: 1 });
  return {
    heading: `${POSTURE_LABELS[run.posture]}: ${run.purpose}`,
    outcome: run.bottleneck ? `Stopped: ${bottleneckText(run.bottleneck)}` : `Result: ${run.summary}`,
    usage: `${countText(usage.requests, 'request')} (${usage.promptTokens.toLocaleString('en')} prompt + ${usage.completionTokens.toLocaleString('en')} completion tokens), ${countText(usage.toolCalls, 'tool call')}, ${seconds} s, on ${run.model}`,
  };
}
