import { z } from 'zod';

export const memoryKindSchema = z.enum(['observation', 'inference', 'decision', 'action', 'reflection']);

/** The agent's scratch space entry: what it noticed, inferred, decided or did in a cycle. */
export const memoryEntrySchema = z.object({
  id: z.number().int().optional(),
  sessionId: z.string(),
  content: z.string(),
  symbols: z.array(z.number().int()),
  kind: memoryKindSchema,
  timestamp: z.number(),
  relevance: z.number().min(0).max(1),
  sourceCycle: z.number().int().nonnegative(),
  referenceCount: z.number().int().nonnegative(),
  /** The goal the entry was made for, which consolidation groups by. */
  goalId: z.number().int().optional(),
  /** The tool the entry reports on, if any. */
  tool: z.string().optional(),
});
export type MemoryEntry = z.infer<typeof memoryEntrySchema>;

export const DEFAULT_MEMORY_CAPACITY = 100;

/**
 * Adds entries to working memory. When it is full, the entry with the lowest relevance goes
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
  while (all.length > capacity) {
    let weakest = 0;
    for (let index = 1; index < all.length; index++) {
      const candidate = all[index]!;
      const current = all[weakest]!;
      if (candidate.relevance < current.relevance || (candidate.relevance === current.relevance && candidate.timestamp < current.timestamp)) weakest = index;
    }
    evicted.push(...all.splice(weakest, 1));
  }
  return { entries: all, evicted };
}

/** How full working memory is: entries / capacity (DESIGN: consolidation is due above 0.8). */
export function memoryPressure(entryCount: number, capacity: number = DEFAULT_MEMORY_CAPACITY): number {
  return capacity === 0 ? 1 : entryCount / capacity;
}
