import { z } from 'zod';

/** A fact: subject, predicate and object are symbol ids; confidence is 0..1. */
export const tripleSchema = z.object({
  subject: z.number().int().nonnegative(),
  predicate: z.number().int().nonnegative(),
  object: z.number().int().nonnegative(),
  confidence: z.number().min(0).max(1),
  provenanceId: z.number().int().optional(),
  createdAt: z.number(),
});
export type Triple = z.infer<typeof tripleSchema>;

/** The identity of a triple: there is never more than one per (subject, predicate, object). */
export function tripleKey(subject: number, predicate: number, object: number): string {
  return `${subject} ${predicate} ${object}`;
}
