import {
  type ChatEngine,
  type EngineChunk,
  type EngineCompletion,
  type EngineRequest,
  engineLossOf,
} from './chat-engine.ts';
import { cancelled } from './provider.ts';
import type { LoadProgress } from './chat-engine.ts';

/** An engine as its source loads it: its chat, whether it still answers, and how to free its memory. */
export type LoadedEngine = {
  /** The engine itself: one request at a time, and its interrupt stops the one running. */
  readonly chat: ChatEngine;
  /** Whether its model is still loaded (the browser unloads it when the GPU device is lost, in sleep or a GPU process crash). */
  isAlive(): Promise<boolean>;
  unload(): Promise<void>;
  /**
   * Builds the grammars of these answer schemas (JSON Schema text, as requests carry it) ahead of
   * the first question, calling `onPrepared` after each; an engine that builds them fast enough on
   * first use has none.
   */
  prepare?(schemas: readonly string[], onPrepared: (count: number) => void): Promise<void>;
};

/** Where a keeper gets its engines: one per model, each loaded afresh. */
export type EngineSource<Model> = {
  /** Two models with one key are one model (an engine loaded for either serves both). */
  keyOf(model: Model): string;
  /**
   * Downloads what is missing and loads the model. An abort asks it to stop early; what it loaded
   * all the same is unloaded by the keeper.
   */
  load(
    model: Model,
    options: { onProgress?: (progress: LoadProgress) => void; signal: AbortSignal },
  ): Promise<LoadedEngine>;
};

export type KeeperLoadOptions = {
  onProgress?: (progress: LoadProgress) => void;
  signal?: AbortSignal;
  /** Told, in words, when the engine kept from before had lost its model and is loaded again. */
  onReload?: (why: string) => void;
};

/** What a request to an engine no longer loaded is told. */
export const ENGINE_GONE =
  'the model is no longer loaded (another model was loaded in its place, it was deleted, or the GPU lost it): load it again';

/** Why a kept engine is loaded again. */
export const LOST_WHILE_IDLE =
  'the model had been unloaded since it was last used (the GPU device was lost, as in sleep or a GPU process crash), so it was loaded again';

/**
 * Turns, one after another, in the order they were asked for. A turn asked with a signal that
 * aborts while it waits is given up: the asker hears at once, and the turns after it do not wait.
 */
class Turns {
  #last: Promise<void> = Promise.resolve();

  /** Waits for the turns before this one, and gives the function that ends this one. */
  take(signal?: AbortSignal): Promise<() => void> {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    const before = this.#last;
    this.#last = before.then(() => ended);
    return new Promise((resolve, reject) => {
      const giveUp = () => reject(cancelled(signal));
      signal?.addEventListener('abort', giveUp, { once: true });
      void before.then(() => {
        signal?.removeEventListener('abort', giveUp);
        if (signal?.aborted) {
          end();
          reject(cancelled(signal));
        } else resolve(end);
      });
    });
  }
}

/** The answer to `work`, or, once the signal aborts, a cancel at once (the work goes on to its end, and its failure is nobody's). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  work.catch(() => undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(cancelled(signal));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Keeps one engine loaded at a time, and gives everything that touches it its turn: loads (a
 * download is a load), unloads, removals and each request queue in the order they come, so a
 * download on the Models screen never unloads the engine under a request, and two loads never make
 * two engines. Before it hands out the engine it keeps, it checks that its model is still loaded
 * (the browser unloads it when the GPU device is lost), and loads it afresh if not. A cancelled
 * load answers at once, and in its turn unloads whatever it loaded. A cancelled request leaves the
 * queue if it was waiting, and interrupts the engine only if it was the one running.
 */
export class EngineKeeper<Model> {
  readonly #turns = new Turns();
  #current: { key: string; engine: LoadedEngine } | undefined;

  constructor(
    readonly source: EngineSource<Model>,
    /** The answer schemas whose grammars a freshly loaded engine prepares. */
    readonly schemas: readonly string[] = [],
  ) {}

