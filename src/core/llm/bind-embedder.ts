import type { EmbedderChoice } from '#core/records/embedder-choice.ts';
import type { AddedModels, ProviderReach } from './bind-provider.ts';
import type { Embedder } from './embedder.ts';
import { NO_GGUF_HERE } from './gguf-host.ts';
import type { InferenceSettings } from './inference-settings.ts';
import { openAiEmbedder } from './openai-embeddings.ts';
import { cancelled } from './provider.ts';

/** The embedder a run binds, or why the session's choice cannot be had (recall and similarity then use hypervectors). */
export type EmbedderBinding = { embedder: Embedder } | { embedder?: undefined; unavailable: string };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Binds the session's embedder: an OpenAI-compatible one reaches the endpoint of the device's
 * language model settings (its base URL and key) with the session's embedding model; a GGUF one
 * loads a model added on this device into the CPU engine, with embeddings on.
 */
export async function bindEmbedder(
  choice: EmbedderChoice,
  settings: InferenceSettings,
  reach: ProviderReach,
  added?: Pick<AddedModels, 'gguf'>,
  signal?: AbortSignal,
): Promise<EmbedderBinding> {
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
      return {
        unavailable:
          "WebLLM's embedding models are not bound yet: choose an OpenAI-compatible endpoint or a GGUF model to embed",
      };
  }
}
