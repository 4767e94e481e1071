import { z } from 'zod';
import { bottleneckSchema } from './model-use.ts';
import { modelSettingsSchema } from './model-settings.ts';

/**
 * The postures a child run takes (seed 004): an expander opens options and does not rank them; a
 * reviewer evaluates and does not invent; a repair fixes from measured failure traces; a red team
 * looks for breach paths.
 */
export const postureNameSchema = z.enum(['expander', 'reviewer', 'repair', 'red-team']);
export type PostureName = z.infer<typeof postureNameSchema>;

/** A way an action could breach what its user intends, as a red team found it. */
export const breachPathSchema = z
  .object({ path: z.string().trim().min(1).max(400), severity: z.enum(['low', 'medium', 'high']) })
  .strict();
export type BreachPath = z.infer<typeof breachPathSchema>;

/** What a red team made of an action before it waited for approval: its breach paths, or the bottleneck it stopped at. */
export const redTeamFindingSchema = z.object({
  breachPaths: z.array(breachPathSchema).max(5).optional(),
  bottleneck: bottleneckSchema.optional(),
});
export type RedTeamFinding = z.infer<typeof redTeamFindingSchema>;

/** What a child run used of the budget it shares with its parent run. */
export const childUsageSchema = z.object({
  requests: z.number().int().nonnegative(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  toolCalls: z.number().int().nonnegative(),
  wallMs: z.number().nonnegative(),
});
export type ChildUsage = z.infer<typeof childUsageSchema>;

/**
 * A child run as the log keeps it, under the cycle that started it: its posture, what it was
 * asked, the model and settings it ran with, what it used, and its typed result or the
 * bottleneck it stopped at (never both).
 */
export const childRunSchema = z.object({
  posture: postureNameSchema,
  /** What the parent asked of it, in a line. */
  purpose: z.string().max(300),
  provider: z.string(),
  model: z.string(),
  settings: modelSettingsSchema,
  usage: childUsageSchema,
  /** The typed result, as its posture's schema accepted it. */
  result: z.unknown().optional(),
  /** The result in words, for the log. */
  summary: z.string().max(1000),
  bottleneck: bottleneckSchema.optional(),
});
export type ChildRun = z.infer<typeof childRunSchema>;
