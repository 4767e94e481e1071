import type { ChatEngine } from '#core/llm/chat-engine.ts';
import type { GgufHost } from '#core/llm/gguf-host.ts';
import { cancelled } from '#core/llm/provider.ts';
import type { EmbeddingEngine } from '#core/llm/embedder.ts';

/**
 * The CPU engine for tests: files kept in memory, streams read chunk by chunk (so a cancel can
 * land half way), and an engine of the test's choosing for each load (a scripted one).
 */
export class MemoryGgufHost implements GgufHost {
  readonly files = new Map<string, Blob>();
  readonly loads: { id: string; contextTokens?: number }[] = [];

  constructor(
    private readonly engineFor: (id: string) => ChatEngine,
    private readonly embeddingsFor?: (id: string) => EmbeddingEngine,
  ) {}

  async store(
    id: string,
    source: Blob | ReadableStream<Uint8Array>,
    options: Parameters<GgufHost['store']>[2] = {},
  ): Promise<void> {
    const { signal, onProgress, totalBytes } = options;
    if (source instanceof Blob) {
      if (signal?.aborted) throw cancelled(signal);
      this.files.set(id, source);
      onProgress?.({ bytesWritten: source.size, ...(totalBytes !== undefined ? { totalBytes } : {}) });
      return;
    }
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let bytesWritten = 0;
    const reader = source.getReader();
    for (;;) {
      if (signal?.aborted) {
        await reader.cancel();
        throw cancelled(signal);
      }
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(new Uint8Array(value));
      bytesWritten += value.byteLength;
      onProgress?.({ bytesWritten, ...(totalBytes !== undefined ? { totalBytes } : {}) });
    }
    this.files.set(id, new Blob(chunks));
  }

  async file(id: string): Promise<Blob | undefined> {
    return this.files.get(id);
  }

  async remove(id: string): Promise<void> {
    this.files.delete(id);
  }

  async load(id: string, options: Parameters<GgufHost['load']>[1] = {}): Promise<ChatEngine> {
    if (!this.files.has(id)) throw new Error(`no file ${id}`);
    this.loads.push({ id, ...(options.contextTokens !== undefined ? { contextTokens: options.contextTokens } : {}) });
    return this.engineFor(id);
  }

  async loadEmbedder(id: string): Promise<EmbeddingEngine> {
    if (!this.files.has(id)) throw new Error(`no file ${id}`);
    if (!this.embeddingsFor) throw new Error(`${id} is no embedding model in this test`);
    return this.embeddingsFor(id);
  }
}
