import { z } from 'zod';
import type { Result } from '#core/result.ts';
import { DEFAULT_MAX_FAILED_PLANS } from './plan.ts';
import {
  DEFAULT_CONSOLIDATION_THRESHOLD,
  DEFAULT_MEMORY_CAPACITY,
  MAX_MEMORY_CAPACITY,
  MIN_MEMORY_CAPACITY,
} from './memory-entry.ts';

/**
 * How a session's loop plans and reflects (DESIGN section 8), for engineers who study and tune
 * the agent: kept with the session (and its snapshots), so two sessions can be compared.
 */
export const agentSettingsSchema = z.object({
  /** Plans steer the choice of tool; off, the score alone chooses (to compare). */
  planning: z.boolean({ error: 'planning is on (true) or off (false)' }),
  /** The agent reflects every this many cycles. */
  reflectionInterval: z
    .number({ error: 'give a whole number of cycles' })
    .int('give a whole number of cycles')
    .min(1, 'reflect every 1 cycle or more')
    .max(1000, 'reflect every 1,000 cycles or fewer'),
  /** A goal is abandoned when this many of its plans failed. */
  maxFailedPlans: z
    .number({ error: 'give a whole number of plans' })
    .int('give a whole number of plans')
    .min(1, '1 failed plan or more')
    .max(20, '20 failed plans or fewer'),
  /** The most entries working memory holds. Settings stored before it existed read as the default. */
  memoryCapacity: z
    .number({ error: 'give a whole number of entries' })
    .int('give a whole number of entries')
    .min(MIN_MEMORY_CAPACITY, `${MIN_MEMORY_CAPACITY} entries or more`)
    .max(MAX_MEMORY_CAPACITY, `${MAX_MEMORY_CAPACITY.toLocaleString('en')} entries or fewer`)
    .default(DEFAULT_MEMORY_CAPACITY),
  /** Above this share of its capacity, working memory is due for consolidation into episodes. */
  consolidationThreshold: z
    .number({ error: 'give a share from 0.5 to 0.95' })
    .min(0.5, 'consolidate at 0.5 (half full) or later')
    .max(0.95, 'consolidate at 0.95 or earlier, before memory is full')
    .default(DEFAULT_CONSOLIDATION_THRESHOLD),
});
export type AgentSettings = z.infer<typeof agentSettingsSchema>;

export const DEFAULT_AGENT_SETTINGS: AgentSettings = {
  planning: true,
  reflectionInterval: 5,
  maxFailedPlans: DEFAULT_MAX_FAILED_PLANS,
  memoryCapacity: DEFAULT_MEMORY_CAPACITY,
  consolidationThreshold: DEFAULT_CONSOLIDATION_THRESHOLD,
};

/** A session's settings: what it stored, over the defaults (a session stored before a setting existed has the default). */
export function settingsOfSession(session: { agentSettings?: Partial<AgentSettings> | undefined }): AgentSettings {
  return { ...DEFAULT_AGENT_SETTINGS, ...session.agentSettings };
}

/** Reads settings as given by a user: each problem names its field. */
export function parseAgentSettings(value: unknown): Result<AgentSettings> {
  const parsed = agentSettingsSchema.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      error: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    };
  return { ok: true, value: parsed.data };
}
