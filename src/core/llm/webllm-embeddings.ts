// Types only: WebLLM's code (6 MB) is loaded by the worker's host, never by the core.
import type { CreateEmbeddingResponse, EmbeddingCreateParams } from '@mlc-ai/web-llm';
import type { EmbeddingEngine } from './embedder.ts';
import { cancelled } from './provider.ts';

/**
 * The embedding models of WebLLM 0.2.86's prebuilt list (its ModelType.embedding), small to
 * large, with the GPU memory WebLLM says each needs; a test checks them against WebLLM's list.
 * "b4" and "b32" are the same weights built for batches of 4 or 32 texts: the larger batch is
 * faster on many texts and takes more memory.
 */
export const WEBLLM_EMBEDDING_MODELS = [
  { id: 'snowflake-arctic-embed-s-q0f32-MLC-b4', name: 'Snowflake Arctic Embed S (batches of 4)', vramMB: 239 },
  { id: 'snowflake-arctic-embed-m-q0f32-MLC-b4', name: 'Snowflake Arctic Embed M (batches of 4)', vramMB: 539 },
  { id: 'snowflake-arctic-embed-s-q0f32-MLC-b32', name: 'Snowflake Arctic Embed S (batches of 32)', vramMB: 1023 },
  { id: 'snowflake-arctic-embed-m-q0f32-MLC-b32', name: 'Snowflake Arctic Embed M (batches of 32)', vramMB: 1408 },
] as const;

/** Whether an id names one of WebLLM's embedding models that Anima offers. */
export const isWebLlmEmbeddingModel = (modelId: string): boolean =>
  WEBLLM_EMBEDDING_MODELS.some((model) => model.id === modelId);

/** Says that an id names none of them, and which there are. */
export const unknownWebLlmEmbeddingModel = (modelId: string) =>
  `there is no WebLLM embedding model ${modelId}: choose one of ${WEBLLM_EMBEDDING_MODELS.map((model) => model.id).join(', ')}`;

/** The part of WebLLM's MLCEngine that embeds, with an embedding model loaded: `engine.embeddings.create`. */
export type WebLlmEmbed = {
  embeddings: { create(request: EmbeddingCreateParams): Promise<CreateEmbeddingResponse> };
};

/**
 * Texts in one request: WebLLM runs them in its model's batches, and cannot stop a request half
 * way, so a cancel is noticed between requests.
 */
const TEXTS_PER_REQUEST = 16;

/**
 * Embeds through WebLLM's OpenAI-style `engine.embeddings.create`. WebLLM refuses an empty text
 * (an empty summary can be embedded): it is sent as one space, which embeds as a text of nothing.
 */
export function webLlmEmbeddings(engine: WebLlmEmbed): EmbeddingEngine {
  return {
    async embed(texts, signal) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += TEXTS_PER_REQUEST) {
        if (signal?.aborted) throw cancelled(signal);
        const batch = texts.slice(start, start + TEXTS_PER_REQUEST);
        const response = await engine.embeddings.create({
          input: batch.map((text) => (text === '' ? ' ' : text)),
          encoding_format: 'float',
        });
        const ordered: Float32Array[] = [];
        for (const item of response.data) ordered[item.index] = Float32Array.from(item.embedding);
        const dimensions = ordered[0]?.length;
        if (
          !dimensions ||
          ordered.length !== batch.length ||
          batch.some((_text, index) => ordered[index]?.length !== dimensions)
        )
          throw new Error(
            `WebLLM gave ${response.data.length} embeddings for ${batch.length} texts, or embeddings of different sizes`,
          );
        vectors.push(...ordered);
      }
      return vectors;
    },
  };
}
