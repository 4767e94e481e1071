import { z } from 'zod';
import { modelUseSchema } from './model-use.ts';
import { rejectionSchema } from './rejection.ts';
import { childRunSchema } from './child-run.ts';

/** How a cycle ended for its goal. */
export const cycleOutcomeSchema = z.enum(['completed', 'advanced', 'no-change', 'failed', 'waiting']);
export type CycleOutcome = z.infer<typeof cycleOutcomeSchema>;

/** One cycle as the log keeps it: the four phases, every candidate's score, the choice and the outcome. */
export const cycleRecordSchema = z.object({
  sessionId: z.string(),
  cycle: z.number().int().positive(),
  goalId: z.number().int(),
  startedAt: z.number(),
  observe: z.string(),
  orient: z.string(),
  decide: z.string(),
  act: z.string(),
  candidates: z.array(
    z.object({
      tool: z.string(),
      score: z.number().optional(),
      breakdown: z.string().optional(),
      skippedBecause: z.string().optional(),
    }),
  ),
  tool: z.string(),
  input: z.unknown(),
  outcome: cycleOutcomeSchema,
  /** Why the goal's status changed in this cycle, when it did. */
  statusChange: z.string().optional(),
  /** When the shadow stopped the action: the veto pattern, why it fired, its provenance, and the approval it asked for. */
  shadow: z
    .object({
      pattern: z.string(),
      because: z.string(),
      provenanceId: z.number().int(),
      approvalId: z.number().int().optional(),
    })
    .optional(),
  /** When the tool asked a language model: which, what it used, and the bottleneck it ended in. */
  model: modelUseSchema.optional(),
  /** When the action was refused (by the tool, or a veto of the shadow): its class, what it required and observed, and whether a retry could help. */
  rejection: rejectionSchema.optional(),
  /** The child runs the cycle delegated to (a reviewer of a model's reading, a red team before an approval), in order. */
  children: z.array(childRunSchema).max(8).optional(),
});
export type CycleRecord = z.infer<typeof cycleRecordSchema>;
