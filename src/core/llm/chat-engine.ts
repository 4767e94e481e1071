import type { ModelSettings } from '#core/records/model-settings.ts';
import { messageTokens } from './context-fit.ts';
import {
  cancelled,
  type Completion,
  type CompletionRequest,
  type ContentPart,
  imagesRefused,
  type LlmProvider,
  type ModelContext,
  ProviderError,
  wireContent,
  withSchemaInWords,
} from './provider.ts';

/**
 * The part of WebLLM's engine (`MLCEngineInterface`) the agent uses, which our CPU engine and the
 * tests' scripted engine implement too: OpenAI-style chat completions, with a JSON-Schema
 * `response_format`, usage, streaming, and an interrupt. Unlike WebLLM's, a request can be given
 * its own signal: its abort stops that request and no other (see EngineKeeper).
 */
export type ChatEngine = {
  chat: {
    completions: {
      create(
        request: EngineRequest & { stream: true },
        options?: EngineCallOptions,
      ): Promise<AsyncIterable<EngineChunk>>;
      create(request: EngineRequest & { stream?: false }, options?: EngineCallOptions): Promise<EngineCompletion>;
    };
  };
  /** Stops whatever request the engine is generating for (WebLLM's interrupt knows no requests). */
  interruptGenerate(): void;
  /** The loaded model's context window and its tokenizer's count, where the engine can tell. */
  readonly context?: ModelContext;
};

/** A request's signal: its abort ends the request early (with finish reason "abort", or an AbortError). */
export type EngineCallOptions = { signal?: AbortSignal };

