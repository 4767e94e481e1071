import type { EmbedderProvider } from '#core/records/embedder-choice.ts';

/**
 * An embedding model turning texts into vectors: memory recall and similarity rank by them when
 * one is bound (hypervectors when none is). `identity` names the provider and model without any
 * credential: cached vectors are kept under it, so another model never reads them.
 */
export interface Embedder {
  readonly name: EmbedderProvider;
  readonly model: string;
  readonly identity: string;
  /** One vector per text, in order; an error (a ProviderError) says why in words, with no secret in it. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

/** How a loaded embedding model (on the CPU engine, or WebLLM's on the GPU) embeds: one vector per text, in order. */
export type EmbeddingEngine = { embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> };

/** Cosine similarity of two vectors (0 when either is zero, or their sizes differ). */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    dot += a[index]! * b[index]!;
    normA += a[index]! * a[index]!;
    normB += b[index]! * b[index]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}
