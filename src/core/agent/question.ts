import { z } from 'zod';

export const questionStatusSchema = z.enum(['pending', 'answered', 'withdrawn']);

/**
 * A question the agent asked the user (the user_interact tool). It is stored before it is shown;
 * its goal waits for the answer, across reloads. An answer's fact lines enter the graph.
 */
export const questionSchema = z.object({
  id: z.number().int().optional(),
  sessionId: z.string(),
  goalId: z.number().int(),
  /** The cycle that asked. */
  cycle: z.number().int().positive(),
  question: z.string(),
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
