import type { AgentApi } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import { countText } from '#core/api.ts';
import { runUsageText } from '../common/model-messages.ts';
import { storageFullRunText } from '../storage/storage-messages.ts';

/** What agentRun answers. */
export type RunResult = Awaited<ReturnType<AgentApi['agentRun']>>;

/** How a run ended, in words: a notice, or a failure with its problems; `details` are further lines (the model's use). */
export type RunReport = { tone: 'notice' | 'failure'; message: string; problems: string[]; details?: string[] };

/** What the run controls can start: one cycle, a number of cycles, or cycles until no goal is active. */
export type RunKind = 'one' | 'some' | 'until-done';

/** Enough cycles for any goal the starter graph supports; a run stops earlier once no goal is active. */
export const UNTIL_DONE_MAX_CYCLES = 1000;

const READ_ONLY_REASON =
  'Anima is open in another tab, and only that tab can run the agent: close it to run cycles here.';
const NO_ACTIVE_GOAL_REASON = 'No goal is active: add a goal, or resume a suspended one, to run cycles.';

function cycles(count: number): string {
  return `${count.toLocaleString('en')} ${count === 1 ? 'cycle' : 'cycles'}`;
}

/** Says how a run ended, for the status line under the run controls: why it stopped, a model it could not use, and what the bound model used. */
export function describeRunEnd(result: RunResult): RunReport {
  if (!result.ok) return { tone: 'failure', message: READ_ONLY_REASON, problems: result.problems.map(describeProblem) };
  const sentences = [stopSentence(result)];
  if (result.usage.reloaded !== undefined) sentences.push(`Before the run, ${result.usage.reloaded}.`);
  if (result.usage.fellBack !== undefined)
    sentences.push(
      `The model could not be used (${result.usage.fellBack.because}); the run went on with the symbolic engine alone.`,
    );
  const usage = runUsageText(result.usage);
  // A full storage needs the user to act before the next run: an alert, not a notice.
  return {
    tone: result.stoppedBecause === 'storage-full' ? 'failure' : 'notice',
    message: sentences.join(' '),
    problems: [],
    ...(usage !== undefined ? { details: [usage] } : {}),
  };
}

function stopSentence(result: Extract<RunResult, { ok: true }>): string {
  const { cyclesRun, lastCycle, stoppedBecause } = result;
  const upTo = cyclesRun > 0 ? ` (up to cycle ${lastCycle.toLocaleString('en')})` : '';
  switch (stoppedBecause) {
    case 'no-active-goal':
      return cyclesRun === 0
        ? 'No goal is active, so no cycle ran. Add a goal, or resume a suspended one.'
        : `Ran ${cycles(cyclesRun)}${upTo}; no goal is active any more.`;
    case 'max-cycles':
      return `Ran ${cycles(cyclesRun)}${upTo}.`;
    case 'cancelled':
      return `Paused after ${cycles(cyclesRun)}${upTo}.`;
    case 'budget': {
      const spent =
        result.budgetSpent !== undefined
          ? `Stopped: the run's budget is spent (${spentLimitText(result.budgetSpent)}).`
          : "Stopped: the run's budget is spent.";
      return cyclesRun > 0 ? `Ran ${cycles(cyclesRun)}${upTo}. ${spent}` : spent;
    }
    case 'storage-full':
      return storageFullRunText(lastCycle);
  }
}

/** The limits as the Settings form names them. */
const LIMIT_WORDS = {
  requests: (count: number) => `${count.toLocaleString('en')} model ${count === 1 ? 'request' : 'requests'}`,
  toolCalls: (count: number) => `${count.toLocaleString('en')} tool ${count === 1 ? 'call' : 'calls'}`,
  inputTokens: (count: number) => `${count.toLocaleString('en')} input ${count === 1 ? 'token' : 'tokens'}`,
  outputTokens: (count: number) => `${count.toLocaleString('en')} output ${count === 1 ? 'token' : 'tokens'}`,
  wallSeconds: (count: number) => `${count.toLocaleString('en')} ${count === 1 ? 'second' : 'seconds'}`,
} as const;

