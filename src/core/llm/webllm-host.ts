import type { ChatEngine } from './chat-engine.ts';
import type { KeeperLoadOptions } from './engine-keeper.ts';
import type { GpuReport, WebLlmModelSpec } from './webllm-models.ts';
import type { EmbeddingEngine } from './embedder.ts';

/** Why there is no WebLLM here (Node, the CLI). */
export const NO_WEBLLM_HERE = 'WebLLM runs only in the browser, on WebGPU';

/**
 * WebLLM as the worker has it (WebGPU, its model cache): the GPU check, the cached models, and
 * loading one model at a time (through an EngineKeeper: loads, removals and requests take turns).
 * The core reaches WebLLM only through this, so tests put a deterministic engine in its place; in
 * Node there is none.
 */
export interface WebLlmHost {
  /** Requests a WebGPU adapter (the presence of navigator.gpu proves nothing). */
  gpu(): Promise<GpuReport>;
  /** Whether the model is fully downloaded, so it loads offline. */
  isCached(model: WebLlmModelSpec): Promise<boolean>;
  /** Whether any of the model's files are stored, all of them or only some (a stopped download leaves some). */
  hasStoredFiles(model: WebLlmModelSpec): Promise<boolean>;
  /**
   * The model's engine: the one loaded, if it still holds the model (else it is loaded again, and
   * `onReload` says why), or downloads what is not cached, then loads it on the GPU and prepares
   * the answers' grammars (one model at a time).
   */
  load(model: WebLlmModelSpec, options?: KeeperLoadOptions): Promise<ChatEngine>;
  /**
   * Deletes the model's files from the cache (also what is left of a broken download), unloading
   * it first; with `withLibrary`, a custom model's library too (no other model uses it).
   */
  remove(model: WebLlmModelSpec, options?: { withLibrary?: boolean }): Promise<void>;
  /**
   * One of WebLLM's embedding models (see webllm-embeddings.ts), downloaded if it is not cached
   * and loaded on the GPU: kept apart from the chat model (a run uses both), one at a time.
   */
  loadEmbedder(modelId: string, options?: { signal?: AbortSignal }): Promise<EmbeddingEngine>;
}
