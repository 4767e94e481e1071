import { engineProvider } from './chat-engine.ts';
import type { InferenceSettings } from './inference-settings.ts';
import { openAiCompatibleProvider } from './openai-compatible.ts';
import type { LlmProvider, ModelUnavailable } from './provider.ts';

import { NO_WEBLLM_HERE, type WebLlmHost } from './webllm-host.ts';
import { prebuiltSpecOf, unknownWebLlmModel, type WebLlmModelSpec, webLlmModelSeesImages } from './webllm-models.ts';
import { type GgufHost, NO_GGUF_HERE } from './gguf-host.ts';
import { MAX_GGUF_CONTEXT } from './gguf-model.ts';
import type { GgufModelRecord } from '#core/records/gguf-model.ts';

/**
 * What binding can reach: the network (for an endpoint), the in-browser engines this place has
 * (none in Node, the CLI), and the records of the GGUF models added here.
 */
export type ProviderReach = { fetch?: typeof fetch; webLlm?: WebLlmHost; gguf?: GgufHost };

/**
 * The provider a run binds: a model (and why it was loaded again, when the engine kept had lost
 * it), none (the symbolic engine alone), or none with the reason the chosen one cannot be had.
 */
export type Binding =
  { provider: LlmProvider; reloaded?: string } | { provider?: undefined; unavailable?: ModelUnavailable };

const unavailable = (kind: ModelUnavailable['kind'], because: string) => ({ unavailable: { kind, because } });
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Where binding finds the models added on this device (none in the CLI's tests). */
export type AddedModels = {
  gguf(id: string): Promise<GgufModelRecord | undefined>;
  webLlm(id: string): Promise<WebLlmModelSpec | undefined>;
};

/** Binds the provider the settings choose; one that cannot be had leaves the run to the symbolic engine, and says why. */
export async function bindProvider(
  settings: InferenceSettings,
  reach: ProviderReach,
  signal?: AbortSignal,
  added?: AddedModels,
): Promise<Binding> {
  switch (settings.provider) {
    case 'gguf': {
      if (!settings.ggufModel) return unavailable('not-chosen', 'no GGUF model is chosen');
      if (!reach.gguf) return unavailable('not-here', NO_GGUF_HERE);
      const record = await added?.gguf(settings.ggufModel);
      if (!record || !(await reach.gguf.file(settings.ggufModel)))
        return unavailable(
          'not-on-device',
          `the GGUF model ${settings.ggufModel} is not on this device: add it on the Models screen`,
        );
      try {
        const contextTokens = Math.min(record.contextLength ?? MAX_GGUF_CONTEXT, MAX_GGUF_CONTEXT);
        return {
          provider: engineProvider(await reach.gguf.load(record.id, { contextTokens, ...(signal ? { signal } : {}) }), {
            name: 'gguf',
            model: record.id,
          }),
        };
      } catch (error) {
        if (signal?.aborted) throw error;
        return unavailable('load-failed', `the CPU engine could not load ${record.id}: ${messageOf(error)}`);
      }
    }
    case 'none':
      return {};
    case 'openai-compatible':
      if (!settings.openAi) return unavailable('not-chosen', 'no endpoint is set for the OpenAI-compatible provider');
      return { provider: openAiCompatibleProvider(settings.openAi, reach.fetch ?? fetch) };
    case 'webllm': {
      if (!settings.webllmModel) return unavailable('not-chosen', 'no WebLLM model is chosen');
      if (!reach.webLlm) return unavailable('not-here', NO_WEBLLM_HERE);
      const spec = added ? await added.webLlm(settings.webllmModel) : prebuiltSpecOf(settings.webllmModel);
      if (!spec) return unavailable('not-on-device', unknownWebLlmModel(settings.webllmModel));
      // A run never starts a download of gigabytes by itself: that is the user's choice, on the Models screen.
      if (!(await reach.webLlm.isCached(spec)))
        return unavailable(
          'not-downloaded',
          `${settings.webllmModel} is not downloaded yet: download it on the Models screen`,
        );
      try {
        let reloaded: string | undefined;
        const engine = await reach.webLlm.load(spec, {
          ...(signal ? { signal } : {}),
          onReload: (why) => (reloaded = why),
        });
        return {
          provider: engineProvider(engine, {
            name: 'webllm',
            model: settings.webllmModel,
            ...(webLlmModelSeesImages(settings.webllmModel) ? { seesImages: true } : {}),
          }),
          ...(reloaded ? { reloaded } : {}),
        };
      } catch (error) {
        if (signal?.aborted) throw error;
        return unavailable('load-failed', `WebLLM could not load ${settings.webllmModel}: ${messageOf(error)}`);
      }
    }
  }
}
