import { z } from 'zod';
import { redTeamFindingSchema } from './child-run.ts';

export const approvalStatusSchema = z.enum(['pending', 'approved', 'denied', 'done', 'invalidated']);
export type ApprovalStatus = z.infer<typeof approvalStatusSchema>;

/**
 * An action the shadow held for the user's approval (a veto pattern with requireApproval). It is
 * stored before it is shown; its goal waits. Approved, it runs in the goal's next cycle exactly as
 * asked, unless the tool's definition changed since (the digest binds the definition and input).
 */
export const approvalSchema = z.object({
  id: z.number().int().optional(),
  sessionId: z.string(),
  goalId: z.number().int(),
  /** The cycle that asked. */
  cycle: z.number().int().positive(),
  tool: z.string(),
  input: z.unknown(),
  /** SHA-256 of the tool's definition and the input, hex. */
  digest: z.string(),
  /** The veto pattern that asked, why it fired, and what it says. */
  pattern: z.string(),
  because: z.string(),
  explanation: z.string(),
  status: approvalStatusSchema,
  /** The user's reason for a denial, or why an approval could not be carried out. */
  reason: z.string().optional(),
  createdAt: z.number(),
  decidedAt: z.number().optional(),
  /** The input the agent asked with, when the user approved an edited one (`input` then holds the edit). */
  askedInput: z.unknown().optional(),
  /** The cycle that carried the approved action out. */
  doneInCycle: z.number().int().positive().optional(),
  /** With a model bound: what a red-team child run found before the action waited, shown with it. */
  redTeam: redTeamFindingSchema.optional(),
});
export type Approval = z.infer<typeof approvalSchema>;