/** A spent limit in words: "5 model requests of 5", "61.2 seconds of 60". */
export function spentLimitText(spent: NonNullable<Extract<RunResult, { ok: true }>['budgetSpent']>): string {
  return `${LIMIT_WORDS[spent.limit](spent.used)} of ${spent.max.toLocaleString('en')}`;
}

/** What the goals that wait are waiting for: actions held for approval, questions to answer. */
export type Waiting = { approvals: number; questions: number };

/** Why no goal is active while some wait for the user: an approval, an answer, or both. */
function waitingGoalReason(waiting: Waiting | undefined): string {
  if (waiting && waiting.questions > 0 && waiting.approvals === 0)
    return 'No goal is active: a goal waits for your answer to its question. Answer it on the Approvals screen to run cycles.';
  if (waiting && waiting.approvals > 0 && waiting.questions === 0)
    return 'No goal is active: a goal waits for your approval. Approve or deny its action on the Approvals screen to run cycles.';
  if (waiting && waiting.approvals > 0 && waiting.questions > 0)
    return 'No goal is active: goals wait for your approval and for your answer. Decide and answer on the Approvals screen to run cycles.';
  return 'No goal is active: a goal waits for you. See what it asks on the Approvals screen to run cycles.';
}

/** Why the run buttons are disabled, or undefined when a run can start. */
export function runBlockedReason(state: {
  canWrite: boolean;
  hasLoadedGoals: boolean;
  hasActiveGoal: boolean;
  hasWaitingGoal?: boolean;
  waiting?: Waiting;
}): string | undefined {
  if (!state.canWrite) return READ_ONLY_REASON;
  if (!state.hasLoadedGoals) return 'Loading the goals…';
  if (!state.hasActiveGoal) return state.hasWaitingGoal ? waitingGoalReason(state.waiting) : NO_ACTIVE_GOAL_REASON;
  return undefined;
}

/** What the model of a run has used so far, summed from the cycles it reported. */
export type LiveModelUse = { requests: number; inputTokens: number; outputTokens: number };

/** Adds a cycle's model use (its record's `model`) to what the run has used so far. */
export function addModelUse(
  total: LiveModelUse | undefined,
  use: { requests: number; promptTokens: number; completionTokens: number } | undefined,
): LiveModelUse | undefined {
  if (!use) return total;
  const base = total ?? { requests: 0, inputTokens: 0, outputTokens: 0 };
  return {
    requests: base.requests + use.requests,
    inputTokens: base.inputTokens + use.promptTokens,
    outputTokens: base.outputTokens + use.completionTokens,
  };
}

/** The run's limits the live line measures against (the settings' own; absent ones are unlimited). */
export type LiveLimits = {
  requests?: number | undefined;
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
};

/** "3 of 20 requests, 1,200 of 8,000 tokens in, 300 out": each use against its limit where one is set. */
function useAgainstLimits(use: LiveModelUse, limits: LiveLimits): string {
  const of = (used: number, max: number | undefined) =>
    max === undefined ? used.toLocaleString('en') : `${used.toLocaleString('en')} of ${max.toLocaleString('en')}`;
  const requests =
    limits.requests === undefined
      ? countText(use.requests, 'request')
      : `${of(use.requests, limits.requests)} requests`;
  return `${requests}, ${of(use.inputTokens, limits.inputTokens)} tokens in, ${of(use.outputTokens, limits.outputTokens)} out`;
}

/** The live line while a run goes on: "Running: 3 of 10 cycles done.", and the model's use so far (against the run's limits) once it asked the model. */
export function runningText(
  run: { kind: RunKind; cyclesRun: number; maxCycles: number; isPausing: boolean; modelUse?: LiveModelUse | undefined },
  limits: LiveLimits = {},
): string {
  const done =
    run.kind === 'until-done'
      ? `${cycles(run.cyclesRun)} done`
      : `${run.cyclesRun.toLocaleString('en')} of ${cycles(run.maxCycles)} done`;
  const model = run.modelUse ? ` Model: ${useAgainstLimits(run.modelUse, limits)}.` : '';
  if (run.isPausing) return `Pausing after the current cycle: ${done}.${model}`;
  return (run.kind === 'until-done' ? `Running until no goal is active: ${done}.` : `Running: ${done}.`) + model;
}
