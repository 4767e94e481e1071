import type { ChatEngine, EngineCallOptions, EngineRequest } from '#core/llm/chat-engine.ts';
import { answerDecodingSchemas } from '#core/agent/answer-schemas.ts';
import { EngineKeeper, type KeeperLoadOptions, type LoadedEngine } from '#core/llm/engine-keeper.ts';
import type { WebLlmHost } from '#core/llm/webllm-host.ts';
import type { LoadProgress } from '#core/llm/chat-engine.ts';
import type { GpuReport, WebLlmModelSpec } from '#core/llm/webllm-models.ts';
import { cancelled } from '#core/llm/provider.ts';
import type { EmbeddingEngine } from '#core/llm/embedder.ts';
import { type WebLlmEmbed, webLlmEmbeddings } from '#core/llm/webllm-embeddings.ts';

/** WebLLM's words for a request to an engine whose model it unloaded (its ModelNotLoadedError). */
const MODEL_NOT_LOADED =
  'Model not loaded before trying to complete ChatCompletionRequest. Please ensure you have called MLCEngine.reload(model) to load the model before initiating APIs.';

/**
 * A WebLLM host for tests: a GPU as described, a model cache as sets (the models fully downloaded,
 * and those a stopped download left in part), downloads that report progress in steps (and may
 * fail or wait for a cancel, leaving what they fetched), and an engine per load that answers with
 * the one scripted engine given. Its engines are kept by the app's EngineKeeper, as the browser's
 * are: the tests can lose a kept engine's model (as WebLLM does when the GPU device is lost), hold
 * a load in its upload to the GPU (which WebLLM cannot stop), and count the engines alive.
 */
export class ScriptedWebLlmHost implements WebLlmHost {
  readonly cached = new Set<string>();
  /** The models with some of their files stored, as a failed or cancelled download leaves them. */
  readonly partlyStored = new Set<string>();
  /** The models loaded afresh, in order (a kept engine handed out again is not a load). */
  readonly loads: string[] = [];
  /** The embedding models loaded, in order (one kept is not loaded again). */
  readonly embedderLoads: string[] = [];
  #embedder: { modelId: string; engine: EmbeddingEngine } | undefined;
  /** The custom models' addresses as each load was given them, by id. */
  readonly customLoads = new Map<string, WebLlmModelSpec['custom']>();
  /** What each remove was asked to delete: the id, and "+library" when the library went too. */
  readonly removals: string[] = [];
  /** The answer schemas each fresh engine prepared, in order. */
  readonly prepared: string[][] = [];
  /** A download fails with this message, or (true) waits until it is cancelled. */
  downloadFails: string | undefined;
  downloadWaits = false;
  /** A load's upload to the GPU goes on until `finishUpload` is called, cancel or not (as WebLLM's does). */
  uploadWaits = false;
  readonly #alive = new Set<LoadedEngine>();
  #finishUpload: (() => void) | undefined;
  readonly #keeper: EngineKeeper<WebLlmModelSpec>;

  constructor(
    readonly engine: ChatEngine,
    readonly gpuReport: GpuReport = { available: true, adapter: 'Scripted GPU', shaderF16: true, maxBufferMB: 4096 },
    /** The engine (of WebLLM's MLCEngine shape) an embedding model is loaded into, by id. */
    private readonly embeddingEngineFor?: (modelId: string) => WebLlmEmbed,
  ) {
    this.#keeper = new EngineKeeper(
      { keyOf: (model) => model.id, load: (model, options) => this.#load(model, options) },
      answerDecodingSchemas(),
    );
  }

  /** How many engines hold a model on the GPU now. */
  get liveEngines(): number {
    return this.#alive.size;
  }

  /** The GPU device goes while nothing runs: WebLLM unloads the model of every engine. */
  loseModels(): void {
    this.#alive.clear();
  }

  /** Ends the upload a load is held in (see `uploadWaits`). */
  finishUpload(): void {
    this.#finishUpload?.();
  }

  async gpu(): Promise<GpuReport> {
    return this.gpuReport;
  }

