// Types only, and from wllama's OpenAI-compatible types file: its main declarations pull Node's
// types in, which the core must not see.
import type {
  ChatCompletionChunk,
  ChatCompletionParams,
  ChatCompletionResponse,
  ChatCompletionUsage,
} from '@wllama/wllama/esm/types/oai-compat';
import type { StreamParams } from '@wllama/wllama/esm/types/types';
import type {
  ChatEngine,
  EngineCallOptions,
  EngineChunk,
  EngineCompletion,
  EngineRequest,
  EngineUsage,
} from './chat-engine.ts';
import { messageText } from './chat-engine.ts';

/**
 * The part of wllama's `Wllama` the engine calls: llama.cpp's OpenAI-compatible chat completion,
 * whole or chunk by chunk through `onData`, stopped through an `abortSignal`.
 */
export type WllamaChat = {
  createChatCompletion(options: ChatCompletionParams & { stream?: false }): Promise<ChatCompletionResponse>;
  createChatCompletion(options: ChatCompletionParams & StreamParams<ChatCompletionChunk>): Promise<void>;
};

/**
 * The name the schema is given: llama.cpp reads only the schema, but the OpenAI format asks for a
 * name, and the engine's requests (like WebLLM's) carry none.
 */
const SCHEMA_NAME = 'answer';

/** What a request to a closed engine is told. */
const CLOSED =
  'the model is no longer loaded (another model was loaded in its place, or it was removed): load it again';

/** Asks llama.cpp for the usage in a last chunk of a stream, which it sends only when asked. */
const INCLUDE_USAGE = { stream_options: { include_usage: true } };

/** A `ChatEngine` over wllama that can be closed before its model is unloaded. */
export type WllamaEngine = ChatEngine & {
  /**
   * Interrupts the requests in flight, waits until they have ended, and refuses new ones. Call it
   * before unloading the model: wllama's unload stops its worker, which would leave a request in
   * flight waiting forever.
   */
  close(): Promise<void>;
};

type Ending = { ok: true } | { ok: false; error: unknown };

/**
 * A `ChatEngine` over a model loaded in wllama (llama.cpp in WebAssembly, on the CPU).
 *
 * Unlike WebLLM, llama.cpp samples at temperature 0.8 unless told otherwise; here a request
 * without a temperature decodes greedily (temperature 0), so the same prompt gives the same
 * answer. A JSON schema constrains decoding through a grammar llama.cpp derives from it (this
 * works only with llama.cpp's own chat template handling, not with a custom Jinja template).
 * `interruptGenerate()` aborts every request in flight, a request's own signal that one alone:
 * each rejects with an AbortError (WebLLM ends them with finish reason "abort" instead), and the
 * engine stays usable.
 */
