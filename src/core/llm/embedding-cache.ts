import type { AnimaDatabase } from '#core/store/database.ts';
import type { Embedder } from './embedder.ts';

/** Embeddings kept on the device at most, all embedders together; the oldest go first. */
export const MAX_CACHED_EMBEDDINGS = 20_000;

/** Vectors a run keeps in memory besides (the texts a cycle compares again the next). */
const MEMORY_CACHE_SIZE = 4_096;

/** What is embedded of a text: an embedding model reads a bounded context (512 tokens is common), and a summary's start says what it is about. */
export const EMBEDDED_CHARACTERS = 1_000;

/** The texts that have a vector now, and how many did not get one (over `maxNew`). */
export type EmbeddedTexts = { vectors: Map<string, Float32Array>; embeddedNow: number; notYet: number };

/**
 * An embedder as a run reaches it: vectors from memory, then from the device's cache, and only
 * the rest embedded (at most `maxNew` a call, so a cycle stays fast however many texts are new;
 * the rest follow in later cycles). New vectors are kept for later runs.
 */
export type EmbeddingAccess = {
  embedder: Embedder;
  vectorsOf(texts: readonly string[], options?: { maxNew?: number; signal?: AbortSignal }): Promise<EmbeddedTexts>;
};

/** SHA-256 (hex) of a text: the cache's key, so the text itself is not stored twice. */
async function digestOf(text: string): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(hash)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The embedder with the device's cache of its vectors in `db` (read and written outside any other transaction). */
export function cachedEmbeddings(db: AnimaDatabase, embedder: Embedder, now: () => number = Date.now): EmbeddingAccess {
  const inMemory = new Map<string, Float32Array>();
  const remember = (text: string, vector: Float32Array) => {
    if (inMemory.size >= MEMORY_CACHE_SIZE) inMemory.delete(inMemory.keys().next().value!);
    inMemory.set(text, vector);
  };
  return {
    embedder,
    async vectorsOf(texts, options = {}) {
      const { maxNew = Number.POSITIVE_INFINITY, signal } = options;
      const vectors = new Map<string, Float32Array>();
      const unique = [...new Set(texts)];
      const notInMemory: string[] = [];
      for (const text of unique) {
        const vector = inMemory.get(text);
        if (vector) vectors.set(text, vector);
        else notInMemory.push(text);
      }
      if (notInMemory.length === 0) return { vectors, embeddedNow: 0, notYet: 0 };
      const digests = await Promise.all(notInMemory.map(digestOf));
      const stored = await db.embeddings.bulkGet(digests.map((digest) => [embedder.identity, digest]));
      const missing: { text: string; digest: string }[] = [];
      notInMemory.forEach((text, index) => {
        const record = stored[index];
        if (record) {
          vectors.set(text, record.vector);
          remember(text, record.vector);
        } else missing.push({ text, digest: digests[index]! });
      });
      const taken = missing.slice(0, Math.max(0, maxNew));
      if (taken.length === 0) return { vectors, embeddedNow: 0, notYet: missing.length };
      const embedded = await embedder.embed(
        taken.map(({ text }) => text.slice(0, EMBEDDED_CHARACTERS)),
        signal,
      );
      const storedAt = now();
      taken.forEach(({ text }, index) => {
        vectors.set(text, embedded[index]!);
        remember(text, embedded[index]!);
      });
      await db.transaction('rw', db.embeddings, async () => {
        await db.embeddings.bulkPut(
          taken.map(({ digest }, index) => ({
            embedder: embedder.identity,
            digest,
            vector: embedded[index]!,
            storedAt,
          })),
        );
        const over = (await db.embeddings.count()) - MAX_CACHED_EMBEDDINGS;
        if (over > 0) await db.embeddings.orderBy('storedAt').limit(over).delete();
      });
      return { vectors, embeddedNow: taken.length, notYet: missing.length - taken.length };
    },
  };
}
