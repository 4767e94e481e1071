import type { EmbedderChoice } from '#core/records/embedder-choice.ts';
import type { AddedModels, ProviderReach } from './bind-provider.ts';
import type { Embedder } from './embedder.ts';
import { NO_GGUF_HERE } from './gguf-host.ts';
import type { InferenceSettings } from './inference-settings.ts';
import { openAiEmbedder } from './openai-embeddings.ts';
import { cancelled } from './provider.ts';
import { isWebLlmEmbeddingModel, unknownWebLlmEmbeddingModel } from './webllm-embeddings.ts';
import { NO_WEBLLM_HERE } from './webllm-host.ts';

/** The embedder a run binds, or why the session's choice cannot be had (recall and similarity then use hypervectors). */
export type EmbedderBinding = { embedder: Embedder } | { embedder?: undefined; unavailable: string };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Where binding finds the GGUF models added here, a cancel, and whether it may download a WebLLM model (a run never does). */
export type EmbedderBindOptions = {
  added?: Pick<AddedModels, 'gguf'>;
  signal?: AbortSignal;
  /** The user asked for it (the embedder check): a WebLLM model not yet cached is downloaded. */
  mayDownload?: boolean;
};

/**
 * Binds the session's embedder: an OpenAI-compatible one reaches the endpoint of the device's
 * language model settings (its base URL and key) with the session's embedding model; a GGUF one
 * loads a model added on this device into the CPU engine, with embeddings on; a WebLLM one loads
 * one of WebLLM's embedding models on the GPU.
 */
export async function bindEmbedder(
  choice: EmbedderChoice,
  settings: InferenceSettings,
  reach: ProviderReach,
  options: EmbedderBindOptions = {},
): Promise<EmbedderBinding> {
  const { added, signal } = options;
  switch (choice.provider) {
    case 'openai-compatible':
      if (!settings.openAi)
        return {
          unavailable:
            'no OpenAI-compatible endpoint is set: give its base URL (and key) in the language model settings, where the embedder reaches it',
        };
      return { embedder: openAiEmbedder({ ...settings.openAi, model: choice.model }, reach.fetch ?? fetch) };
    case 'gguf': {
      if (!reach.gguf) return { unavailable: NO_GGUF_HERE };
      if (!(await added?.gguf(choice.model)) || !(await reach.gguf.file(choice.model)))
        return { unavailable: `the GGUF model ${choice.model} is not on this device: add it on the Models screen` };
      try {
        const engine = await reach.gguf.loadEmbedder(choice.model, signal ? { signal } : {});
        return {
          embedder: { name: 'gguf', model: choice.model, identity: `gguf ${choice.model}`, embed: engine.embed },
        };
      } catch (error) {
        if (signal?.aborted) throw cancelled(signal);
        return { unavailable: `the CPU engine could not load ${choice.model} to embed: ${messageOf(error)}` };
      }
    }
    case 'webllm':
      return bindWebLlmEmbedder(choice.model, reach, options);
  }
}

/** One of WebLLM's embedding models, if this place has WebGPU and the model is downloaded (or may be). */
async function bindWebLlmEmbedder(
  model: string,
  reach: ProviderReach,
  { signal, mayDownload }: EmbedderBindOptions,
): Promise<EmbedderBinding> {
  if (!reach.webLlm) return { unavailable: NO_WEBLLM_HERE };
  if (!isWebLlmEmbeddingModel(model)) return { unavailable: unknownWebLlmEmbeddingModel(model) };
  const gpu = await reach.webLlm.gpu();
  if (!gpu.available) return { unavailable: `WebLLM cannot embed here: ${gpu.reason}` };
  // A run never starts a download by itself: the user's check of the embedder does.
  if (!mayDownload && !(await reach.webLlm.isCached({ id: model })))
    return {
      unavailable: `${model} is not downloaded yet: check the embedder on the Settings screen to download it`,
    };
  try {
    const engine = await reach.webLlm.loadEmbedder(model, signal ? { signal } : {});
    return { embedder: { name: 'webllm', model, identity: `webllm ${model}`, embed: engine.embed } };
  } catch (error) {
    if (signal?.aborted) throw cancelled(signal);
    return { unavailable: messageOf(error) };
  }
}
