import type { ChatEngine } from '../src/core/llm/chat-engine.ts';
import { cancelled } from '../src/core/llm/provider.ts';
import type { LoadProgress, WebLlmHost } from '../src/core/llm/webllm-host.ts';
import type { GpuReport } from '../src/core/llm/webllm-models.ts';
import { ENGINE_CODE_CACHES, keepEngineCodeForOffline } from './engine-code.ts';

/** The little of WebGPU the check reads (the DOM library may not describe it). */
type GpuAdapter = { features: { has(name: string): boolean }; limits: { maxBufferSize: number }; info?: { vendor?: string; architecture?: string; description?: string } };
type Gpu = { requestAdapter(): Promise<GpuAdapter | null> };

type WebLlm = typeof import('./webllm-code.ts');

/** The caches where WebLLM (with its default Cache API backend) keeps a model's weights and configuration, under its address. */
const WEBLLM_MODEL_CACHES = ['webllm/model', 'webllm/config'];
type Engine = InstanceType<WebLlm['MLCEngine']>;

/**
 * WebLLM in the agent worker: its code (6 MB) is imported only when a model is listed, loaded or
 * deleted on a GPU that WebGPU can use, and one model is loaded at a time.
 */
export function browserWebLlmHost(): WebLlmHost {
  let webLlm: Promise<WebLlm> | undefined;
  const importWebLlm = () =>
    (webLlm ??= import('./webllm-code.ts').then((module) => {
      void keepEngineCodeForOffline(ENGINE_CODE_CACHES.webllm, [module.WEBLLM_CODE_URL]);
      return module;
    }).catch((error: unknown) => {
      webLlm = undefined;
      throw new Error(`WebLLM's code could not be loaded (${error instanceof Error ? error.message : String(error)}); open Anima online once to fetch it`);
    }));
  let loaded: { modelId: string; engine: Engine; chat: ChatEngine } | undefined;

  const unload = async () => {
    const previous = loaded;
    loaded = undefined;
    await previous?.engine.unload().catch(() => undefined);
  };

  return {
    async gpu(): Promise<GpuReport> {
      const gpu = (navigator as Navigator & { gpu?: Gpu }).gpu;
      if (!gpu) return { available: false, reason: 'this browser has no WebGPU (try a recent Chrome or Edge), so models run on the CPU engine or through an OpenAI-compatible endpoint' };
      let adapter: GpuAdapter | null;
      try {
        adapter = await gpu.requestAdapter();
      } catch (error) {
        return { available: false, reason: `WebGPU refused an adapter: ${error instanceof Error ? error.message : String(error)}` };
      }
      if (!adapter) return { available: false, reason: 'WebGPU found no usable GPU (it may be turned off, or this device has none), so models run on the CPU engine or through an OpenAI-compatible endpoint' };
      const info = adapter.info ?? {};
      const name = [info.vendor, info.architecture, info.description].filter((part) => part && part.trim() !== '').join(' ');
      return { available: true, adapter: name || 'a GPU that does not say its name', shaderF16: adapter.features.has('shader-f16'), maxBufferMB: Math.round(adapter.limits.maxBufferSize / 2 ** 20) };
    },

    async isCached(modelId) {
      return (await importWebLlm()).hasModelInCache(modelId);
    },

    async load(modelId, options: { onProgress?: (progress: LoadProgress) => void; signal?: AbortSignal } = {}) {
      const { signal, onProgress } = options;
      if (loaded?.modelId === modelId) return loaded.chat;
      const { MLCEngine } = await importWebLlm();
      await unload();
      if (signal?.aborted) throw cancelled(signal);
      const engine = new MLCEngine({ initProgressCallback: (report) => onProgress?.({ fraction: report.progress, text: report.text }) });
      // WebLLM cannot stop a download mid-file: a cancel unloads the engine and answers at once.
      const stop = new Promise<never>((_resolve, reject) => signal?.addEventListener('abort', () => reject(cancelled(signal)), { once: true }));
      try {
        await Promise.race([engine.reload(modelId), stop]);
      } catch (error) {
        void engine.unload().catch(() => undefined);
        if (signal?.aborted) throw cancelled(signal);
        throw new Error(loadFailure(modelId, error));
      }
      const chat: ChatEngine = {
        chat: { completions: { create: ((request: unknown) => engine.chat.completions.create(request as never)) as unknown as ChatEngine['chat']['completions']['create'] } },
        interruptGenerate: () => void engine.interruptGenerate(),
      };
      loaded = { modelId, engine, chat };
      return chat;
    },

    async remove(modelId) {
      if (loaded?.modelId === modelId) await unload();
      // Straight from WebLLM's caches: its own delete first fetches the model's index, which fails
      // offline and after a broken download, the very case a repair is for. The model library
      // (a few MB of wasm) stays: other models may share it.
      for (const name of WEBLLM_MODEL_CACHES) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) if (new URL(request.url).pathname.includes(`/${modelId}/`)) await cache.delete(request);
      }
    },
  };
}

/** Why a model did not load, in words a user can act on. */
function loadFailure(modelId: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/failed to fetch|networkerror|network error|load failed|ERR_INTERNET_DISCONNECTED|ERR_NAME_NOT_RESOLVED/i.test(message))
    return `could not download ${modelId}: the network cannot be reached. Connect once to download it; after that it runs offline (${message})`;
  if (/quota|QuotaExceeded/i.test(message)) return `there is no room to store ${modelId}: free some space, or choose a smaller model (${message})`;
  if (/device (was |is )?lost|out of memory|OOM/i.test(message)) return `${modelId} does not fit in this GPU's memory: choose a smaller model (${message})`;
  return `${modelId} could not be loaded: ${message}`;
}
