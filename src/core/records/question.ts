import { z } from 'zod';

export const questionStatusSchema = z.enum(['pending', 'answered', 'withdrawn']);

/**
 * A question the agent asked the user (the user_interact tool). It is stored before it is shown;
 * its goal waits for the answer, across reloads. An answer's fact lines enter the graph, unless
 * the tool's definition changed since it asked (the digest binds the definition and the question).
 */
export const questionSchema = z.object({
  id: z.number().int().optional(),
  sessionId: z.string(),
  goalId: z.number().int(),
  /** The cycle that asked. */
  cycle: z.number().int().positive(),
  question: z.string(),
  /** SHA-256 of the asking tool's definition and the question, hex (see questionDigest); absent in questions stored before it was kept. */
  digest: z.string().optional(),
  status: questionStatusSchema,
  answer: z.string().optional(),
  /** How many facts the answer added or confirmed. */
  factsAdded: z.number().int().nonnegative().optional(),
  /** Why a question was withdrawn. */
  reason: z.string().optional(),
  createdAt: z.number(),
  answeredAt: z.number().optional(),
});
export type Question = z.infer<typeof questionSchema>;
