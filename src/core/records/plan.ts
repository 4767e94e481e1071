import { z } from 'zod';

/** What a goal can need, with the words that show it (seed 002's strategy patterns). */
export const STRATEGY_KEYWORDS = {
  knowledge: ['find', 'query', 'search', 'discover', 'explore', 'list', 'identify'],
  reasoning: ['reason', 'infer', 'deduce', 'classify', 'analyze', 'why'],
  creation: ['create', 'add', 'build', 'connect', 'link', 'store', 'write'],
  external: ['file', 'http', 'command', 'shell', 'fetch', 'download'],
  similarity: ['similar', 'like', 'related', 'compare', 'cluster'],
} as const;
export const NEEDS = Object.keys(STRATEGY_KEYWORDS) as Need[];
export type Need = keyof typeof STRATEGY_KEYWORDS;
export const needSchema = z.enum(NEEDS as [Need, ...Need[]]);

/** A goal is abandoned when this many of its plans failed (seed 002's max_backtrack_attempts). */
export const DEFAULT_MAX_FAILED_PLANS = 3;

/** A plan holds at most this many steps: a plan is a direction, re-made when it runs out or fails. */
export const MAX_PLAN_STEPS = 6;

export const planStepStatusSchema = z.enum(['pending', 'completed', 'failed', 'skipped']);
export const planStepSchema = z.object({
  tool: z.string(),
  /** The input proposed when planned; once run, the input it ran with (a tool proposes from the graph as it is then). */
  input: z.unknown(),
  rationale: z.string(),
  status: planStepStatusSchema,
  /** How it ended: the tool's summary, or why it was skipped. */
  result: z.string().optional(),
  /** The session cycle in which it ended. */
  cycle: z.number().int().positive().optional(),
});
export type PlanStep = z.infer<typeof planStepSchema>;

/** A goal's plan (DESIGN section 8): ordered tool steps, the strategy that ordered them, and its attempt. */
export const planSchema = z.object({
  id: z.number().int().optional(),
  sessionId: z.string(),
  goalId: z.number().int(),
  /** 0 for a goal's first plan; each new plan for the goal counts one more. */
  attempt: z.number().int().nonnegative(),
  needs: z.array(needSchema),
  strategy: z.string(),
  steps: z.array(planStepSchema),
  status: z.enum(['active', 'completed', 'failed', 'superseded']),
  /** Why it ended (failed: the step that failed and how). */
  statusReason: z.string().optional(),
  cycle: z.number().int().nonnegative(),
  createdAt: z.number(),
});
export type Plan = z.infer<typeof planSchema>;
