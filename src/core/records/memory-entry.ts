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
  /** For an action: whether it got its goal anywhere (advanced or completed it). */
  succeeded: z.boolean().optional(),
});
export type MemoryEntry = z.infer<typeof memoryEntrySchema>;

export const DEFAULT_MEMORY_CAPACITY = 100;
export const MIN_MEMORY_CAPACITY = 10;
export const MAX_MEMORY_CAPACITY = 10_000;
/** DESIGN: consolidation is due above 0.8 of capacity. */
export const DEFAULT_CONSOLIDATION_THRESHOLD = 0.8;
