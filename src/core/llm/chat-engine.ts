import { cancelled, type Completion, type CompletionRequest, type LlmProvider, ProviderError } from './provider.ts';

/**
 * The part of WebLLM's engine (`MLCEngineInterface`) the agent uses, which our CPU engine and the
 * tests' scripted engine implement too: OpenAI-style chat completions, with a JSON-Schema
 * `response_format`, usage, streaming, and an interrupt.
 */
export type ChatEngine = {
  chat: {
    completions: {
      create(request: EngineRequest & { stream: true }): Promise<AsyncIterable<EngineChunk>>;
      create(request: EngineRequest & { stream?: false }): Promise<EngineCompletion>;
    };
  };
  interruptGenerate(): void;
};

export type EngineRequest = {
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  /** WebLLM takes the schema as a JSON string. */
  response_format?: { type: 'json_object'; schema?: string };
  max_tokens?: number;
  temperature?: number;
  stream?: boolean;
  stream_options?: { include_usage: boolean };
};
export type EngineUsage = { prompt_tokens: number; completion_tokens: number };
export type EngineCompletion = { choices: { message: { content: string | null }; finish_reason: string | null }[]; usage?: EngineUsage };
export type EngineChunk = { choices: { delta: { content?: string | null }; finish_reason?: string | null }[]; usage?: EngineUsage };

/** What an engine's failure means for the run, read from its message (WebGPU says "device lost", "out of memory"). */
function engineFailure(error: unknown): ProviderError {
  const message = error instanceof Error ? error.message : String(error);
  if (/device (was |is )?lost|GPUDeviceLost/i.test(message)) return new ProviderError('device-lost', `the GPU device was lost (${message}); reload the model, or run with provider none`);
  if (/out of memory|OOM|allocation failed/i.test(message)) return new ProviderError('out-of-memory', `the model ran out of memory (${message}); a smaller model may fit`);
  return new ProviderError('unavailable', message);
}

/** A provider over an in-browser engine (WebLLM on the GPU, llama.cpp on the CPU). */
export function engineProvider(engine: ChatEngine, identity: { name: 'webllm' | 'gguf'; model: string }): LlmProvider {
  return {
    ...identity,
    async complete(request: CompletionRequest): Promise<Completion> {
      const { signal } = request;
      if (signal?.aborted) throw cancelled(signal);
      const interrupt = () => engine.interruptGenerate();
      signal?.addEventListener('abort', interrupt, { once: true });
      const body: EngineRequest = {
        messages: request.messages.map((message) => ({ ...message })),
        ...(request.jsonSchema ? { response_format: { type: 'json_object', schema: JSON.stringify(request.jsonSchema.schema) } } : {}),
        ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      };
      try {
        if (!request.onText) {
          const completion = await engine.chat.completions.create({ ...body, stream: false });
          if (signal?.aborted) throw cancelled(signal);
          const [choice] = completion.choices;
          return { text: choice?.message.content ?? '', finishReason: choice?.finish_reason ?? 'stop', usage: usageOf(completion.usage) };
        }
        const chunks = await engine.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } });
        let text = '';
        let finishReason = 'stop';
        let usage: EngineUsage | undefined;
        for await (const chunk of chunks) {
          const piece = chunk.choices[0]?.delta.content ?? '';
          if (piece !== '') {
            text += piece;
            request.onText(piece);
          }
          finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
          usage = chunk.usage ?? usage;
        }
        if (signal?.aborted) throw cancelled(signal);
        return { text, finishReason, usage: usageOf(usage) };
      } catch (error) {
        if (signal?.aborted) throw cancelled(signal);
        throw error instanceof ProviderError ? error : engineFailure(error);
      } finally {
        signal?.removeEventListener('abort', interrupt);
      }
    },
  };
}

function usageOf(usage: EngineUsage | undefined) {
  return { promptTokens: usage?.prompt_tokens ?? 0, completionTokens: usage?.completion_tokens ?? 0 };
}
