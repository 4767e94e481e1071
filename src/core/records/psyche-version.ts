import { z } from 'zod';
import { psycheSchema } from './psyche.ts';

/**
 * One stored version of a session's psyche. Every change (import, edit, evolution, restore) adds
 * a version; the highest is the current psyche. Shadow encounters are counted on the current
 * version in place: they are events, not a change of character.
 */
export const psycheVersionSchema = z.object({
  id: z.number().int().optional(),
  sessionId: z.string(),
  version: z.number().int().positive(),
  psyche: psycheSchema,
  /** The session's cycle when the version was made. */
  cycle: z.number().int().nonnegative(),
  /** What made it: "the default psyche", "imported psyche.toml", "evolution at cycle 10: ...", "restored version 3". */
  reason: z.string(),
  createdAt: z.number(),
});
export type PsycheVersion = z.infer<typeof psycheVersionSchema>;
