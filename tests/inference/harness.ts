import { z } from 'zod';
import { type EngineChunk, type EngineCompletion, type EngineRequest, engineProvider } from '#core/llm/chat-engine.ts';
import { structuredCall } from '#core/llm/structured-call.ts';
import { UsageBudget } from '#core/llm/usage-budget.ts';
import { runChild } from '#core/agent/child-run.ts';
import { REVIEWER, reviewerResultSchema } from '#core/agent/postures.ts';
import { answerReading } from '#core/questions/answer.ts';
import { readWithModel } from '#core/questions/model-reading.ts';
import { readQuestion } from '#core/questions/reading.ts';
import { queryProblems } from '#core/questions/typed-query.ts';
import { graphOf } from '#core/testing/graph-of.ts';
import { browserGgufHost } from '../../workers/gguf-host.ts';
import { type LoadedWllama, loadWllama } from '../../workers/wllama-load.ts';
import { bytesOf, messageOf, nameOf } from './plain-data.ts';
import { type StoreLoadRemoveOutcome, storeLoadRemove } from './round-trip.ts';

/**
 * The page the inference tests drive: the app's own code (the wllama engine, engineProvider,
 * structuredCall, the worker's wllama loader and GGUF host) on a real llama.cpp, with the tiny
 * model the test process generates and hands over as base64. Everything returned is plain data.
 */

/** Schemas a test can ask structuredCall for (zod schemas cannot cross into the page). */
const SCHEMAS = {
  /** Enums, a boolean and a bounded integer: a random model cannot ramble inside them. */
  mood: z.object({
    mood: z.enum(['calm', 'curious', 'wary']),
    isSure: z.boolean(),
    level: z.number().int().min(0).max(9),
  }),
  /** JSON Schema keeps the answer within 0..5, the refinement (which it cannot say) wants 7: nothing passes. */
  impossible: z.object({
    answer: z
      .number()
      .int()
      .min(0)
      .max(5)
      .refine((value) => value === 7, 'must be 7'),
  }),
};

let current: LoadedWllama | undefined;

function loadedModel(): LoadedWllama {
  if (!current) throw new Error('no model is loaded: call inference.load first');
  return current;
}

async function collect(chunks: AsyncIterable<EngineChunk>): Promise<EngineChunk[]> {
  const collected: EngineChunk[] = [];
  for await (const chunk of chunks) collected.push(chunk);
  return collected;
}

