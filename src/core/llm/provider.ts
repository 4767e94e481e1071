import { z } from 'zod';

/** The providers a run can bind (DESIGN section 10): none is the symbolic engine alone. */
export const providerNameSchema = z.enum(['none', 'webllm', 'gguf', 'openai-compatible']);
export type ProviderName = z.infer<typeof providerNameSchema>;

/** Why the chosen model cannot be had (so a run goes on with the symbolic engine alone): a kind a program can act on, and in words. */
export const modelUnavailableSchema = z.object({
  kind: z.enum(['not-chosen', 'not-here', 'not-on-device', 'not-downloaded', 'load-failed', 'stopped-answering']),
  because: z.string(),
});
export type ModelUnavailable = z.infer<typeof modelUnavailableSchema>;

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

/** Tokens a call used, as the provider counted them. */
export type TokenUsage = { promptTokens: number; completionTokens: number };

/** One completion request: the messages, and the JSON Schema the answer must follow, if any. */
export type CompletionRequest = {
  messages: readonly ChatMessage[];
  /** Constrains decoding where the provider can; the answer is validated either way. */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /** Each piece of text as it streams in. */
  onText?: (text: string) => void;
};

export type Completion = { text: string; usage: TokenUsage; finishReason: string };

/** Why a provider could not answer; `kind` tells the contract which bottleneck it is. */
export class ProviderError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'device-lost' | 'out-of-memory' | 'refused',
    message: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** A language model bound to a run: it completes chat messages, and says which model it is. */
export interface LlmProvider {
  readonly name: Exclude<ProviderName, 'none'>;
  readonly model: string;
  complete(request: CompletionRequest): Promise<Completion>;
}

/** The error a cancelled call ends with (as fetch does). */
export function cancelled(signal: AbortSignal | undefined): Error {
  const reason = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('the call was cancelled', 'AbortError');
}