export type EngineRequest = {
  /** Content with images (parts) only for an engine whose model sees them: WebLLM's vision models. */
  messages: { role: 'system' | 'user' | 'assistant'; content: string | ContentPart[] }[];
  /** WebLLM takes the schema as a JSON string. */
  response_format?: { type: 'json_object'; schema?: string };
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  /** WebLLM and llama.cpp both take a seed per request. */
  seed?: number;
  stream?: boolean;
  stream_options?: { include_usage: boolean };
};
/** A message's text: its parts' text, where it has parts (a vision model's message has its images beside). */
export function messageText(content: EngineRequest['messages'][number]['content']): string {
  return typeof content === 'string'
    ? content
    : content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

export type EngineUsage = { prompt_tokens: number; completion_tokens: number };
export type EngineCompletion = {
  choices: { message: { content: string | null }; finish_reason: string | null }[];
  usage?: EngineUsage;
};
export type EngineChunk = {
  choices: { delta: { content?: string | null }; finish_reason?: string | null }[];
  usage?: EngineUsage;
};

/**
 * How an engine was lost, read from its error's message (WebGPU says "device lost", "out of memory";
 * WebLLM unloads its model when the device is lost, and then answers "Model not loaded"), or
 * undefined when the failure leaves the engine usable. The one place these words are read.
 */
export function engineLossOf(error: unknown): 'device-lost' | 'out-of-memory' | 'model-unloaded' | undefined {
  const message = error instanceof Error ? error.message : String(error);
  if (/device (was |is )?lost|GPUDeviceLost/i.test(message)) return 'device-lost';
  if (/out of memory|\bOOM\b|allocation failed/i.test(message)) return 'out-of-memory';
  if (/model not loaded/i.test(message)) return 'model-unloaded';
  return undefined;
}

/**
 * Whether the engine could not build the grammar of a request's schema (WebLLM's
 * GrammarMatcherInitError): the engine is fine, and can answer the request without it.
 */
export function isGrammarFailure(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /GrammarMatcherInitError|grammar matcher/i.test(message);
}

/**
 * Whether the prompt was longer than the model's context window: WebLLM's
 * ContextWindowSizeExceededError, or llama.cpp's (the CPU engine) "request (N tokens) exceeds the
 * available context size (M tokens)".
 */
function isContextOverflow(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /ContextWindowSizeExceeded|exceed(s)? (the )?context window|exceeds the available context size/i.test(message);
}

/** What an engine's failure means for the run. */
function engineFailure(error: unknown): ProviderError {
  const message = error instanceof Error ? error.message : String(error);
  if (isContextOverflow(error)) return new ProviderError('context-overflow', message);
  const loss = engineLossOf(error);
  if (loss === 'device-lost')
    return new ProviderError(
      'device-lost',
      `the GPU device was lost (${message}); reload the model, or run with provider none`,
    );
  if (loss === 'out-of-memory')
    return new ProviderError('out-of-memory', `the model ran out of memory (${message}); a smaller model may fit`);
  return new ProviderError('unavailable', message);
}

/**
 * A provider over an in-browser engine (WebLLM on the GPU, llama.cpp on the CPU). A request whose
 * schema the engine cannot build a grammar for is sent again once without it, with the schema in
 * words (the answer is validated all the same), and that schema goes without a grammar from then
 * on. Where the engine counts tokens, the usage counts the whole prompt: WebLLM counts only what it
 * read anew when it reused its cache of the conversation before.
 */
export function engineProvider(
  engine: ChatEngine,
  identity: { name: 'webllm' | 'gguf'; model: string; seesImages?: boolean },
): LlmProvider {
  /** The schemas the engine could not build a grammar for. */
  const withoutGrammar = new Set<string>();
  return {
    ...identity,
    ...(engine.context ? { context: engine.context } : {}),
    async complete(request: CompletionRequest): Promise<Completion> {
      const { signal } = request;
      if (signal?.aborted) throw cancelled(signal);
      const refusal = imagesRefused(request.messages, identity.model, identity.seesImages === true);
      if (refusal) throw new ProviderError('refused', refusal);
      const schema = request.jsonSchema ? JSON.stringify(request.jsonSchema.schema) : undefined;
      const bodyOf = (constrained: boolean): EngineRequest => ({
        messages: (!constrained && request.jsonSchema
          ? withSchemaInWords(request.messages, request.jsonSchema.schema)
          : request.messages
        ).map((message) => ({ role: message.role, content: wireContent(message) })),
        ...(constrained && schema !== undefined ? { response_format: { type: 'json_object', schema } } : {}),
        ...engineSampling(request.settings),
      });
      try {
        const constrained = schema !== undefined && !withoutGrammar.has(schema);
        let completion: Completion;
        try {
          completion = await send(bodyOf(constrained));
        } catch (error) {
          if (!constrained || !isGrammarFailure(error) || signal?.aborted) throw error;
          withoutGrammar.add(schema);
          completion = await send(bodyOf(false));
        }
        if (signal?.aborted) throw cancelled(signal);
        return engine.context
          ? {
              ...completion,
              usage: {
                ...completion.usage,
                promptTokens: Math.max(completion.usage.promptTokens, await contentTokens(engine.context, request)),
              },
            }
          : completion;
      } catch (error) {
        if (signal?.aborted) throw cancelled(signal);
        throw error instanceof ProviderError ? error : engineFailure(error);
      }

      async function send(body: EngineRequest): Promise<Completion> {
        if (!request.onText) {
          const completion = await engine.chat.completions.create({ ...body, stream: false }, signal ? { signal } : {});
          const [choice] = completion.choices;
          return {
            text: choice?.message.content ?? '',
            finishReason: choice?.finish_reason ?? 'stop',
            usage: usageOf(completion.usage),
          };
        }
        const chunks = await engine.chat.completions.create(
          { ...body, stream: true, stream_options: { include_usage: true } },
          signal ? { signal } : {},
        );
        let text = '';
        let finishReason = 'stop';
        let usage: EngineUsage | undefined;
        for await (const chunk of chunks) {
          const piece = chunk.choices[0]?.delta.content ?? '';
          if (piece !== '') {
            text += piece;
            request.onText!(piece);
          }
          finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
          usage = chunk.usage ?? usage;
        }
        return { text, finishReason, usage: usageOf(usage) };
      }
    },
  };
}

/** The settings in the engines' (OpenAI's) names; one left out is the engine's default. */
function engineSampling(
  settings: ModelSettings = {},
): Pick<EngineRequest, 'max_tokens' | 'temperature' | 'top_p' | 'seed'> {
  return {
    ...(settings.maxTokens !== undefined ? { max_tokens: settings.maxTokens } : {}),
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.topP !== undefined ? { top_p: settings.topP } : {}),
    ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
  };
}

/** The tokens of a request's messages, images too, without what the chat template adds: at most the prompt WebLLM read. */
async function contentTokens(context: ModelContext, request: CompletionRequest): Promise<number> {
  let total = 0;
  for (const message of request.messages) total += await messageTokens(context, message);
  return total;
}

function usageOf(usage: EngineUsage | undefined) {
  return { promptTokens: usage?.prompt_tokens ?? 0, completionTokens: usage?.completion_tokens ?? 0 };
}

/** How far a model's download and load has got. */
export type LoadProgress = { fraction: number; text: string };