export function wllamaEngine(wllama: WllamaChat): WllamaEngine {
  /** Each request's controller, and a promise that settles when the request has ended. */
  const inFlight = new Map<AbortController, Promise<void>>();
  let isClosed = false;

  function start<T>(
    call: (signal: AbortSignal) => Promise<T>,
    given: AbortSignal | undefined,
  ): { controller: AbortController; result: Promise<T> } {
    if (isClosed) throw new Error(CLOSED);
    const controller = new AbortController();
    // The request's own signal stops it alone.
    const stop = () => controller.abort();
    if (given?.aborted) stop();
    given?.addEventListener('abort', stop, { once: true });
    const result = call(controller.signal);
    const ended = result.then(
      () => undefined,
      () => undefined,
    );
    inFlight.set(controller, ended);
    void ended.then(() => {
      inFlight.delete(controller);
      given?.removeEventListener('abort', stop);
    });
    return { controller, result };
  }

  async function complete(request: EngineRequest, given: AbortSignal | undefined): Promise<EngineCompletion> {
    const params = wllamaParams(request);
    const { controller, result } = start(
      (signal) => wllama.createChatCompletion({ ...params, stream: false, abortSignal: signal }),
      given,
    );
    try {
      const response = await result;
      return {
        choices: response.choices.map((choice) => ({
          message: { content: choice.message.content ?? null },
          finish_reason: choice.finish_reason,
        })),
        usage: usageOf(response.usage),
      };
    } catch (error) {
      throw controller.signal.aborted ? interrupted() : error;
    }
  }

  /**
   * Starts the request at once and queues its chunks for the reader. wllama's own async iterator
   * is not used: a reader that stops early must abort the request to free llama.cpp's slot, and
   * that iterator then rejects a promise no one awaits.
   */
  async function stream(request: EngineRequest, given: AbortSignal | undefined): Promise<AsyncIterable<EngineChunk>> {
    const params = wllamaParams(request);
    const queued: EngineChunk[] = [];
    let ending: Ending | undefined;
    let wake: (() => void) | undefined;
    const { controller, result } = start(
      (signal) =>
        wllama.createChatCompletion({
          ...params,
          // wllama's types lack stream_options, but it passes every field on to llama.cpp.
          ...INCLUDE_USAGE,
          stream: true,
          abortSignal: signal,
          onData: (chunk) => {
            queued.push(engineChunkOf(chunk));
            wake?.();
          },
        }),
      given,
    );
    void result
      .then(
        () => (ending = { ok: true }),
        (error: unknown) => (ending = { ok: false, error }),
      )
      .then(() => wake?.());
    return (async function* () {
      try {
        for (;;) {
          if (controller.signal.aborted) throw interrupted();
          const chunk = queued.shift();
          if (chunk) yield chunk;
          else if (ending) break;
          else await new Promise<void>((resolve) => (wake = resolve));
        }
        if (!ending.ok) throw ending.error;
      } finally {
        // A reader that stops early (break, return) frees llama.cpp's slot.
        if (!ending) controller.abort();
      }
    })();
  }

  const create = async (
    request: EngineRequest,
    { signal }: EngineCallOptions = {},
  ): Promise<EngineCompletion | AsyncIterable<EngineChunk>> =>
    request.stream ? stream(request, signal) : complete(request, signal);
  return {
    chat: { completions: { create: create as ChatEngine['chat']['completions']['create'] } },
    interruptGenerate() {
      for (const controller of inFlight.keys()) controller.abort();
    },
    async close() {
      isClosed = true;
      for (const controller of inFlight.keys()) controller.abort();
      await Promise.all(inFlight.values());
    },
  };
}

/** The engine's request in wllama's terms (the fields both share keep their OpenAI names). */
function wllamaParams(request: EngineRequest): ChatCompletionParams {
  return {
    // llama.cpp here reads text only: the provider over this engine never sends images (see engineProvider).
    messages: request.messages.map(({ role, content }) => ({ role, content: messageText(content) })),
    temperature: request.temperature ?? 0,
    ...(request.max_tokens !== undefined ? { max_tokens: request.max_tokens } : {}),
    ...(request.top_p !== undefined ? { top_p: request.top_p } : {}),
    // Sent per request: wllama adds a seed of its own only when one was given at load, which this engine never gives.
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(request.response_format ? { response_format: responseFormatOf(request.response_format) } : {}),
  };
}

/**
 * WebLLM's `json_object` with a schema string is llama.cpp's `json_schema` with the schema as an
 * object; `json_object` alone is any JSON object.
 */
function responseFormatOf(
  format: NonNullable<EngineRequest['response_format']>,
): NonNullable<ChatCompletionParams['response_format']> {
  if (format.schema === undefined) return { type: 'json_object' };
  let schema: unknown;
  try {
    schema = JSON.parse(format.schema);
  } catch (error) {
    throw new Error(
      `the response format's schema is not JSON (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
  return { type: 'json_schema', json_schema: { name: SCHEMA_NAME, schema, strict: true } };
}

function engineChunkOf(chunk: ChatCompletionChunk): EngineChunk {
  return {
    choices: chunk.choices.map((choice) => ({
      delta: { content: choice.delta.content ?? null },
      finish_reason: choice.finish_reason,
    })),
    ...(chunk.usage ? { usage: usageOf(chunk.usage) } : {}),
  };
}

function usageOf(usage: ChatCompletionUsage): EngineUsage {
  return { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens };
}

/** The error an interrupted request ends with (as fetch's abort does). */
function interrupted(): DOMException {
  return new DOMException('the generation was interrupted', 'AbortError');
}
