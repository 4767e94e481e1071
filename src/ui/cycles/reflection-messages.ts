import type { AgentApi } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import type { RunReport } from '../goals/run-messages.ts';

/** A reflection as reflectionList lists it. */
export type ReflectionView = Awaited<ReturnType<AgentApi['reflectionList']>>['reflections'][number];
/** What reflect answers. */
export type ReflectResult = Awaited<ReturnType<AgentApi['reflect']>>;
/** How the session's agent plans and reflects. */
export type AgentSettingsView = Awaited<ReturnType<AgentApi['agentSettingsGet']>>;
type Adjustment = ReflectionView['adjustments'][number];

const READ_ONLY_REASON =
  'Anima is open in another tab, and only that tab can ask the agent to reflect: close it to reflect here.';

function count(value: number, one: string, many: string): string {
  return `${value.toLocaleString('en')} ${value === 1 ? one : many}`;
}

/** "every cycle", "every 5 cycles". */
export function everyText(interval: number): string {
  return interval === 1 ? 'every cycle' : `every ${interval.toLocaleString('en')} cycles`;
}

/**
 * Why a reflection ran: "Asked for", or "Every 5 cycles". The reflection does not keep the
 * interval it ran under, so the current one is named only when the reflection's cycle fits it.
 */
export function triggerText(
  reflection: Pick<ReflectionView, 'trigger' | 'cycle'>,
  interval: number | undefined,
): string {
  if (reflection.trigger === 'request') return 'Asked for';
  if (interval !== undefined && reflection.cycle % interval === 0)
    return interval === 1 ? 'Every cycle' : `Every ${interval.toLocaleString('en')} cycles`;
  return 'On schedule';
}

/** Which cycles a reflection looked back at: "Cycles 8 to 12", "Cycle 12", or none since the last. */
export function cyclesLookedAtText(reflection: Pick<ReflectionView, 'sinceCycle' | 'cycle'>): string {
  const first = reflection.sinceCycle + 1;
  if (first > reflection.cycle) return 'No cycles since the last reflection';
  if (first === reflection.cycle) return `Cycle ${first.toLocaleString('en')}`;
  return `Cycles ${first.toLocaleString('en')} to ${reflection.cycle.toLocaleString('en')}`;
}

/** A tool's success rate as a whole percentage: "67%". */
export function successRateText(stat: Pick<ReflectionView['toolStats'][number], 'uses' | 'successes'>): string {
  if (stat.uses === 0) return '–';
  return `${Math.round((stat.successes / stat.uses) * 100)}%`;
}

/** A tool's uses since the last reflection: "2 uses, 1 success (50%)". */
export function toolStatText(stat: Pick<ReflectionView['toolStats'][number], 'uses' | 'successes'>): string {
  return `${count(stat.uses, 'use', 'uses')}, ${count(stat.successes, 'success', 'successes')} (${successRateText(stat)})`;
}

/** Memory pressure as a whole percentage of working memory: "21%". */
export function memoryPressureText(pressure: number): string {
  return `${Math.round(pressure * 100)}%`;
}

/** How a goal fared since the last reflection: "advanced in 5 cycles" or "no progress in 2 cycles; stagnant for 5 cycles". */
export function goalLookText(goal: ReflectionView['goals'][number]): string {
  const worked = `in ${count(goal.cyclesSinceLastReflection, 'cycle', 'cycles')} worked`;
  if (goal.progressed) return `advanced ${worked}`;
  return `no progress ${worked}; stagnant for ${count(goal.stagnantFor, 'cycle', 'cycles')}`;
}

const ADJUSTMENT_VERBS = {
  boost: 'Boosted',
  demote: 'Demoted',
  replan: 'Re-planned',
  'suggest-decomposition': 'Suggests splitting',
  consolidate: 'Consolidated working memory',
} as const satisfies Record<Adjustment['kind'], string>;

/**
 * An adjustment with its reason, e.g. "Boosted goal 1 “Find mammals”: priority 200 → 220 — it
 * advanced in 3 cycles since the last reflection: keep its momentum".
 * @param descriptionOf the description of a goal by its id, where known
 */
export function adjustmentText(
  adjustment: Adjustment,
  descriptionOf: (goalId: number) => string | undefined = () => undefined,
): string {
  let text: string = ADJUSTMENT_VERBS[adjustment.kind];
  if (adjustment.goalId !== undefined) {
    const description = descriptionOf(adjustment.goalId);
    text += ` goal ${adjustment.goalId}${description === undefined ? '' : ` “${description}”`}`;
  }
  if (adjustment.from !== undefined && adjustment.to !== undefined)
    text += `: priority ${adjustment.from} → ${adjustment.to}`;
  return `${text} — ${adjustment.reason}`;
}

/** The psyche after a reflection, beside the label "Psyche": "unchanged" or "changed (version 3)". */
export function psycheStateText(reflection: Pick<ReflectionView, 'psycheChanges' | 'psycheVersion'>): string {
  if (reflection.psycheChanges.length === 0) return 'unchanged';
  return reflection.psycheVersion === undefined
    ? 'changed'
    : `changed (version ${reflection.psycheVersion.toLocaleString('en')})`;
}

/** What a reflection did, in a few words: "2 adjustments, psyche unchanged". */
export function reflectionSummary(
  reflection: Pick<ReflectionView, 'adjustments' | 'psycheChanges' | 'psycheVersion'>,
): string {
  const adjusted =
    reflection.adjustments.length === 0
      ? 'nothing to adjust'
      : count(reflection.adjustments.length, 'adjustment', 'adjustments');
  return `${adjusted}, psyche ${psycheStateText(reflection)}`;
}

/** Says what a requested reflection did, for the run controls' status line. */
export function describeReflect(result: ReflectResult): RunReport {
  if (!result.ok) return { tone: 'failure', message: READ_ONLY_REASON, problems: result.problems.map(describeProblem) };
  const { reflection } = result;
  return {
    tone: 'notice',
    message: `Reflected at cycle ${reflection.cycle.toLocaleString('en')}: ${reflectionSummary(reflection)}.`,
    problems: [],
  };
}

/** What the Reflections list says while it is empty. */
export function noReflectionsText(interval: number | undefined): string {
  const when = interval === undefined ? 'every few cycles' : everyText(interval);
  return `No reflections yet: the agent reflects ${when}, or press Reflect.`;
}
