// Types only, from wllama's OpenAI-compatible types file (its main declarations pull Node's types in).
import type { CreateEmbeddingResponse, EmbeddingCreateParams } from '@wllama/wllama/esm/types/oai-compat';
import type { EmbeddingEngine } from './embedder.ts';
import { cancelled } from './provider.ts';

/** The part of wllama's `Wllama` that embeds: llama.cpp's OpenAI-compatible embeddings, on a model loaded with `embeddings: true`. */
export type WllamaEmbed = { createEmbedding(options: EmbeddingCreateParams): Promise<CreateEmbeddingResponse> };

/**
 * Embeds through llama.cpp in wllama, one text a request: llama.cpp pools each sequence apart,
 * and one at a time leaves its single slot free between texts for a chat model's requests.
 * wllama cannot stop an embedding half way: a cancel is noticed between texts.
 */
export function wllamaEmbeddings(wllama: WllamaEmbed): EmbeddingEngine {
  return {
    async embed(texts, signal) {
      const vectors: Float32Array[] = [];
      for (const text of texts) {
        if (signal?.aborted) throw cancelled(signal);
        const response = await wllama.createEmbedding({ input: text, encoding_format: 'float' });
        const embedding = response.data[0]?.embedding;
        if (!Array.isArray(embedding) || embedding.length === 0)
          throw new Error('llama.cpp returned no embedding for a text');
        vectors.push(Float32Array.from(embedding));
      }
      return vectors;
    },
  };
}
