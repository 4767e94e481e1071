import type { CycleRecord } from '#core/api.ts';

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
