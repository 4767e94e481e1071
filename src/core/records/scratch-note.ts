import { z } from 'zod';

/**
 * A note the agent writes in the session's scratch area (the `artifacts` table): the findings of
 * a goal that asks for notes, as Markdown, rewritten as the findings grow. The user reads it
 * as plain text and downloads it; it is never rendered as HTML.
 */
export const scratchNoteSchema = z.object({
  id: z.number().int().optional(),
  sessionId: z.string(),
  goalId: z.number().int(),
  name: z.string().min(1).max(200),
  mediaType: z.literal('text/markdown'),
  text: z.string().max(1_000_000),
  /** How many of the goal's findings the note holds (it is rewritten when there are more). */
  findingsNoted: z.number().int().nonnegative(),
  /** The cycle that last wrote it. */
  cycle: z.number().int().nonnegative(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type ScratchNote = z.infer<typeof scratchNoteSchema>;
