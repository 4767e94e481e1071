import { z } from 'zod';

export const adjustmentSchema = z.object({
  kind: z.enum(['boost', 'demote', 'replan', 'suggest-decomposition', 'consolidate']),
  goalId: z.number().int().optional(),
  /** A priority's value before and after. */
  from: z.number().optional(),
  to: z.number().optional(),
  reason: z.string(),
});
export type Adjustment = z.infer<typeof adjustmentSchema>;

/** What a reflection saw since the one before, what it changed and why, and how the psyche evolved after it. */
export const reflectionSchema = z.object({
  id: z.number().int().optional(),
  sessionId: z.string(),
  /** The session cycle it ran after. */
  cycle: z.number().int().nonnegative(),
  trigger: z.enum(['interval', 'request']),
  /** It looked at the cycles after this one. */
  sinceCycle: z.number().int().nonnegative(),
  toolStats: z.array(
    z.object({ tool: z.string(), uses: z.number().int().nonnegative(), successes: z.number().int().nonnegative() }),
  ),
  goals: z.array(
    z.object({
      goalId: z.number().int(),
      description: z.string(),
      cyclesSinceLastReflection: z.number().int().nonnegative(),
      progressed: z.boolean(),
      stagnantFor: z.number().int().nonnegative(),
    }),
  ),
  memoryPressure: z.number().min(0),
  adjustments: z.array(adjustmentSchema),
  psycheChanges: z.array(z.string()),
  /** The psyche version the evolution made, when it changed the psyche. */
  psycheVersion: z.number().int().positive().optional(),
  createdAt: z.number(),
});
export type Reflection = z.infer<typeof reflectionSchema>;