  async isCached(model: WebLlmModelSpec): Promise<boolean> {
    return this.cached.has(model.id);
  }

  async hasStoredFiles(model: WebLlmModelSpec): Promise<boolean> {
    return this.cached.has(model.id) || this.partlyStored.has(model.id);
  }

  load(model: WebLlmModelSpec, options: KeeperLoadOptions = {}): Promise<ChatEngine> {
    return this.#keeper.load(model, options);
  }

  async remove(model: WebLlmModelSpec, options: { withLibrary?: boolean } = {}): Promise<void> {
    await this.#keeper.unloadFor(model, async () => {
      this.removals.push(options.withLibrary ? `${model.id}+library` : model.id);
      this.cached.delete(model.id);
      this.partlyStored.delete(model.id);
    });
  }

  /** Downloads the embedding model if it is not cached (as WebLLM's reload does), then hands out its engine. */
  async loadEmbedder(modelId: string, options: { signal?: AbortSignal } = {}): Promise<EmbeddingEngine> {
    if (this.#embedder?.modelId === modelId) return this.#embedder.engine;
    if (!this.embeddingEngineFor) throw new Error(`${modelId} is no embedding model in this test`);
    if (!this.gpuReport.available) throw new Error(this.gpuReport.reason);
    if (options.signal?.aborted) throw cancelled(options.signal);
    if (this.downloadFails && !this.cached.has(modelId)) throw new Error(this.downloadFails);
    this.cached.add(modelId);
    this.embedderLoads.push(modelId);
    this.#embedder = { modelId, engine: webLlmEmbeddings(this.embeddingEngineFor(modelId)) };
    return this.#embedder.engine;
  }

  async #load(
    model: WebLlmModelSpec,
    options: { onProgress?: (progress: LoadProgress) => void; signal: AbortSignal },
  ): Promise<LoadedEngine> {
    const modelId = model.id;
    this.loads.push(modelId);
    if (model.custom) this.customLoads.set(modelId, model.custom);
    if (!this.gpuReport.available) throw new Error(this.gpuReport.reason);
    if (!this.cached.has(modelId)) {
      for (const fraction of [0.25, 0.5])
        options.onProgress?.({ fraction, text: `Fetching param cache[${fraction * 4}/4]` });
      // Half was fetched: a failure or a cancel leaves it stored.
      this.partlyStored.add(modelId);
      if (this.downloadFails) throw new Error(this.downloadFails);
      if (this.downloadWaits) {
        await new Promise((_resolve, reject) =>
          options.signal.addEventListener('abort', () => reject(cancelled(options.signal)), { once: true }),
        );
      }
      this.partlyStored.delete(modelId);
      this.cached.add(modelId);
    }
    if (this.uploadWaits) await new Promise<void>((resolve) => (this.#finishUpload = resolve));
    const loaded = this.#engineOver(this.engine);
    this.#alive.add(loaded);
    options.onProgress?.({ fraction: 1, text: 'Finish loading on WebGPU' });
    return loaded;
  }

  /** An engine on the GPU that answers with the scripted one while its model is loaded. */
  #engineOver(scripted: ChatEngine): LoadedEngine {
    const alive = this.#alive;
    const loaded: LoadedEngine = {
      chat: {
        chat: {
          completions: {
            create: (async (request: EngineRequest, options?: EngineCallOptions) => {
              if (!alive.has(loaded)) throw new Error(MODEL_NOT_LOADED);
              return scripted.chat.completions.create(request as EngineRequest & { stream?: false }, options);
            }) as ChatEngine['chat']['completions']['create'],
          },
        },
        interruptGenerate: () => scripted.interruptGenerate(),
        ...(scripted.context ? { context: scripted.context } : {}),
      },
      isAlive: async () => alive.has(loaded),
      unload: async () => {
        alive.delete(loaded);
      },
      prepare: async (schemas, onPrepared) => {
        this.prepared.push([...schemas]);
        schemas.forEach((_schema, index) => onPrepared(index + 1));
      },
    };
    return loaded;
  }
}
