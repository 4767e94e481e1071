import { z } from 'zod';

/**
 * The shapes of a reading: the typed query it makes over symbol ids, and how the question's words
 * were placed. Loaded with the reader, not with the app (the API types the reading it returns).
 */

/** A term of a typed query: a variable, or a symbol by its id. */
export const queryTermSchema = z.union([
  z.object({ variable: z.string().regex(/^[a-z][a-z0-9_]*$/) }),
  z.object({ symbol: z.number().int().nonnegative() }),
]);
export type QueryTerm = z.infer<typeof queryTermSchema>;

/** `subject predicate object`; with `chain`, the predicate may be followed any number of times (is-a chains). */
export const typedPatternSchema = z.object({
  subject: queryTermSchema,
  predicate: z.number().int().nonnegative(),
  object: queryTermSchema,
  chain: z.boolean().optional(),
  /** With `chain`: the symbol at the bound end counts too (zero steps). */
  orSelf: z.boolean().optional(),
});
export type TypedPattern = z.infer<typeof typedPatternSchema>;

/**
 * What a question asks, over symbol ids: `list` the values of `find`, `count` them, `yes-no`
 * whether the patterns hold, `describe` (the classes of a thing, nearest first) and `common`
 * (shared classes, nearest first) list `find` in the order of the chains' lengths.
 */
export const typedQuerySchema = z.object({
  form: z.enum(['list', 'count', 'yes-no', 'describe', 'common']),
  find: z.string().optional(),
  patterns: z.array(typedPatternSchema).min(1).max(8),
  /** Only the values nothing else is a kind of: "how many planets" counts Earth and Mars, not the kind "gas giant". */
  individuals: z.boolean().optional(),
});
export type TypedQuery = z.infer<typeof typedQuerySchema>;

const symbolNoteSchema = z.object({ symbol: z.number().int(), label: z.string(), iri: z.string().optional() });

/**
 * How a question was read: the typed query the graph runs (absent when the graph cannot answer
 * it, with the reason), the words matched to symbols, the words it could not place, and for an
 * ambiguous word the symbols it may mean.
 */
export const readingSchema = z.object({
  question: z.string(),
  query: typedQuerySchema.optional(),
  /** The query in plain words: "every ?x with ?x is-a mammal (following is-a chains)". */
  text: z.string(),
  matched: z.array(z.object({ words: z.string(), symbols: z.array(symbolNoteSchema) })),
  unplaced: z.array(z.string()),
  choices: z.array(z.object({ words: z.string(), symbols: z.array(symbolNoteSchema) })).optional(),
  reason: z.string().optional(),
  /** The symbols the user chose for ambiguous words, which the reading took. */
  chosen: z.array(z.object({ words: z.string(), symbol: z.number().int() })).optional(),
  /** Who read it: the words against the graph's names, or the bound model (checked by the graph). */
  readBy: z.enum(['words', 'model']),
  /** When a model's reading was refused and the words' reading was used instead: why. */
  fallback: z.string().optional(),
});
export type Reading = z.infer<typeof readingSchema>;
