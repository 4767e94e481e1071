import { z } from 'zod';
import { approvalStatusSchema } from '#core/records/approval.ts';
import { redTeamFindingSchema } from '#core/records/child-run.ts';
import { questionStatusSchema } from '#core/records/question.ts';
import { problemSchema } from '#core/result.ts';
import { sessionIdSchema } from '#core/names.ts';

/** An action waiting for (or decided by) the user, as the Approvals screen shows it. */
export const approvalViewSchema = z.object({
  id: z.number().int(),
  goalId: z.number().int(),
  goalDescription: z.string(),
  cycle: z.number().int(),
  tool: z.string(),
  /** The action as the shadow read it: `tool=... input=...`. */
  action: z.string(),
  /** The action's input, for editing before approval. */
  input: z.unknown(),
  /** The user approved an edited input (`action` and `input` are the edit). */
  isEdited: z.boolean(),
  pattern: z.string(),
  because: z.string(),
  explanation: z.string(),
  status: approvalStatusSchema,
  reason: z.string().optional(),
  createdAt: z.number(),
  decidedAt: z.number().optional(),
  doneInCycle: z.number().int().optional(),
  redTeam: redTeamFindingSchema.optional(),
});
export type ApprovalView = z.infer<typeof approvalViewSchema>;

/** A question of the agent, as the Approvals screen shows it. */
export const questionViewSchema = z.object({
  id: z.number().int(),
  goalId: z.number().int(),
  goalDescription: z.string(),
  cycle: z.number().int(),
  question: z.string(),
  status: questionStatusSchema,
  answer: z.string().optional(),
  factsAdded: z.number().int().optional(),
  reason: z.string().optional(),
  createdAt: z.number(),
  answeredAt: z.number().optional(),
});
export type QuestionView = z.infer<typeof questionViewSchema>;

/** What waits for the user: the actions held for approval and the agent's questions, as the Approvals screen shows them. */
export const approvalContract = {
  /** Actions waiting for approval first (oldest first), then decided ones (newest first). */
  approvalList: {
    args: z.object({ sessionId: sessionIdSchema, limit: z.number().int().min(1).max(1000).default(100) }),
    result: z.object({ approvals: z.array(approvalViewSchema), pendingCount: z.number().int() }),
  },
  /** Approves (the goal goes on and runs the action next, with the user's edited input if given) or denies (the goal goes on without it) a pending action. */
  approvalDecide: {
    args: z.object({
      sessionId: sessionIdSchema,
      approvalId: z.number().int(),
      decision: z.enum(['approve', 'deny']),
      reason: z.string().max(1000).optional(),
      /** With approve: the input to run instead of the one asked for (checked against the tool and the shadow). */
      input: z.unknown().optional(),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), approval: approvalViewSchema }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** The agent's questions waiting for an answer first (oldest first), then answered ones (newest first). */
  questionList: {
    args: z.object({ sessionId: sessionIdSchema, limit: z.number().int().min(1).max(1000).default(100) }),
    result: z.object({ questions: z.array(questionViewSchema), pendingCount: z.number().int() }),
  },
  /** Answers a question with facts ("subject, predicate, object[, confidence]" lines, all or nothing) and/or a note; the goal goes on. */
  questionAnswer: {
    args: z.object({
      sessionId: sessionIdSchema,
      questionId: z.number().int(),
      facts: z.string().max(100_000).default(''),
      note: z.string().max(10_000).default(''),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), question: questionViewSchema, factsAdded: z.number().int() }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
} as const;
