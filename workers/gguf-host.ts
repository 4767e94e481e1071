import type { ChatEngine } from '#core/llm/chat-engine.ts';
import type { GgufHost, StoreProgress } from '#core/llm/gguf-host.ts';
import { cancelled } from '#core/llm/provider.ts';
import type { EmbeddingEngine } from '#core/llm/embedder.ts';
import { wllamaEmbeddings } from '#core/llm/wllama-embeddings.ts';
import { type LoadedWllama, loadWllama } from './wllama-load.ts';

/** The folder of this origin's private file system (OPFS) that holds the GGUF files. */
const GGUF_FOLDER = 'anima-gguf';

/**
 * The context a model is loaded with when the caller does not say: room for the agent's system
 * prompt, a few tool results and an answer (the memory llama.cpp holds for it grows with it).
 */
const DEFAULT_CONTEXT_TOKENS = 4096;

/** The context an embedding model is loaded with: the texts embedded are short (see llm/embedding-cache.ts). */
const EMBEDDING_CONTEXT_TOKENS = 1024;

/** A file's name in the folder: any id is safe ("/" and ".." are not), and the file says what it is. */
function fileNameOf(id: string): string {
  return `${encodeURIComponent(id)}.gguf`;
}

/**
 * The CPU engine in the browser: GGUF files in the origin's private file system, loaded into
 * llama.cpp (wllama, whose code and wasm come only with the first load), one model at a time.
 * Loads and removals run one after another, so two loads never hold two chat models; an
 * embedding model is held apart, one at a time too.
 */
