import type { CycleRecord } from '#core/records/cycle.ts';
import type { Goal } from '#core/records/goal.ts';
import { memoryPressure } from '#core/memory/working-memory.ts';
import type { Adjustment, Reflection } from '#core/records/reflection.ts';

/** The constants of reflection's rules (DESIGN section 8). */
export const REFLECTION = {
  boost: 20,
  demote: 30,
  /** Reflection consolidates before memory is full: the cycle's own consolidation waits for 0.8. */
  consolidationPressure: 0.7,
  /** A goal stalled this many times its stall threshold is worth splitting by hand. */
  decompositionFactor: 2,
} as const;

/** What a reflection looks at. */
export type ReflectionInput = {
  cycles: readonly CycleRecord[];
  goals: readonly Goal[];
  memoryEntryCount: number;
  memoryCapacity: number;
};

/**
 * Looks back over the cycles since the last reflection (seed 002): each tool's uses and successes
 * (a use succeeds when its goal advanced or completed; actions the shadow stopped did not run),
 * and each active goal worked in that time. A goal that advanced is boosted (+20) to keep its
 * momentum; one that did not, and has gone its stall threshold of cycles without progress, is
 * demoted (-30) so others get a turn, and re-planned; at twice its threshold a split is suggested
 * (criteria that split at commas or "and" are split by the loop itself). High memory pressure
 * triggers consolidation.
 */
export function reflectOn(
  input: ReflectionInput,
): Pick<Reflection, 'toolStats' | 'goals' | 'memoryPressure' | 'adjustments'> {
  const ran = input.cycles.filter((cycle) => cycle.tool !== 'none' && cycle.shadow === undefined);
  const hasSucceeded = (cycle: CycleRecord) => cycle.outcome === 'advanced' || cycle.outcome === 'completed';
  const stats = new Map<string, { uses: number; successes: number }>();
  for (const cycle of ran) {
    const counts = stats.get(cycle.tool) ?? { uses: 0, successes: 0 };
    counts.uses++;
    if (hasSucceeded(cycle)) counts.successes++;
    stats.set(cycle.tool, counts);
  }
  const toolStats = [...stats].sort(([a], [b]) => a.localeCompare(b)).map(([tool, counts]) => ({ tool, ...counts }));

  const adjustments: Adjustment[] = [];
  const goals: Reflection['goals'] = [];
  for (const goal of input.goals) {
    const worked = input.cycles.filter((cycle) => cycle.goalId === goal.id);
    if (goal.status !== 'active' || worked.length === 0) continue;
    const progressed = worked.some(hasSucceeded);
    const stagnantFor = goal.cyclesWorked - goal.lastProgressCycle;
    goals.push({
      goalId: goal.id!,
      description: goal.description,
      cyclesSinceLastReflection: worked.length,
      progressed,
      stagnantFor,
    });
    const during = `in ${worked.length} cycle${worked.length === 1 ? '' : 's'} since the last reflection`;
    if (progressed) {
      const to = Math.min(255, goal.priority + REFLECTION.boost);
      if (to !== goal.priority)
        adjustments.push({
          kind: 'boost',
          goalId: goal.id!,
          from: goal.priority,
          to,
          reason: `it advanced ${during}: keep its momentum`,
        });
      continue;
    }
    if (stagnantFor < goal.stallThreshold) continue;
    const to = Math.max(0, goal.priority - REFLECTION.demote);
    const stalled = `no progress for ${stagnantFor} of its cycles (its stall threshold is ${goal.stallThreshold})`;
    if (to !== goal.priority)
      adjustments.push({
        kind: 'demote',
        goalId: goal.id!,
        from: goal.priority,
        to,
        reason: `${stalled}: other goals get a turn`,
      });
    adjustments.push({
      kind: 'replan',
      goalId: goal.id!,
      reason: `${stalled}: its plan is not working, the next one tries another order`,
    });
    if (stagnantFor >= REFLECTION.decompositionFactor * goal.stallThreshold)
      adjustments.push({
        kind: 'suggest-decomposition',
        goalId: goal.id!,
        reason: `${stalled}: split it into smaller goals (its criteria do not split at commas or "and" by themselves)`,
      });
  }
  const pressure = memoryPressure(input.memoryEntryCount, input.memoryCapacity);
  if (pressure >= REFLECTION.consolidationPressure)
    adjustments.push({
      kind: 'consolidate',
      reason: `working memory is ${Math.round(pressure * 100)}% full: its entries become episodes`,
    });
  return { toolStats, goals, memoryPressure: pressure, adjustments };
}

/** One line for a log: what the reflection did. */
export function describeReflection(reflection: Pick<Reflection, 'cycle' | 'adjustments' | 'psycheChanges'>): string {
  const adjusted = reflection.adjustments.map(
    (adjustment) =>
      `${adjustment.kind}${adjustment.goalId !== undefined ? ` goal ${adjustment.goalId}` : ''}${adjustment.to !== undefined ? ` ${adjustment.from} -> ${adjustment.to}` : ''}`,
  );
  const parts = [...adjusted, ...reflection.psycheChanges.map((change) => `psyche: ${change}`)];
  return `reflection at cycle ${reflection.cycle}: ${parts.length > 0 ? parts.join('; ') : 'nothing to adjust'}`;
}
