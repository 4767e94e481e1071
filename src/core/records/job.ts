import { z } from 'zod';

/** queued: stored, not started; running: started (a reload leaves it so, and it starts again); finished or failed: its result (or why) is in, for its goal's next cycle; taken: that cycle used it. */
export const jobStatusSchema = z.enum(['queued', 'running', 'finished', 'failed', 'taken']);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/**
 * Heavy work a tool handed to the background (a batch of embeddings, a large pull): stored in the
 * cycle that deferred it, while its goal waits; run apart from the cycles, again after a reload
 * if it had not finished; its result goes back to the tool in the goal's next cycle.
 */
export const jobSchema = z.object({
  id: z.number().int().optional(),
  sessionId: z.string(),
  goalId: z.number().int(),
  /** The cycle that deferred it. */
  cycle: z.number().int().positive(),
  /** The tool that deferred it, and the input it ran with: the tool resumes with both and the result. */
  tool: z.string(),
  input: z.unknown(),
  /** Which background work (see the service's job kinds), what it is given, and what it does, in words. */
  kind: z.string(),
  work: z.unknown(),
  what: z.string(),
  status: jobStatusSchema,
  /** How many times it was started: a runner that started an earlier attempt (a tab since closed) writes nothing. */
  attempts: z.number().int().nonnegative(),
  result: z.unknown().optional(),
  /** Why it failed, in words. */
  error: z.string().optional(),
  createdAt: z.number(),
  /** When its latest attempt started. */
  startedAt: z.number().optional(),
  finishedAt: z.number().optional(),
  /** The cycle that gave its result to the tool. */
  takenInCycle: z.number().int().positive().optional(),
});
export type Job = z.infer<typeof jobSchema>;
