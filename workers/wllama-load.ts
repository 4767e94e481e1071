import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { cancelled } from '#core/llm/provider.ts';
import { type WllamaEngine, wllamaEngine } from '#core/llm/wllama-engine.ts';
import { ENGINE_CODE_CACHES, keepEngineCodeForOffline } from './engine-code.ts';

// The package's `main` names a file it does not ship; its built ES module is esm/index.js (re-exported by wllama-code.ts).
type WllamaModule = typeof import('./wllama-code.ts');

/** A GGUF model loaded into llama.cpp, its engine, and the means to unload it. */
export type LoadedWllama = {
  /** wllama itself, for what the engine does not offer (raw completion, a GBNF grammar). */
  wllama: InstanceType<WllamaModule['Wllama']>;
  engine: WllamaEngine;
  /** Ends the engine's requests, then frees the model's memory and stops llama.cpp's worker. */
  unload(): Promise<void>;
};

let wllamaModule: Promise<WllamaModule> | undefined;
let wasmAddress: Promise<string> | undefined;

/**
 * llama.cpp's wasm as a blob: address. wllama runs llama.cpp in a worker of its own, made from a
 * blob: URL, whose fetches the service worker does not see: offline it could not get the wasm.
 * This worker fetches it (from the service worker's cache when offline) and hands it over.
 */
function wasmBlobAddress(): Promise<string> {
  return (wasmAddress ??= fetch(wasmUrl)
    .then(async (response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return URL.createObjectURL(await response.blob());
    })
    .catch((error: unknown) => {
      wasmAddress = undefined;
      throw new Error(`llama.cpp's wasm could not be loaded (${messageOf(error)}); open Anima online once to fetch it`);
    }));
}

/** wllama's code (about 400 KB, its wasm apart), imported the first time a model is loaded. */
function importWllama(): Promise<WllamaModule> {
  return (wllamaModule ??= import('./wllama-code.ts').catch((error: unknown) => {
    wllamaModule = undefined;
    throw new Error(`llama.cpp's code could not be loaded (${messageOf(error)}); open Anima online once to fetch it`);
  }));
}

/**
 * Loads a GGUF file into llama.cpp compiled to WebAssembly (wllama) on the CPU: the agent
 * worker's GGUF host and the inference tests' page both load models through this.
 *
 * No layers go to the GPU (WebGPU is WebLLM's), and there is no warm-up run (it costs a whole
 * decode before the first request). Threads are wllama's choice: several where the page is
 * cross-origin isolated (COOP/COEP), otherwise one. A cancel answers at once and unloads what
 * was loading: wllama cannot stop a load half way.
 */
export async function loadWllama(
  file: Blob,
  options: { contextTokens: number; signal?: AbortSignal; embeddings?: boolean },
): Promise<LoadedWllama> {
  const { contextTokens, signal } = options;
  const { Wllama, LogLevel, WLLAMA_CODE_URL } = await importWllama();
  const wasm = await wasmBlobAddress();
  if (signal?.aborted) throw cancelled(signal);
  // llama.cpp says why a load failed only in its log: its first error line while loading is the reason.
  let loadErrors: string[] | undefined = [];
  const wllama = new Wllama(
    { default: wasm },
    {
      logger: {
        // Its debug lines (every request's slot timings) would bury the worker's console.
        debug: () => undefined,
        log: console.log,
        warn: console.warn,
        error: (...data: unknown[]) => {
          loadErrors?.push(data.map(String).join(' '));
          console.error(...data);
        },
      },
    },
  );
  try {
    await untilAborted(
      wllama.loadModel([file], {
        n_ctx: contextTokens,
        n_gpu_layers: 0,
        warmup: false,
        log_level: LogLevel.WARN,
        // An embedding model pools each text into one vector, as its file says (mean, CLS...).
        ...(options.embeddings ? { embeddings: true } : {}),
      }),
      signal,
    );
    // wllama 3.8.1 resolves even when llama.cpp refused the file; a loaded model has a vocabulary.
    if (wllama.getLoadedContextInfo().n_vocab <= 0)
      throw new Error(loadErrors[0] ?? 'llama.cpp refused the file and did not say why');
  } catch (error) {
    void wllama.exit().catch(() => undefined);
    if (signal?.aborted) throw cancelled(signal);
    throw new Error(loadFailure(error), { cause: error });
  } finally {
    loadErrors = undefined;
  }
  // Loaded, so the code and wasm were fetched: kept for offline use even on a first visit.
  void keepEngineCodeForOffline(ENGINE_CODE_CACHES.wllama, [WLLAMA_CODE_URL, new URL(wasmUrl, WLLAMA_CODE_URL).href]);
  const engine = wllamaEngine(wllama);
  return {
    wllama,
    engine,
    async unload() {
      await engine.close();
      await wllama.exit().catch(() => undefined);
    },
  };
}

/** The promise, or the signal's reason as soon as it aborts (what is still running is the caller's to stop). */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  let stopListening = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    const onAbort = () => reject(cancelled(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    stopListening = () => signal.removeEventListener('abort', onAbort);
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    stopListening();
  }
}

/** Why llama.cpp did not load a model, in words a user can act on. */
function loadFailure(error: unknown): string {
  const message = messageOf(error);
  if (/out of memory|OOM|Cannot allocate|allocation failed|memory access out of bounds/i.test(message))
    return `the model does not fit in this device's memory: choose a smaller model or a shorter context (${message})`;
  return `llama.cpp could not load the model: the file may be damaged, or not a GGUF model this version of llama.cpp reads (${message})`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
