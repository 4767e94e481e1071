import { z } from 'zod';

/** A session is a workspace: its own graph, goals, memory and psyche. */
export const sessionRecordSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  /** The last committed cycle of the agent (0 before the first). */
  cycle: z.number().int().nonnegative(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type SessionRecord = z.infer<typeof sessionRecordSchema>;
