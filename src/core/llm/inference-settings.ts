import { z } from 'zod';
import type { Result } from '#core/result.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import { displayUrl, hasHiddenCredentials, REDACTED, type Secret } from '#core/secrets.ts';
import { endpointSecrets, openAiEndpointSchema } from './openai-compatible.ts';
import { usageLimitsSchema } from './usage-budget.ts';

/** Facts a model adds stay below this confidence until something confirms them (DESIGN section 10). */
export const DEFAULT_CONFIDENCE_CAP = 0.7;

/**
 * Which language model the agent's runs bind (a device setting, never exported: the API key
 * stays here), the limits of each run, and the confidence cap of facts a model adds.
 */
export const inferenceSettingsSchema = z.object({
  provider: z.enum(['none', 'webllm', 'gguf', 'openai-compatible'], {
    error: 'the provider is none, webllm, gguf or openai-compatible',
  }),
  openAi: openAiEndpointSchema.optional(),
  /** A model id of WebLLM's prebuilt list. */
  webllmModel: z.string().trim().min(1, 'name the WebLLM model').max(200).optional(),
  /** The id of a GGUF model added for the CPU engine. */
  ggufModel: z.string().trim().min(1, 'name the GGUF model').max(200).optional(),
  limits: usageLimitsSchema.default({}),
  confidenceCap: z
    .number({ error: 'give a confidence between 0 and 1' })
    .min(0.05, 'a cap below 0.05 keeps nothing')
    .max(1, 'a confidence is at most 1')
    .default(DEFAULT_CONFIDENCE_CAP),
});
export type InferenceSettings = z.infer<typeof inferenceSettingsSchema>;

export const DEFAULT_INFERENCE_SETTINGS: InferenceSettings = {
  provider: 'none',
  limits: {},
  confidenceCap: DEFAULT_CONFIDENCE_CAP,
};

/** The settings key they are stored under. */
export const INFERENCE_KEY = 'inference';

/**
 * The settings as the UI sees them: whether a key is stored, never the key; the base URL without
 * its user name and password and with key-like query values masked, and whether it has any.
 */
export const inferenceViewSchema = inferenceSettingsSchema.extend({
  openAi: openAiEndpointSchema
    .omit({ apiKey: true })
    .extend({ apiKeyStored: z.boolean(), baseUrlCredentialsStored: z.boolean() })
    .optional(),
});
export type InferenceView = z.infer<typeof inferenceViewSchema>;

export function inferenceViewOf(settings: InferenceSettings): InferenceView {
  const { openAi, ...rest } = settings;
  if (!openAi) return rest;
  const { apiKey, ...endpoint } = openAi;
  return {
    ...rest,
    openAi: {
      ...endpoint,
      baseUrl: displayUrl(endpoint.baseUrl),
      apiKeyStored: apiKey !== undefined && apiKey !== '',
      baseUrlCredentialsStored: hasHiddenCredentials(endpoint.baseUrl),
    },
  };
}

/** Every secret the settings hold (the key, credentials in the base URL): none of them may leave the device. */
export function inferenceSecrets(settings: InferenceSettings): Secret[] {
  return settings.openAi ? endpointSecrets(settings.openAi) : [];
}

/**
 * Reads settings as a user gives them, over the stored ones: an endpoint without `apiKey` keeps
 * the stored key, an empty `apiKey` removes it; a base URL given as it was shown (its credentials
 * hidden) keeps the stored one. The chosen provider must be fully described.
 */
export function parseInferenceSettings(value: unknown, stored: InferenceSettings): Result<InferenceSettings> {
  const parsed = inferenceSettingsSchema.safeParse(value);
  if (!parsed.success)
    return {
      ok: false,
      error: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    };
  const settings = parsed.data;
  if (settings.openAi) {
    const apiKey = settings.openAi.apiKey === undefined ? stored.openAi?.apiKey : settings.openAi.apiKey.trim();
    const { apiKey: _given, ...endpoint } = settings.openAi;
    if (stored.openAi && endpoint.baseUrl === displayUrl(stored.openAi.baseUrl))
      endpoint.baseUrl = stored.openAi.baseUrl;
    // An address edited around its masked credentials would send the mask itself.
    else if (endpoint.baseUrl.includes(REDACTED) || endpoint.baseUrl.includes(encodeURIComponent(REDACTED)))
      return {
        ok: false,
        error: [
          {
            path: 'openAi.baseUrl',
            message: `the base URL holds ${REDACTED} where a credential was: type the credential again, or keep the address as it was shown`,
          },
        ],
      };
    settings.openAi = apiKey ? { ...endpoint, apiKey } : endpoint;
  }
  if (settings.provider === 'openai-compatible' && !settings.openAi)
    return { ok: false, error: [{ path: 'openAi', message: 'give the endpoint: its base URL and model' }] };
  if (settings.provider === 'webllm' && !settings.webllmModel)
    return { ok: false, error: [{ path: 'webllmModel', message: 'choose a WebLLM model' }] };
  if (settings.provider === 'gguf' && !settings.ggufModel)
    return { ok: false, error: [{ path: 'ggufModel', message: 'choose a GGUF model (add one on the Models screen)' }] };
  return { ok: true, value: settings };
}

/** Stored settings that no longer read (an older shape) bind no model. */
export function storedInferenceSettings(value: unknown): InferenceSettings {
  return inferenceSettingsSchema.safeParse(value).data ?? DEFAULT_INFERENCE_SETTINGS;
}

/** The device's inference settings as stored, or the defaults when none are. */
export async function inferenceSettingsOf(context: { db: AnimaDatabase }): Promise<InferenceSettings> {
  return storedInferenceSettings((await context.db.settings.get(INFERENCE_KEY))?.value);
}
