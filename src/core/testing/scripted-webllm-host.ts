import type { ChatEngine } from '../llm/chat-engine.ts';
import type { LoadProgress, WebLlmHost } from '../llm/webllm-host.ts';
import type { GpuReport, WebLlmModelSpec } from '../llm/webllm-models.ts';
import { cancelled } from '../llm/provider.ts';

/**
 * A WebLLM host for tests: a GPU as described, a model cache as sets (the models fully downloaded,
 * and those a stopped download left in part), downloads that report progress in steps (and may
 * fail or wait for a cancel, leaving what they fetched), and the engine given for every model.
 */
export class ScriptedWebLlmHost implements WebLlmHost {
  readonly cached = new Set<string>();
  /** The models with some of their files stored, as a failed or cancelled download leaves them. */
  readonly partlyStored = new Set<string>();
  readonly loads: string[] = [];
  /** The custom models' addresses as each load was given them, by id. */
  readonly customLoads = new Map<string, WebLlmModelSpec['custom']>();
  /** What each remove was asked to delete: the id, and "+library" when the library went too. */
  readonly removals: string[] = [];
  /** A download fails with this message, or (true) waits until it is cancelled. */
  downloadFails: string | undefined;
  downloadWaits = false;

  constructor(
    readonly engine: ChatEngine,
    readonly gpuReport: GpuReport = { available: true, adapter: 'Scripted GPU', shaderF16: true, maxBufferMB: 4096 },
  ) {}

  async gpu(): Promise<GpuReport> {
    return this.gpuReport;
  }

  async isCached(model: WebLlmModelSpec): Promise<boolean> {
    return this.cached.has(model.id);
  }

  async hasStoredFiles(model: WebLlmModelSpec): Promise<boolean> {
    return this.cached.has(model.id) || this.partlyStored.has(model.id);
  }

  async load(model: WebLlmModelSpec, options: { onProgress?: (progress: LoadProgress) => void; signal?: AbortSignal } = {}): Promise<ChatEngine> {
    const modelId = model.id;
    this.loads.push(modelId);
    if (model.custom) this.customLoads.set(modelId, model.custom);
    if (!this.gpuReport.available) throw new Error(this.gpuReport.reason);
    if (!this.cached.has(modelId)) {
      for (const fraction of [0.25, 0.5]) options.onProgress?.({ fraction, text: `Fetching param cache[${fraction * 4}/4]` });
      // Half was fetched: a failure or a cancel leaves it stored.
      this.partlyStored.add(modelId);
      if (this.downloadFails) throw new Error(this.downloadFails);
      if (this.downloadWaits) {
        await new Promise((_resolve, reject) => options.signal?.addEventListener('abort', () => reject(cancelled(options.signal)), { once: true }));
      }
      this.partlyStored.delete(modelId);
      this.cached.add(modelId);
    }
    options.onProgress?.({ fraction: 1, text: 'Finish loading on WebGPU' });
    return this.engine;
  }

  async remove(model: WebLlmModelSpec, options: { withLibrary?: boolean } = {}): Promise<void> {
    this.removals.push(options.withLibrary ? `${model.id}+library` : model.id);
    this.cached.delete(model.id);
    this.partlyStored.delete(model.id);
  }
}
