import type { AgentServiceImplementation } from '#core/api.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { systemPromptOf } from '#core/tools/model-facts.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';
import { readWornPersona } from '#core/personas/worn-persona.ts';
import { type Binding, bindProvider } from '#core/llm/bind-provider.ts';
import type { ModelUnavailable } from '#core/llm/provider.ts';
import { checkProvider } from '#core/llm/endpoint-check.ts';
import {
  INFERENCE_KEY,
  type InferenceSettings,
  inferenceSecrets,
  inferenceViewOf,
  parseInferenceSettings,
  inferenceSettingsOf,
} from '#core/llm/inference-settings.ts';
import { parseModelSettings, storedModelSettings, unhonouredModelSettings } from '#core/llm/model-settings.ts';
import type { ModelSettings } from '#core/records/model-settings.ts';
import { MAX_GGUF_CONTEXT } from '#core/llm/gguf-model.ts';
import { forgetStoredSecrets } from '#core/store/forget-secrets.ts';
import { UsageBudget } from '#core/llm/usage-budget.ts';
import { WEBLLM_MODELS, webLlmSpecOf } from '#core/llm/webllm-models.ts';

/** The inference slice of the AgentService: which model runs bind (a device setting), and a check of it. */
export function inferenceService(
  context: ServiceContext,
): Pick<
  AgentServiceImplementation,
  'inferenceGet' | 'inferenceSet' | 'inferenceCheck' | 'modelSettingsGet' | 'modelSettingsSet'
> {
  const { db, exclusively, canWrite, operations, sessionOf } = context;
  return {
    async inferenceGet() {
      return inferenceViewOf(await inferenceSettingsOf(context));
    },

    async inferenceSet({ settings }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      return exclusively(async () => {
        const stored = await inferenceSettingsOf(context);
        const parsed = parseInferenceSettings(settings, stored);
        if (!parsed.ok) return { ok: false, problems: parsed.error };
        // A key removed or replaced is no longer a stored secret an export refuses: no row may keep it.
        const kept = new Set(inferenceSecrets(parsed.value).map((secret) => secret.value));
        const forgotten = inferenceSecrets(stored).filter((secret) => !kept.has(secret.value));
        await db.transaction('rw', db.tables, async () => {
          await forgetStoredSecrets(db, forgotten);
          await db.settings.put({ key: INFERENCE_KEY, value: parsed.value });
        });
        return { ok: true, settings: inferenceViewOf(parsed.value) };
      });
    },

    async modelSettingsGet({ sessionId }) {
      await sessionOf(sessionId);
      const settings = await sessionModelSettings(context, sessionId);
      return { settings, notes: unhonouredModelSettings((await inferenceSettingsOf(context)).provider, settings) };
    },

    async modelSettingsSet({ sessionId, settings }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      return exclusively(async () => {
        await sessionOf(sessionId);
        const inference = await inferenceSettingsOf(context);
        const parsed = parseModelSettings(settings, await chosenContextTokens(context, inference));
        if (!parsed.ok) return { ok: false, problems: parsed.error };
        await db.sessions.update(sessionId, { modelSettings: parsed.value });
        return { ok: true, settings: parsed.value, notes: unhonouredModelSettings(inference.provider, parsed.value) };
      });
    },

    async inferenceCheck({ operationId }) {
      const controller = new AbortController();
      operations.set(operationId, controller);
      try {
        const settings = await inferenceSettingsOf(context);
        if (settings.provider === 'none')
          return {
            ok: false,
            problems: [{ message: 'no model is chosen: the agent runs on the symbolic engine alone' }],
          };
        const binding = await bindChosenProvider(context, settings, controller.signal);
        if (!binding.provider)
          return { ok: false, problems: [{ message: binding.unavailable?.because ?? 'no model is bound' }] };
        const outcome = await checkProvider(binding.provider, controller.signal);
        return {
          ok: true,
          check: {
            provider: binding.provider.name,
            model: binding.provider.model,
            attempts: outcome.attempts.length,
            promptTokens: outcome.usage.promptTokens,
            completionTokens: outcome.usage.completionTokens,
            ...(outcome.ok ? { answer: outcome.value.city } : { bottleneck: outcome.bottleneck }),
          },
        };
      } catch (error) {
        if (controller.signal.aborted) return { ok: false, problems: [{ message: 'the check was cancelled' }] };
        throw error;
      } finally {
        operations.delete(operationId);
      }
    },
  };
}

