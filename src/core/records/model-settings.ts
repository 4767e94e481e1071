import { z } from 'zod';

/** The longest answer any engine here is asked for; a model's own context window may hold less. */
export const MAX_ANSWER_TOKENS = 131_072;

/**
 * How a model samples one call: its temperature, top-p, the most tokens it may answer with, and
 * a seed for engines that can repeat an answer. Each is optional: a field left out falls to the
 * layer below (see `mergeModelSettings`), and at the bottom to the engine's own default.
 */
export const modelSettingsSchema = z.object({
  temperature: z
    .number({ error: 'temperature is a number from 0 to 2' })
    .min(0, 'temperature is at least 0')
    .max(2, 'temperature is at most 2')
    .optional(),
  topP: z
    .number({ error: 'top-p is a number above 0 and at most 1' })
    .gt(0, 'top-p is above 0')
    .max(1, 'top-p is at most 1')
    .optional(),
  maxTokens: z
    .number({ error: 'max tokens is a whole number of tokens' })
    .int('max tokens is a whole number of tokens')
    .positive('max tokens is at least 1')
    .max(MAX_ANSWER_TOKENS, `max tokens is at most ${MAX_ANSWER_TOKENS.toLocaleString('en')}`)
    .optional(),
  seed: z
    .number({ error: 'seed is a whole number' })
    .int('seed is a whole number')
    .min(-(2 ** 31), 'seed is at least -2,147,483,648')
    .max(2 ** 31 - 1, 'seed is at most 2,147,483,647')
    .optional(),
});
export type ModelSettings = z.infer<typeof modelSettingsSchema>;
