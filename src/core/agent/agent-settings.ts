import { z } from 'zod';
import type { Result } from '#core/result.ts';
import { DEFAULT_MAX_FAILED_PLANS } from './plan.ts';

/**
 * How a session's loop plans and reflects (DESIGN section 8), for engineers who study and tune
 * the agent: kept with the session (and its snapshots), so two sessions can be compared.
 */
export const agentSettingsSchema = z.object({
  /** Plans steer the choice of tool; off, the score alone chooses (to compare). */
  planning: z.boolean({ error: 'planning is on (true) or off (false)' }),
  /** The agent reflects every this many cycles. */
  reflectionInterval: z.number({ error: 'give a whole number of cycles' }).int('give a whole number of cycles').min(1, 'reflect every 1 cycle or more').max(1000, 'reflect every 1,000 cycles or fewer'),
  /** A goal is abandoned when this many of its plans failed. */
  maxFailedPlans: z.number({ error: 'give a whole number of plans' }).int('give a whole number of plans').min(1, '1 failed plan or more').max(20, '20 failed plans or fewer'),
});
export type AgentSettings = z.infer<typeof agentSettingsSchema>;

export const DEFAULT_AGENT_SETTINGS: AgentSettings = { planning: true, reflectionInterval: 5, maxFailedPlans: DEFAULT_MAX_FAILED_PLANS };

/** Reads settings as given by a user: each problem names its field. */
export function parseAgentSettings(value: unknown): Result<AgentSettings> {
  const parsed = agentSettingsSchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) };
  return { ok: true, value: parsed.data };
}
