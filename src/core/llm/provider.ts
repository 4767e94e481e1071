import { z } from 'zod';
import type { ModelSettings } from '#core/records/model-settings.ts';
import { RASTER_IMAGE_TYPES } from '#core/records/artifact.ts';
import { base64FromBytes } from '#core/base64.ts';

/** The providers a run can bind (DESIGN section 10): none is the symbolic engine alone. */
export const providerNameSchema = z.enum(['none', 'webllm', 'gguf', 'openai-compatible']);
export type ProviderName = z.infer<typeof providerNameSchema>;

/** Why the chosen model cannot be had (so a run goes on with the symbolic engine alone): a kind a program can act on, and in words. */
export const modelUnavailableSchema = z.object({
  kind: z.enum(['not-chosen', 'not-here', 'not-on-device', 'not-downloaded', 'load-failed', 'stopped-answering']),
  because: z.string(),
});
export type ModelUnavailable = z.infer<typeof modelUnavailableSchema>;

/** An image shown to a model with a message: a raster image (PNG, JPEG, GIF, WebP), as an image artifact holds it. */
export type ChatImage = { mediaType: string; bytes: Uint8Array };

export type ChatMessage = {
  role: 'system' | 'user' | 'assistant';
  content: string;
  /** Images shown with the text, only to a provider that {@link LlmProvider.seesImages}; others refuse them. */
  images?: readonly ChatImage[];
};

/** Tokens a call used, as the provider counted them. */
export type TokenUsage = { promptTokens: number; completionTokens: number };

/** One completion request: the messages, the JSON Schema the answer must follow, if any, and how to sample. */
export type CompletionRequest = {
  messages: readonly ChatMessage[];
  /** Constrains decoding where the provider can; the answer is validated either way. */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  /** Already merged (see `mergeModelSettings`): a field left out is the engine's default. */
  settings?: ModelSettings;
  signal?: AbortSignal;
  /** Each piece of text as it streams in. */
  onText?: (text: string) => void;
};

export type Completion = { text: string; usage: TokenUsage; finishReason: string };

/**
 * How much a model reads at once (prompt and answer), its tokenizer's count of a text's tokens,
 * and, for a model that sees images, the tokens it reads for one (see image-tokens.ts).
 */
export type ModelContext = {
  tokens: number;
  count(text: string): Promise<number>;
  imageTokens?(image: ChatImage): number;
};

/** Why a provider could not answer; `kind` tells the contract which bottleneck it is. */
export class ProviderError extends Error {
  constructor(
    /** `context-overflow`: the prompt is longer than the model's context window (the model itself is fine). */
    readonly kind: 'unavailable' | 'device-lost' | 'out-of-memory' | 'refused' | 'context-overflow',
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
  /** The model's context window, where the provider can count tokens with the model's tokenizer: prompts are fitted to it before they are sent. */
  readonly context?: ModelContext;
  /** Whether the model is marked as seeing images: only then may a message carry {@link ChatMessage.images}. */
  readonly seesImages?: boolean;
  complete(request: CompletionRequest): Promise<Completion>;
}

/**
 * Why a request's images cannot be shown to a model: it is not marked as seeing images, or an
 * image is not a raster one (an SVG is a document); undefined when there are none or they can be.
 */
export function imagesRefused(
  messages: readonly ChatMessage[],
  model: string,
  seesImages: boolean,
): string | undefined {
  const images = messages.flatMap((message) => message.images ?? []);
  if (images.length === 0) return undefined;
  if (!seesImages) return `the model ${model} is not marked as seeing images, so no image is sent to it`;
  const other = images.find((image) => !RASTER_IMAGE_TYPES.includes(image.mediaType));
  return other ? `a model is shown only PNG, JPEG, GIF and WebP images, not ${other.mediaType}` : undefined;
}

/** A message's content as the OpenAI chat protocol (and WebLLM) takes images: the text, then each image as a data URL. */
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** A message's content in the protocol's shape: its text alone, or with its images the parts of {@link ContentPart}. */
export function wireContent({ content, images }: ChatMessage): string | ContentPart[] {
  if (!images || images.length === 0) return content;
  return [
    { type: 'text', text: content },
    ...images.map((image) => ({
      type: 'image_url' as const,
      image_url: { url: `data:${image.mediaType};base64,${base64FromBytes(image.bytes)}` },
    })),
  ];
}

/** With no constrained decoding to hold the answer to its schema, the model reads the schema in the system message. */
export function withSchemaInWords(messages: readonly ChatMessage[], schema: Record<string, unknown>): ChatMessage[] {
  const rule = `Answer with only a JSON object that follows this JSON Schema: ${JSON.stringify(schema)}`;
  const [first, ...rest] = messages;
  return first?.role === 'system'
    ? [{ role: 'system', content: `${first.content}\n\n${rule}` }, ...rest]
    : [{ role: 'system', content: rule }, ...messages];
}

/** The error a cancelled call ends with (as fetch does). */
export function cancelled(signal: AbortSignal | undefined): Error {
  const reason = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('the call was cancelled', 'AbortError');
}