export function browserGgufHost(): GgufHost {
  let loaded: { id: string; contextTokens: number; model: LoadedWllama } | undefined;
  let embedding: { id: string; model: LoadedWllama; engine: EmbeddingEngine } | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(task: () => Promise<T>): Promise<T> => {
    const result = queue.then(task);
    queue = result.catch(() => undefined);
    return result;
  };
  const unload = async () => {
    const previous = loaded;
    loaded = undefined;
    await previous?.model.unload();
  };
  const unloadEmbedding = async () => {
    const previous = embedding;
    embedding = undefined;
    await previous?.model.unload();
  };
  const fileOf = async (id: string): Promise<File | undefined> => {
    try {
      const handle = await (await ggufFolder()).getFileHandle(fileNameOf(id));
      return await handle.getFile();
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  };

  return {
    async store(id, source, options = {}) {
      const { signal, onProgress } = options;
      const totalBytes = options.totalBytes ?? (source instanceof Blob ? source.size : undefined);
      if (signal?.aborted) throw cancelled(signal);
      // The loaded model came from the file about to be replaced.
      if (loaded?.id === id) await oneAtATime(unload);
      if (embedding?.id === id) await oneAtATime(unloadEmbedding);
      const folder = await ggufFolder();
      const name = fileNameOf(id);
      const handle = await folder.getFileHandle(name, { create: true });
      try {
        await writeFile(
          handle,
          source instanceof Blob ? source.stream() : source,
          (bytesWritten) => onProgress?.(progressOf(bytesWritten, totalBytes)),
          signal,
        );
      } catch (error) {
        await folder.removeEntry(name).catch(() => undefined);
        throw signal?.aborted ? cancelled(signal) : error;
      }
    },

    file: fileOf,

    remove(id) {
      return oneAtATime(async () => {
        if (loaded?.id === id) await unload();
        if (embedding?.id === id) await unloadEmbedding();
        try {
          await (await ggufFolder()).removeEntry(fileNameOf(id));
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
      });
    },

    load(id, options = {}): Promise<ChatEngine> {
      const { signal, onProgress } = options;
      const contextTokens = options.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
      return oneAtATime(async () => {
        if (loaded?.id === id && loaded.contextTokens === contextTokens) return loaded.model.engine;
        if (signal?.aborted) throw cancelled(signal);
        const file = await fileOf(id);
        if (!file) throw new Error(`there is no stored file for the GGUF model ${id}: add the model again`);
        await unload();
        onProgress?.({ fraction: 0, text: `loading ${id} into llama.cpp` });
        const model = await loadWllama(file, { contextTokens, ...(signal ? { signal } : {}) }).catch(
          (error: unknown) => {
            throw signal?.aborted
              ? error
              : new Error(`${id}: ${error instanceof Error ? error.message : String(error)}`);
          },
        );
        loaded = { id, contextTokens, model };
        onProgress?.({ fraction: 1, text: `${id} is loaded` });
        return model.engine;
      });
    },

    loadEmbedder(id, options = {}): Promise<EmbeddingEngine> {
      const { signal } = options;
      return oneAtATime(async () => {
        if (embedding?.id === id) return embedding.engine;
        if (signal?.aborted) throw cancelled(signal);
        const file = await fileOf(id);
        if (!file) throw new Error(`there is no stored file for the GGUF model ${id}: add the model again`);
        await unloadEmbedding();
        const model = await loadWllama(file, {
          contextTokens: EMBEDDING_CONTEXT_TOKENS,
          embeddings: true,
          ...(signal ? { signal } : {}),
        }).catch((error: unknown) => {
          throw signal?.aborted ? error : new Error(`${id}: ${error instanceof Error ? error.message : String(error)}`);
        });
        embedding = { id, model, engine: wllamaEmbeddings(model.wllama) };
        return embedding.engine;
      });
    },
  };
}

async function ggufFolder(): Promise<FileSystemDirectoryHandle> {
  if (!navigator.storage?.getDirectory)
    throw new Error(
      'this browser has no origin private file system, where GGUF models are kept: try a recent Chrome, Edge, Firefox or Safari',
    );
  return (await navigator.storage.getDirectory()).getDirectoryHandle(GGUF_FOLDER, { create: true });
}

/**
 * Writes the stream into the file, reporting bytes as they land. A writable stream (main thread
 * and workers in Chromium and Firefox) only replaces the file when closed; a synchronous access
 * handle (workers only) serves where there is none.
 */
async function writeFile(
  handle: FileSystemFileHandle,
  source: ReadableStream<Uint8Array>,
  onBytes: (bytesWritten: number) => void,
  signal: AbortSignal | undefined,
): Promise<void> {
  let sink: Sink;
  try {
    sink = await openSink(handle);
  } catch (error) {
    // A download must not go on into nowhere.
    void source.cancel(error).catch(() => undefined);
    throw error;
  }
  const reader = source.getReader();
  // A stalled download must not hold a cancel back: cancelling the reader ends its pending read.
  const stopReading = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', stopReading, { once: true });
  let bytesWritten = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) throw cancelled(signal);
      if (done) break;
      await sink.write(value, bytesWritten);
      bytesWritten += value.byteLength;
      onBytes(bytesWritten);
    }
    await sink.close();
  } catch (error) {
    await sink.abort();
    void reader.cancel(error).catch(() => undefined);
    throw error;
  } finally {
    signal?.removeEventListener('abort', stopReading);
  }
}

type Sink = { write(bytes: Uint8Array, at: number): Promise<void>; close(): Promise<void>; abort(): Promise<void> };

/** The sync access handle's part the sink uses (the DOM library may lack it). */
type SyncAccessHandle = {
  write(bytes: Uint8Array, options: { at: number }): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
};

async function openSink(handle: FileSystemFileHandle): Promise<Sink> {
  if ('createWritable' in handle) {
    const writable = await handle.createWritable();
    return {
      // Stream chunks sit on an ArrayBuffer; the type leaves room for shared memory, which write refuses.
      write: (bytes) => writable.write(bytes as Uint8Array<ArrayBuffer>),
      close: () => writable.close(),
      abort: () => writable.abort().catch(() => undefined),
    };
  }
  const access = await (
    handle as FileSystemFileHandle & { createSyncAccessHandle(): Promise<SyncAccessHandle> }
  ).createSyncAccessHandle();
  access.truncate(0);
  return {
    async write(bytes, at) {
      access.write(bytes, { at });
    },
    async close() {
      access.flush();
      access.close();
    },
    async abort() {
      access.close();
    },
  };
}

function progressOf(bytesWritten: number, totalBytes: number | undefined): StoreProgress {
  return totalBytes === undefined ? { bytesWritten } : { bytesWritten, totalBytes };
}

function isNotFound(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'NotFoundError';
}
