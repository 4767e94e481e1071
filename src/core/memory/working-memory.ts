import type { MemoryEntry } from '#core/records/memory-entry.ts';
import { DEFAULT_MEMORY_CAPACITY } from '#core/records/memory-entry.ts';

/** What a use adds to an entry's hold on memory (up to 5 uses), and what a cycle of age takes away. */
const RETENTION = { perReference: 0.05, maxReferences: 5, perCycleOfAge: 0.01 } as const;

/**
 * How firmly an entry holds its place: its relevance, raised by each time a cycle consulted it
 * (reference count) and lowered by its age in cycles, so what is used stays and what is stale goes.
 */
export function retention(entry: MemoryEntry, cycle: number): number {
  return (
    entry.relevance +
    RETENTION.perReference * Math.min(entry.referenceCount, RETENTION.maxReferences) -
    RETENTION.perCycleOfAge * Math.max(0, cycle - entry.sourceCycle)
  );
}

/**
 * Adds entries to working memory. When it is full, the entry with the lowest retention goes
 * first, the oldest among equals; every eviction is returned so the caller records it (the
 * seed dropped entries silently).
 */
export function addToMemory(
  entries: readonly MemoryEntry[],
  added: readonly MemoryEntry[],
  capacity: number = DEFAULT_MEMORY_CAPACITY,
): { entries: MemoryEntry[]; evicted: MemoryEntry[] } {
  const all = [...entries, ...added];
  const evicted: MemoryEntry[] = [];
  const now = Math.max(0, ...all.map((entry) => entry.sourceCycle));
  while (all.length > capacity) {
    let weakest = 0;
    for (let index = 1; index < all.length; index++) {
      const candidate = retention(all[index]!, now);
      const current = retention(all[weakest]!, now);
      if (candidate < current || (candidate === current && all[index]!.timestamp < all[weakest]!.timestamp))
        weakest = index;
    }
    evicted.push(...all.splice(weakest, 1));
  }
  return { entries: all, evicted };
}

/**
 * The entries a cycle consults for its goal: those made for it, or about one of its symbols.
 * Each consultation counts on the entry (its reference count), which keeps it in memory longer.
 */
export function consultedEntries(
  entries: readonly MemoryEntry[],
  goalId: number | undefined,
  symbols: readonly number[],
): MemoryEntry[] {
  const asked = new Set(symbols);
  return entries.filter(
    (entry) => (goalId !== undefined && entry.goalId === goalId) || entry.symbols.some((symbol) => asked.has(symbol)),
  );
}

/** How full working memory is: entries / capacity (DESIGN: consolidation is due above 0.8). */
export function memoryPressure(entryCount: number, capacity: number = DEFAULT_MEMORY_CAPACITY): number {
  return capacity === 0 ? 1 : entryCount / capacity;
}
