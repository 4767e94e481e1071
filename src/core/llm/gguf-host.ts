import type { ChatEngine } from './chat-engine.ts';
import type { LoadProgress } from './chat-engine.ts';
import type { EmbeddingEngine } from './embedder.ts';

/** Why there is no CPU engine here (Node, the CLI). */
export const NO_GGUF_HERE = 'the CPU engine (llama.cpp in WebAssembly) runs only in the browser';

/** How far storing a model file has got, in bytes. */
export type StoreProgress = { bytesWritten: number; totalBytes?: number };

/**
 * The CPU engine as the agent worker has it: GGUF files kept in this origin's private file
 * system (OPFS, so they survive a reload and work offline), and llama.cpp compiled to
 * WebAssembly (wllama), whose code and wasm are loaded only when a model is. The core keeps the
 * models' records (name, header facts) and reaches files and engine only through this, so tests
 * put an in-memory host in its place; in Node there is none.
 */
export interface GgufHost {
  /**
   * Writes a model file under an id, from a Blob (a file the user picked) or a stream (a
   * download), reporting progress; a cancel or failure leaves no file behind.
   */
  store(
    id: string,
    source: Blob | ReadableStream<Uint8Array>,
    options?: { totalBytes?: number; onProgress?: (progress: StoreProgress) => void; signal?: AbortSignal },
  ): Promise<void>;
  /** The stored file, for reading its header; undefined when there is none. */
  file(id: string): Promise<Blob | undefined>;
  /** Deletes the file (unloading the model first if it is loaded). */
  remove(id: string): Promise<void>;
  /** The model's engine: the stored file loaded into llama.cpp on the CPU (one model at a time). */
  load(
    id: string,
    options?: { contextTokens?: number; onProgress?: (progress: LoadProgress) => void; signal?: AbortSignal },
  ): Promise<ChatEngine>;
  /**
   * The model loaded for embeddings: kept apart from the chat model (embedding models are small,
   * and a run uses both), one at a time.
   */
  loadEmbedder(id: string, options?: { signal?: AbortSignal }): Promise<EmbeddingEngine>;
}
