/**
 * A text's embedding by one embedder, kept on the device so a cycle embeds only what is new:
 * under the embedder's identity (provider, address without credentials, model) and the text's
 * SHA-256, never the text itself.
 */
export type EmbeddingRecord = {
  embedder: string;
  digest: string;
  vector: Float32Array;
  /** When it was stored: the oldest go first when the cache is full. */
  storedAt: number;
};
