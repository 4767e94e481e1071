import type { GgufHost } from '#core/llm/gguf-host.ts';
import type { WebLlmHost } from '#core/llm/webllm-host.ts';

/** A value made on first use; a failed making is tried again the next time. */
function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () =>
    (made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    }));
}

/** The WebLLM host, whose code (GPU checks, grammars, the engine keeper) is fetched when a model is first listed or run. */
export function lazyWebLlmHost(): WebLlmHost {
  const host = onFirstUse(async () => (await import('./webllm-host.ts')).browserWebLlmHost());
  return {
    gpu: async () => (await host()).gpu(),
    isCached: async (model) => (await host()).isCached(model),
    hasStoredFiles: async (model) => (await host()).hasStoredFiles(model),
    load: async (model, options) => (await host()).load(model, options),
    remove: async (model, options) => (await host()).remove(model, options),
    loadEmbedder: async (modelId, options) => (await host()).loadEmbedder(modelId, options),
  };
}

/** The CPU engine's host, whose code is fetched when a GGUF model is first listed, added or run. */
export function lazyGgufHost(): GgufHost {
  const host = onFirstUse(async () => (await import('./gguf-host.ts')).browserGgufHost());
  return {
    store: async (id, source, options) => (await host()).store(id, source, options),
    file: async (id) => (await host()).file(id),
    remove: async (id) => (await host()).remove(id),
    load: async (id, options) => (await host()).load(id, options),
    loadEmbedder: async (id, options) => (await host()).loadEmbedder(id, options),
  };
}
