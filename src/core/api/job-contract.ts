import { z } from 'zod';
import { sessionIdSchema } from '#core/names.ts';
import { jobStatusSchema } from '#core/records/job.ts';

/** A background job as the UI and the CLI see it: what it does, for which goal, and how it went (never its input or result). */
export const jobViewSchema = z.object({
  id: z.number().int(),
  goalId: z.number().int(),
  /** The goal's description (empty when the goal is gone). */
  goal: z.string(),
  tool: z.string(),
  /** Which background work it is (`embed-episodes`), and what it does, in words. */
  kind: z.string(),
  what: z.string(),
  status: jobStatusSchema,
  /** How many times it was started (a reload starts an unfinished one again). */
  attempts: z.number().int(),
  /** Why it failed, in words. */
  error: z.string().optional(),
  createdAt: z.number(),
  /** When its latest attempt started. */
  startedAt: z.number().optional(),
  finishedAt: z.number().optional(),
});
export type JobView = z.infer<typeof jobViewSchema>;

/** The background work tools deferred. */
export const jobContract = {
  /** The background jobs tools deferred for the session's goals, newest first: what each does, and how it went. */
  jobList: {
    args: z.object({ sessionId: sessionIdSchema }),
    result: z.object({ jobs: z.array(jobViewSchema) }),
  },
} as const;
