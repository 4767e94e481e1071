import type { CycleRecord } from '#core/records/cycle.ts';

/** How many of a goal's next cycles a preparing use is credited for. */
export const CREDIT_WINDOW = 3;

/**
 * What a tool that prepares rather than finds is credited for, in words: a similarity that led to
 * a finding, a gap that a later cycle filled, a recall that kept the goal off a tool that had
 * failed on its symbols (or came before a finding).
 */
const PREPARING: Record<string, { finding: string; avoided?: string }> = {
  similarity_search: { finding: 'a similarity that led to a finding' },
  gap_analysis: { finding: 'a gap a later cycle filled' },
  memory_recall: { finding: 'a recall before a finding', avoided: 'a recall that avoided a failed tool' },
};

const advanced = (record: CycleRecord) => record.outcome === 'advanced' || record.outcome === 'completed';

/**
 * For each cycle of the window (in cycle order), what its tool contributed later when it did not
 * advance its goal itself: a preparing tool is credited when one of its goal's next
 * CREDIT_WINDOW cycles advanced or completed it; a recall also when the next cycle passed over a
 * tool an episode says failed on these symbols. Undefined where there is nothing to credit.
 */
export function creditsOf(window: readonly CycleRecord[]): (string | undefined)[] {
  const sorted = [...window].sort((a, b) => a.cycle - b.cycle);
  const byCycle = new Map(sorted.map((record, index) => [record.cycle, index]));
  return window.map((record) => {
    const preparing = PREPARING[record.tool];
    if (!preparing || advanced(record) || record.shadow !== undefined) return undefined;
    const later = sorted
      .slice(byCycle.get(record.cycle)! + 1)
      .filter((next) => next.goalId === record.goalId)
      .slice(0, CREDIT_WINDOW);
    if (later.some(advanced)) return preparing.finding;
    const next = later[0];
    const passedOver = next?.candidates.some(
      (candidate) => candidate.tool !== next.tool && candidate.breakdown?.includes('recalled: it did not work'),
    );
    return preparing.avoided && passedOver ? preparing.avoided : undefined;
  });
}