const inference = {
  /** Loads a GGUF model (base64) through the worker's loader, unloading the one before. */
  async load(modelBase64: string, contextTokens: number): Promise<{ milliseconds: number }> {
    await current?.unload();
    current = undefined;
    const started = performance.now();
    current = await loadWllama(new Blob([bytesOf(modelBase64)]), { contextTokens });
    return { milliseconds: performance.now() - started };
  },

  /** One chat completion through the engine, whole. */
  chat(request: EngineRequest): Promise<EngineCompletion> {
    return loadedModel().engine.chat.completions.create({ ...request, stream: false });
  },

  /** One chat completion through the engine, streamed: every chunk, in order. */
  async chatStream(request: EngineRequest): Promise<EngineChunk[]> {
    return collect(await loadedModel().engine.chat.completions.create({ ...request, stream: true }));
  },

  /** A raw (template-free) completion on wllama itself, optionally under a GBNF grammar. */
  async complete(request: {
    prompt: string;
    maxTokens: number;
    grammar?: string;
  }): Promise<{ text: string; finishReason: string | null; promptTokens: number; completionTokens: number }> {
    const response = await loadedModel().wllama.createCompletion({
      prompt: request.prompt,
      max_tokens: request.maxTokens,
      temperature: 0,
      ...(request.grammar ? { grammar: request.grammar } : {}),
    });
    const [choice] = response.choices;
    return {
      text: choice?.text ?? '',
      finishReason: choice?.finish_reason ?? null,
      promptTokens: response.usage.prompt_tokens,
      completionTokens: response.usage.completion_tokens,
    };
  },

  /** structuredCall through engineProvider, as a bound run would ask: the outcome as data. */
  structured(schema: keyof typeof SCHEMAS, options: { prompt: string; retries: number; maxTokens: number }) {
    const provider = engineProvider(loadedModel().engine, { name: 'gguf', model: 'tiny' });
    return structuredCall<unknown>(provider, SCHEMAS[schema], { name: schema, ...options });
  },

  /**
   * A reviewer child run over the loaded model, as a cycle starts one, drawing from a parent's
   * budget of `requests`: what it returned, the record the cycle log keeps, the parent's totals
   * after it, and whether a result passes the reviewer's schema.
   */
  async reviewerChild(options: { requests: number }) {
    const provider = engineProvider(loadedModel().engine, { name: 'gguf', model: 'tiny' });
    const budget = new UsageBudget({ requests: options.requests });
    const outcome = await runChild({ provider, budget, system: 'You are the parent.', confidenceCap: 0.7 }, REVIEWER, {
      purpose: 'review a reading',
      prompt: 'Question: Is a dog a mammal?\nA model read it as: Dog is-a Mammal',
    });
    return {
      ok: outcome.ok,
      run: outcome.run,
      totals: { ...budget.totals },
      spent: budget.spent(),
      isValidResult: outcome.ok ? reviewerResultSchema.safeParse(outcome.value).success : undefined,
    };
  },

  /**
   * A question read by the loaded model, as a bound cycle reads it (readWithModel: the typed query
   * checked by the graph, or the words' reading and why), over a small graph of currencies: the
   * reading, the answer the graph gives from it, the problems the graph finds in the model's
   * query, the words' own answer, and the graph's symbols, to hold the answer to.
   */
  async readQuestion(question: string) {
    const provider = engineProvider(loadedModel().engine, { name: 'gguf', model: 'tiny' });
    const graph = graphOf([
      ['DE', 'has-currency', 'Euro'],
      ['FR', 'has-currency', 'Euro'],
      ['JP', 'has-currency', 'Yen'],
      ['DE', 'is-a', 'Country'],
      ['FR', 'is-a', 'Country'],
      ['JP', 'is-a', 'Country'],
    ]);
    const read = await readWithModel(graph, question, provider, { retries: 1 });
    const byWords = readQuestion(graph, question);
    if (!read.ok || !byWords.ok) throw new Error('the question was refused before any model was asked');
    return {
      reading: read.value,
      answer: answerReading(graph, read.value),
      problems: read.value.query ? queryProblems(graph, read.value.query) : [],
      wordsAnswer: answerReading(graph, byWords.value),
      symbols: [...graph.symbols()].map((symbol) => ({ id: symbol.id, label: symbol.label })),
    };
  },

  /** A prompt longer than the loaded context, through engineProvider: how the failure is classed. */
  async overlongPrompt(words: number) {
    const provider = engineProvider(loadedModel().engine, { name: 'gguf', model: 'tiny' });
    const content = Array.from({ length: words }, (_, index) => `w${index}`).join(' ');
    return provider.complete({ messages: [{ role: 'user', content }], settings: { maxTokens: 1 } }).then(
      () => ({ kind: 'none', message: 'the call answered' }),
      (error: unknown) => ({ kind: (error as { kind?: string }).kind ?? nameOf(error), message: messageOf(error) }),
    );
  },

  /**
   * Streams through engineProvider and aborts the call's signal at the first piece of text; then
   * asks again on the same engine.
   */
  async abortMidStream(request: { prompt: string; maxTokens: number }) {
    const provider = engineProvider(loadedModel().engine, { name: 'gguf', model: 'tiny' });
    const controller = new AbortController();
    let piecesBeforeAbort = 0;
    const messages = [{ role: 'user' as const, content: request.prompt }];
    const aborted = await provider
      .complete({
        messages,
        settings: { maxTokens: request.maxTokens },
        signal: controller.signal,
        onText: () => {
          piecesBeforeAbort++;
          controller.abort();
        },
      })
      .then(
        () => ({ name: 'none', message: 'the call ended without an error' }),
        (error: unknown) => ({ name: nameOf(error), message: messageOf(error) }),
      );
    const after = await provider.complete({ messages, settings: { maxTokens: request.maxTokens } });
    return { aborted, piecesBeforeAbort, after };
  },

  /** Streams on the engine and calls interruptGenerate at the first chunk; then asks again. */
  async interruptMidStream(request: EngineRequest) {
    const { engine } = loadedModel();
    let chunksBeforeInterrupt = 0;
    let interrupted = { name: 'none', message: 'the stream ended without an error' };
    try {
      // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the loop counts chunks, whatever they hold
      for await (const _chunk of await engine.chat.completions.create({ ...request, stream: true })) {
        chunksBeforeInterrupt++;
        engine.interruptGenerate();
      }
    } catch (error) {
      interrupted = { name: nameOf(error), message: messageOf(error) };
    }
    const after = await engine.chat.completions.create({ ...request, stream: false });
    return { interrupted, chunksBeforeInterrupt, after };
  },

  /**
   * Unloads the model while a request is in flight: the request must end (not wait forever on
   * llama.cpp's stopped worker), and the engine then refuses new ones.
   */
  async unloadMidRequest(request: EngineRequest) {
    const model = loadedModel();
    current = undefined;
    const inFlight = model.engine.chat.completions.create({ ...request, stream: false }).then(
      () => ({ name: 'none', message: 'the request ended without an error' }),
      (error: unknown) => ({ name: nameOf(error), message: messageOf(error) }),
    );
    await model.unload();
    const afterUnload = await model.engine.chat.completions.create({ ...request, stream: false }).then(
      () => 'answered',
      (error: unknown) => messageOf(error),
    );
    return { inFlight: await inFlight, afterUnload };
  },

  /** The worker's GGUF host on this page's private file system: store, read back, load and ask, remove. */
  storeLoadRemove,

  /**
   * The same in a dedicated worker, where the app runs it (llama.cpp's own worker then nests in
   * it), optionally with no createWritable, so the host writes through a sync access handle.
   */
  storeLoadRemoveInWorker(
    modelBase64: string,
    id: string,
    options: { withoutCreateWritable: boolean },
  ): Promise<StoreLoadRemoveOutcome> {
    const worker = new Worker(new URL('./host-worker.ts', import.meta.url), { type: 'module' });
    return new Promise<StoreLoadRemoveOutcome>((resolve, reject) => {
      worker.onmessage = (
        event: MessageEvent<{ ok: true; outcome: StoreLoadRemoveOutcome } | { ok: false; message: string }>,
      ) => (event.data.ok ? resolve(event.data.outcome) : reject(new Error(event.data.message)));
      worker.onerror = (event) => reject(new Error(event.message));
      worker.postMessage({ modelBase64, id, ...options });
    }).finally(() => worker.terminate());
  },

  /** Stores a stream that stalls after its first chunk and cancels it there. */
  async storeCancelled(id: string) {
    const host = browserGgufHost();
    const controller = new AbortController();
    const stalled = new ReadableStream<Uint8Array>({
      start(streamController) {
        streamController.enqueue(new Uint8Array(1024).fill(7));
        // Never closes: only the cancel can end the store.
      },
    });
    const outcome = await host
      .store(id, stalled, { totalBytes: 4096, signal: controller.signal, onProgress: () => controller.abort() })
      .then(
        () => ({ name: 'none', message: 'the store ended without an error' }),
        (error: unknown) => ({ name: nameOf(error), message: messageOf(error) }),
      );
    return { outcome, isGone: (await host.file(id)) === undefined };
  },

  /** Stores bytes that are no GGUF model and loads them: the error a user would read. */
  async loadBroken(id: string) {
    const host = browserGgufHost();
    await host.store(id, new Blob([new TextEncoder().encode('GGUF, but not really: a truncated download')]));
    const message = await host.load(id, { contextTokens: 256 }).then(
      () => 'loaded',
      (error: unknown) => messageOf(error),
    );
    const missing = await host.load(`${id}-never-stored`).then(
      () => 'loaded',
      (error: unknown) => messageOf(error),
    );
    await host.remove(id);
    return { message, missing };
  },

  /**
   * Stores a model in the worker's GGUF host, loads it to embed (apart from the chat model the
   * page holds), and embeds the texts: the vectors as plain arrays, or the error a user reads.
   */
  async embed(modelBase64: string, id: string, texts: string[]) {
    const host = browserGgufHost();
    await host.store(id, new Blob([bytesOf(modelBase64)]));
    try {
      const engine = await host.loadEmbedder(id);
      const started = performance.now();
      const vectors = await engine.embed(texts);
      // The chat model loaded on this page still answers beside it.
      const chat = current
        ? await current.engine.chat.completions.create({ messages: [{ role: 'user', content: 'Hi' }], max_tokens: 2 })
        : undefined;
      return {
        vectors: vectors.map((vector) => [...vector]),
        milliseconds: performance.now() - started,
        chatAnswered: (chat?.usage?.completion_tokens ?? 0) > 0,
      };
    } catch (error) {
      return { error: messageOf(error) };
    } finally {
      await host.remove(id);
    }
  },

  /** Loads two stored models one after the other: the first one's engine stops answering. */
  async loadTwo(firstBase64: string, secondBase64: string) {
    const host = browserGgufHost();
    await host.store('first', new Blob([bytesOf(firstBase64)]));
    await host.store('second', new Blob([bytesOf(secondBase64)]));
    const request = { messages: [{ role: 'user' as const, content: 'Hello' }], max_tokens: 4 };
    const first = await host.load('first', { contextTokens: 256 });
    await first.chat.completions.create(request);
    const second = await host.load('second', { contextTokens: 256 });
    const firstAfter = await first.chat.completions.create(request).then(
      () => 'answered',
      (error: unknown) => messageOf(error),
    );
    const secondAnswer = await second.chat.completions.create(request);
    await host.remove('first');
    await host.remove('second');
    return { firstAfter, secondAnswer };
  },
};

/** What the tests call, on `window.inference`. */
export type InferenceHarness = typeof inference;

declare global {
  interface Window {
    inference: InferenceHarness;
  }
}

window.inference = inference;
