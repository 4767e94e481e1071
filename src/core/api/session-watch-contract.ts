import { z } from 'zod';

/**
 * What a tab hears about its session while it is open: another tab changed what is stored (a
 * read-only tab shows it again), or this tab was given write access (the tab that held it
 * closed). Ordered notices are not needed: each says "read again".
 */
export const sessionEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('changed') }),
  z.object({ kind: z.literal('write-access') }),
]);
export type SessionEvent = z.infer<typeof sessionEventSchema>;

/** The session watch's part of the AgentService contract. */
export const sessionWatchContract = {
  /**
   * Reports session events to its progress callback until `cancel(operationId)`; it reports
   * `write-access` at once when this tab already has it, so none is missed between open and watch.
   */
  sessionWatch: {
    args: z.object({ operationId: z.string().min(1).max(100) }),
    result: z.object({}),
    progress: sessionEventSchema,
  },
} as const;
