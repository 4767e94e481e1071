import { z } from 'zod';

/** A fact of a proof, as ids. */
const proofFactSchema = z.tuple([z.number().int(), z.number().int(), z.number().int()]);

/**
 * A question's answer, typed: `entities` (every one, with labels; lists, lookups, descriptions),
 * `boolean` (yes or no, with the facts that prove it or the reason none do), `count`, `value` (a
 * literal), or `none` with the reason the graph cannot answer. `reading` says how the question
 * was read, in plain words.
 */
export const answerSchema = z.object({
  kind: z.enum(['entities', 'boolean', 'count', 'value', 'none']),
  entities: z.array(z.object({ symbol: z.number().int(), label: z.string() })),
  value: z.union([z.boolean(), z.number(), z.string()]).optional(),
  reading: z.string(),
  proof: z.array(proofFactSchema).optional(),
  reason: z.string().optional(),
});
export type Answer = z.infer<typeof answerSchema>;