/** Binds the provider the settings choose, with what this place can reach and the GGUF models added here. */
export function bindChosenProvider(
  context: Pick<ServiceContext, 'db' | 'dependencies'>,
  settings: InferenceSettings,
  signal?: AbortSignal,
): Promise<Binding> {
  return bindProvider(settings, context.dependencies.providerReach ?? {}, signal, {
    gguf: async (id) => {
      const record = await context.db.models.get(id);
      return record?.engine === 'gguf' ? record : undefined;
    },
    webLlm: (id) => webLlmSpecOf(context.db, id),
  });
}

/** The chosen model's context window, where it is known before the model is loaded (an endpoint's is not). */
async function chosenContextTokens(
  context: Pick<ServiceContext, 'db'>,
  settings: InferenceSettings,
): Promise<number | undefined> {
  if (settings.provider === 'gguf' && settings.ggufModel) {
    const record = await context.db.models.get(settings.ggufModel);
    return record?.engine === 'gguf' ? Math.min(record.contextLength ?? MAX_GGUF_CONTEXT, MAX_GGUF_CONTEXT) : undefined;
  }
  if (settings.provider === 'webllm' && settings.webllmModel) {
    const id = settings.webllmModel;
    return (
      WEBLLM_MODELS.find((model) => model.id === id)?.contextTokens ??
      (await webLlmSpecOf(context.db, id))?.custom?.contextTokens
    );
  }
  return undefined;
}

/** How the session's model samples (an older session, or one never set: every engine's defaults). */
export async function sessionModelSettings(
  context: Pick<ServiceContext, 'db'>,
  sessionId: string,
): Promise<ModelSettings> {
  return storedModelSettings((await context.db.sessions.get(sessionId))?.modelSettings);
}

/** The model a run works with: bound from the settings once, at the start, with the run's budget (and why it was loaded again, if it was). */
export type RunModel = { access?: ModelAccess; unavailable?: ModelUnavailable; reloaded?: string; budget: UsageBudget };

/** Binds the model of a run (the given settings, or the device's), its budget, and the stable system prompt. */
export async function bindRunModel(
  context: ServiceContext,
  sessionId: string,
  given: InferenceSettings | undefined,
  signal: AbortSignal,
): Promise<RunModel> {
  const settings = given ?? (await inferenceSettingsOf(context));
  const budget = new UsageBudget(settings.limits, context.now);
  const binding = await bindChosenProvider(context, settings, signal);
  if (!binding.provider) return { budget, ...(binding.unavailable ? { unavailable: binding.unavailable } : {}) };
  // The worn persona's prompt leads: it and the tool list are the same every request of the run, a
  // prefix a prefix cache (llama.cpp's) can reuse. WebLLM 0.2.86 cannot: it reuses its KV cache only
  // when a request continues the conversation before (a question's next step), not across questions.
  const worn = await readWornPersona(context.db, sessionId);
  const system =
    worn && worn.prompt.trim() !== '' ? `${worn.prompt}\n\n${systemPromptOf(TOOLS)}` : systemPromptOf(TOOLS);
  const modelSettings = await sessionModelSettings(context, sessionId);
  return {
    budget,
    access: {
      provider: binding.provider,
      budget,
      system,
      confidenceCap: settings.confidenceCap,
      settings: modelSettings,
      signal,
    },
    ...(binding.reloaded ? { reloaded: binding.reloaded } : {}),
  };
}
