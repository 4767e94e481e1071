import { z } from 'zod';

/**
 * The one home of the caps on what users name and type: the same schema checks a name when it
 * is written (the service, for the CLI and the UI alike) and when a file brings it (a snapshot,
 * a catalog, a bundle), so a limit enforced on read is enforced on write.
 */

/** The most characters of a name: a session's, and every catalog item's (persona, part, trait, skill, guardrail, arc, stage). */
export const MAX_NAME_CHARS = 120;
/** The most characters of an id that comes from outside (a session's). */
export const MAX_ID_CHARS = 200;
/** The most characters of a goal's description, and of its success criteria. */
export const MAX_GOAL_TEXT_CHARS = 1_000;

/**
 * A name: trimmed, one line without control characters, 1 to MAX_NAME_CHARS characters. `of`
 * says whose in the refusal ("a session name has at most 120 characters").
 */
export function nameSchema(of?: string) {
  const noun = of === undefined ? 'name' : `${of} name`;
  return z
    .string()
    .trim()
    .min(1, `a ${noun} needs at least one character`)
    .max(MAX_NAME_CHARS, `a ${noun} has at most ${MAX_NAME_CHARS} characters`)
    .refine((name) => !/[\p{Cc}\p{Zl}\p{Zp}]/u.test(name), `a ${noun} is one line without control characters`);
}

/** A session's id as it crosses the API or arrives in a file. */
export const sessionIdSchema = z
  .string()
  .min(1)
  .max(MAX_ID_CHARS, `a session id has at most ${MAX_ID_CHARS} characters`);

/** A goal's description or criteria, as a user types them. */
export const goalTextSchema = z.string().max(MAX_GOAL_TEXT_CHARS, `at most ${MAX_GOAL_TEXT_CHARS} characters`);
