import type { EmbeddingEngine } from '#core/llm/embedder.ts';
import { cancelled } from '#core/llm/provider.ts';
import { isWebLlmEmbeddingModel, unknownWebLlmEmbeddingModel, webLlmEmbeddings } from '#core/llm/webllm-embeddings.ts';

type WebLlm = typeof import('./webllm-code.ts');
type Engine = InstanceType<WebLlm['MLCEngine']>;

/**
 * WebLLM's embedding models in the agent worker: an engine of their own, apart from the chat
 * model's (a run uses both, and an embedding model is small), holding one model at a time. Loads
 * take turns; a cancel unloads the engine (which stops its fetches), and the load ends with it.
 */
export function webLlmEmbedderLoader(
  importWebLlm: () => Promise<WebLlm>,
): (modelId: string, options?: { signal?: AbortSignal }) => Promise<EmbeddingEngine> {
  let loaded: { modelId: string; engine: Engine; embeddings: EmbeddingEngine } | undefined;
  let turn: Promise<unknown> = Promise.resolve();

  async function load(modelId: string, signal: AbortSignal | undefined): Promise<EmbeddingEngine> {
    if (!isWebLlmEmbeddingModel(modelId)) throw new Error(unknownWebLlmEmbeddingModel(modelId));
    if (loaded?.modelId === modelId) return loaded.embeddings;
    const previous = loaded;
    loaded = undefined;
    await previous?.engine.unload().catch(() => undefined);
    if (signal?.aborted) throw cancelled(signal);
    const webLlm = await importWebLlm();
    const engine = new webLlm.MLCEngine();
    const stop = () => void engine.unload().catch(() => undefined);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      await engine.reload(modelId);
    } catch (error) {
      await engine.unload().catch(() => undefined);
      if (signal?.aborted) throw cancelled(signal);
      throw new Error(
        `WebLLM could not load the embedding model ${modelId}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    } finally {
      signal?.removeEventListener('abort', stop);
    }
    loaded = { modelId, engine, embeddings: webLlmEmbeddings(engine) };
    return loaded.embeddings;
  }

  return (modelId, options = {}) => {
    const next = turn.then(() => load(modelId, options.signal));
    turn = next.catch(() => undefined);
    return next;
  };
}
