import type {
  ChatEngine,
  EngineCallOptions,
  EngineChunk,
  EngineCompletion,
  EngineRequest,
} from '#core/llm/chat-engine.ts';
import { messageText } from '#core/llm/chat-engine.ts';
import type { ModelContext } from '#core/llm/provider.ts';

/** One scripted reply: text at once, text after a delay (an interrupt cuts it short), or a failure with this message. */
export type ScriptedReply = { text: string; delayMs?: number } | { fail: string };

/**
 * A deterministic engine with WebLLM's interface, for tests: it answers with its script, in order,
 * counts a token per word, and keeps every request it was sent. Given a context window, it tells
 * it and counts tokens (words) as WebLLM's engine does.
 */
export class ScriptedEngine implements ChatEngine {
  readonly requests: EngineRequest[] = [];
  interrupts = 0;
  readonly context?: ModelContext;
  readonly #script: ScriptedReply[];
  #interrupt: (() => void) | undefined;

  constructor(script: readonly ScriptedReply[], options: { contextTokens?: number } = {}) {
    this.#script = [...script];
    if (options.contextTokens !== undefined)
      this.context = { tokens: options.contextTokens, count: async (text) => words(text) };
  }

  readonly chat = {
    completions: {
      create: ((request: EngineRequest, options: EngineCallOptions = {}) =>
        this.#create(request, options)) as ChatEngine['chat']['completions']['create'],
    },
  };

  interruptGenerate(): void {
    this.interrupts++;
    this.#interrupt?.();
  }

  async #create(
    request: EngineRequest,
    { signal }: EngineCallOptions,
  ): Promise<EngineCompletion | AsyncIterable<EngineChunk>> {
    this.requests.push(structuredClone(request));
    // A request's own signal stops it as an interrupt does.
    const interrupt = () => this.interruptGenerate();
    signal?.addEventListener('abort', interrupt, { once: true });
    try {
      return await this.#answer(request);
    } finally {
      signal?.removeEventListener('abort', interrupt);
    }
  }

  async #answer(request: EngineRequest): Promise<EngineCompletion | AsyncIterable<EngineChunk>> {
    const reply = this.#script.shift();
    if (!reply) throw new Error('the scripted engine has no more replies');
    if ('fail' in reply) throw new Error(reply.fail);
    let finishReason = 'stop';
    if (reply.delayMs !== undefined) {
      const wasInterrupted = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), reply.delayMs);
        this.#interrupt = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      this.#interrupt = undefined;
      if (wasInterrupted) finishReason = 'abort';
    }
    const text = finishReason === 'abort' ? '' : reply.text;
    const usage = {
      prompt_tokens: request.messages.reduce((sum, message) => sum + words(messageText(message.content)), 0),
      completion_tokens: words(text),
    };
    if (!request.stream) return { choices: [{ message: { content: text }, finish_reason: finishReason }], usage };
    const pieces = text.match(/\S+\s*/g) ?? [];
    return (async function* () {
      for (const piece of pieces) yield { choices: [{ delta: { content: piece } }] };
      yield { choices: [{ delta: {}, finish_reason: finishReason }], usage };
    })();
  }
}

function words(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}
