import type { Result } from '#core/result.ts';
import type { ProviderName } from './provider.ts';
import { modelSettingsSchema, type ModelSettings } from '#core/records/model-settings.ts';

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
 * A call's override (a posture's) within the session's answer length: a posture sets its own
 * sampling, but a lower max tokens the user chose (to spare a slow machine) still holds.
 */
export function overrideWithinSession(override: ModelSettings, session: ModelSettings | undefined): ModelSettings {
  const cap = session?.maxTokens;
  if (cap === undefined || override.maxTokens === undefined || override.maxTokens <= cap) return override;
  return { ...override, maxTokens: cap };
}

/**
 * Reads settings as a user gives them, each problem naming its field; `contextTokens`, where the
 * chosen model's context window is known, bounds max tokens (an answer longer than the window
 * cannot be had).
 */
export function parseModelSettings(value: unknown, contextTokens?: number): Result<ModelSettings> {
  const parsed = modelSettingsSchema.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      error: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    };
  const { maxTokens } = parsed.data;
  if (maxTokens !== undefined && contextTokens !== undefined && maxTokens > contextTokens)
    return {
      ok: false,
      error: [
        {
          path: 'maxTokens',
          message: `max tokens is at most ${contextTokens.toLocaleString('en')}, the chosen model's context window`,
        },
      ],
    };
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
  if (provider === 'none' && FIELDS.some((field) => settings[field] !== undefined))
    notes.push('No model is chosen: these settings apply once a model is.');
  if (provider === 'openai-compatible' && settings.seed !== undefined)
    notes.push(
      'The seed is sent to the endpoint, but many servers ignore it (OpenAI treats it as best effort): the same seed repeats an answer only where the server honours it.',
    );
  return notes;
}
