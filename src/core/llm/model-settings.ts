import { z } from 'zod';
import type { Result } from '#core/result.ts';
import type { ProviderName } from './provider.ts';

/** The longest answer any engine here is asked for; a model's own context window may hold less. */
export const MAX_ANSWER_TOKENS = 131_072;

/**
 * How a model samples one call: its temperature, top-p, the most tokens it may answer with, and
 * a seed for engines that can repeat an answer. Each is optional: a field left out falls to the
 * layer below (see `mergeModelSettings`), and at the bottom to the engine's own default.
 */
export const modelSettingsSchema = z.object({
  temperature: z.number({ error: 'temperature is a number from 0 to 2' }).min(0, 'temperature is at least 0').max(2, 'temperature is at most 2').optional(),
  topP: z.number({ error: 'top-p is a number above 0 and at most 1' }).gt(0, 'top-p is above 0').max(1, 'top-p is at most 1').optional(),
  maxTokens: z
    .number({ error: 'max tokens is a whole number of tokens' })
    .int('max tokens is a whole number of tokens')
    .positive('max tokens is at least 1')
    .max(MAX_ANSWER_TOKENS, `max tokens is at most ${MAX_ANSWER_TOKENS.toLocaleString('en')}`)
    .optional(),
  seed: z.number({ error: 'seed is a whole number' }).int('seed is a whole number').min(-(2 ** 31), 'seed is at least -2,147,483,648').max(2 ** 31 - 1, 'seed is at most 2,147,483,647').optional(),
});
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

const FIELDS = ['temperature', 'topP', 'maxTokens', 'seed'] as const;

/**
 * The settings a call is sent with, from layers given highest first: a call's override (a
 * posture's), then the session's setting, then a call's own default; a field no layer sets is
 * left to the engine's default.
 */
export function mergeModelSettings(...layers: (ModelSettings | undefined)[]): ModelSettings {
  const merged: ModelSettings = {};
  for (const field of FIELDS) {
    const value = layers.find((layer) => layer?.[field] !== undefined)?.[field];
    if (value !== undefined) merged[field] = value;
  }
  return merged;
}

/**
 * Reads settings as a user gives them, each problem naming its field; `contextTokens`, where the
 * chosen model's context window is known, bounds max tokens (an answer longer than the window
 * cannot be had).
 */
export function parseModelSettings(value: unknown, contextTokens?: number): Result<ModelSettings> {
  const parsed = modelSettingsSchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })) };
  const { maxTokens } = parsed.data;
  if (maxTokens !== undefined && contextTokens !== undefined && maxTokens > contextTokens)
    return { ok: false, error: [{ path: 'maxTokens', message: `max tokens is at most ${contextTokens.toLocaleString('en')}, the chosen model's context window` }] };
  return { ok: true, value: parsed.data };
}

/** Stored settings that no longer read leave every field to the engine. */
export function storedModelSettings(value: unknown): ModelSettings {
  return modelSettingsSchema.safeParse(value ?? {}).data ?? {};
}

/**
 * What the chosen provider does with settings it cannot promise to honour, in words for the
 * Settings screen: nothing set is dropped silently.
 */
export function unhonouredModelSettings(provider: ProviderName, settings: ModelSettings): string[] {
  const notes: string[] = [];
  if (provider === 'none' && FIELDS.some((field) => settings[field] !== undefined)) notes.push('No model is chosen: these settings apply once a model is.');
  if (provider === 'openai-compatible' && settings.seed !== undefined)
    notes.push('The seed is sent to the endpoint, but many servers ignore it (OpenAI treats it as best effort): the same seed repeats an answer only where the server honours it.');
  return notes;
}