  /** The model's engine: the one kept, if it is this model's and still loaded, or one loaded now. */
  load(model: Model, options: KeeperLoadOptions = {}): Promise<ChatEngine> {
    const { signal } = options;
    const loading = this.#inTurn(async () => {
      if (signal?.aborted) throw cancelled(signal);
      return this.#chatOf(await this.#loadInTurn(model, options));
    });
    return untilAborted(loading, signal);
  }

  /**
   * In one turn, unloads the engine if it is the model's, then runs `task` (deleting the model's
   * files, say): no load of the model comes between the two.
   */
  unloadFor<T>(model: Model, task: () => Promise<T>): Promise<T> {
    return this.#inTurn(async () => {
      if (this.#current?.key === this.source.keyOf(model)) await this.#drop();
      return task();
    });
  }

  /** Runs `task` in its turn, after everything asked before it. */
  async #inTurn<T>(task: () => Promise<T>): Promise<T> {
    const end = await this.#turns.take();
    try {
      return await task();
    } finally {
      end();
    }
  }

  async #loadInTurn(model: Model, options: KeeperLoadOptions): Promise<{ key: string; engine: LoadedEngine }> {
    const key = this.source.keyOf(model);
    const kept = this.#current;
    if (kept?.key === key) {
      if (await kept.engine.isAlive()) return kept;
      options.onReload?.(LOST_WHILE_IDLE);
    }
    await this.#drop();
    const signal = options.signal ?? new AbortController().signal;
    const engine = await this.source.load(model, {
      signal,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    try {
      if (signal.aborted) throw cancelled(signal);
      await this.#prepare(engine, options.onProgress, signal);
    } catch (error) {
      await engine.unload().catch(() => undefined);
      throw error;
    }
    this.#current = { key, engine };
    return this.#current;
  }

  /** Has a fresh engine build the answers' grammars, saying so in the load's progress. A grammar it cannot build is left for the request (which then goes without it). */
  async #prepare(
    engine: LoadedEngine,
    onProgress: KeeperLoadOptions['onProgress'],
    signal: AbortSignal,
  ): Promise<void> {
    if (!engine.prepare || this.schemas.length === 0) return;
    const total = this.schemas.length;
    const report = (count: number) =>
      onProgress?.({ fraction: 1, text: `Preparing the answer formats (${count} of ${total})` });
    report(0);
    try {
      await engine.prepare(this.schemas, report);
    } catch (error) {
      if (engineLossOf(error)) throw error;
    }
    if (signal.aborted) throw cancelled(signal);
  }

  async #drop(): Promise<void> {
    const previous = this.#current;
    this.#current = undefined;
    await previous?.engine.unload().catch(() => undefined);
  }

  /** The engine as its users have it: each request in its turn, and only while this engine is the one kept. */
  #chatOf(held: { key: string; engine: LoadedEngine }): ChatEngine {
    const raw = held.engine.chat;
    /** The engine, if it is still the one kept, before a request's turn starts. */
    const ensureKept = () => {
      if (this.#current !== held) throw new Error(ENGINE_GONE);
    };
    /** A failure that lost the engine forgets it, so the next load makes a fresh one. */
    const passOn = async (error: unknown): Promise<never> => {
      if (engineLossOf(error) && this.#current === held) await this.#drop();
      throw error;
    };

    const complete = async (request: EngineRequest, signal: AbortSignal | undefined): Promise<EngineCompletion> => {
      const end = await this.#turns.take(signal);
      const interrupt = () => raw.interruptGenerate();
      signal?.addEventListener('abort', interrupt, { once: true });
      try {
        // Aborted between the turn being given and the listener being added: nothing to interrupt yet.
        if (signal?.aborted) throw cancelled(signal);
        ensureKept();
        return await raw.chat.completions.create({ ...request, stream: false }).catch(passOn);
      } finally {
        signal?.removeEventListener('abort', interrupt);
        end();
      }
    };

    const stream = async (
      request: EngineRequest,
      signal: AbortSignal | undefined,
    ): Promise<AsyncIterable<EngineChunk>> => {
      const end = await this.#turns.take(signal);
      const interrupt = () => raw.interruptGenerate();
      signal?.addEventListener('abort', interrupt, { once: true });
      const finish = () => {
        signal?.removeEventListener('abort', interrupt);
        end();
      };
      let chunks: AsyncIterable<EngineChunk>;
      try {
        if (signal?.aborted) throw cancelled(signal);
        ensureKept();
        chunks = await raw.chat.completions.create({ ...request, stream: true }).catch(passOn);
      } catch (error) {
        finish();
        throw error;
      }
      // The turn lasts until the stream is read to its end (or the reader stops).
      return (async function* () {
        try {
          yield* chunks;
        } catch (error) {
          await passOn(error);
        } finally {
          finish();
        }
      })();
    };

    const create = (
      request: EngineRequest,
      options: { signal?: AbortSignal } = {},
    ): Promise<EngineCompletion | AsyncIterable<EngineChunk>> =>
      request.stream ? stream(request, options.signal) : complete(request, options.signal);
    return {
      chat: { completions: { create: create as ChatEngine['chat']['completions']['create'] } },
      interruptGenerate: () => {
        if (this.#current === held) raw.interruptGenerate();
      },
      ...(raw.context ? { context: raw.context } : {}),
    };
  }
}
