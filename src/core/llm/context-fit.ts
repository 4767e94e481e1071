import { PHI3_VISION_MAX_IMAGE_TOKENS } from './image-tokens.ts';
import type { ChatMessage, ModelContext } from './provider.ts';

/**
 * What a chat template adds around each message (role markers, an end-of-turn token) and around
 * the prompt (its start, the opening of the answer). Templates differ: these allow for the
 * largest of WebLLM's models (Llama 3's adds 5 a message), so a prompt counted here is never
 * shorter than the one the model reads.
 */
const TOKENS_PER_MESSAGE = 8;
const TOKENS_PER_PROMPT = 16;
/** What a template adds to mark where an image goes (Phi-3.5 vision's `<|image_1|>` and a line break). */
const TOKENS_PER_IMAGE_MARK = 8;

/**
 * A message's tokens as the model reads them, but for its template: its text by the tokenizer, and
 * each image by the model's own rule; a context without one counts the most any rule here gives
 * (see image-tokens.ts), so a prompt with images is never counted short.
 */
export async function messageTokens(context: ModelContext, message: ChatMessage): Promise<number> {
  const images = (message.images ?? []).reduce(
    (sum, image) => sum + (context.imageTokens?.(image) ?? PHI3_VISION_MAX_IMAGE_TOKENS),
    0,
  );
  return (await context.count(message.content)) + images;
}

/** What the template adds around a message: its role markers, and a mark for each image. */
const templateTokens = (message: ChatMessage) =>
  TOKENS_PER_MESSAGE + TOKENS_PER_IMAGE_MARK * (message.images?.length ?? 0);

/** The prompt fitted to the context window: the messages to send, and how many were left out. */
export type Fitted =
  { ok: true; messages: ChatMessage[]; leftOut: number } | { ok: false; needed: number; window: number };

/**
 * The messages as they fit the model's context window, with room for an answer of `answerTokens`
 * (at most half the window): all of them; or, when they do not fit, without the oldest steps of
 * the conversation (each an answer and the message after it, right after the question), keeping
 * the system prompt, the question (the first message after it) and the last message. When even
 * those do not fit, what they need and what the window holds.
 */
export async function fitToContext(
  context: ModelContext,
  messages: readonly ChatMessage[],
  answerTokens = 0,
): Promise<Fitted> {
  const room = context.tokens - Math.min(answerTokens, Math.floor(context.tokens / 2));
  const counts = await Promise.all(
    messages.map(async (message) => templateTokens(message) + (await messageTokens(context, message))),
  );
  let total = TOKENS_PER_PROMPT + counts.reduce((sum, count) => sum + count, 0);
  const kept = messages.map((message, index) => ({ message, tokens: counts[index]! }));
  const question = kept.findIndex(({ message }) => message.role !== 'system');
  // A step is two messages after the question; the last message always stays.
  while (total > room && question >= 0 && question + 2 < kept.length - 1) {
    const [answer, next] = kept.splice(question + 1, 2);
    total -= answer!.tokens + next!.tokens;
  }
  const answerRoom = context.tokens - room;
  if (total > room) return { ok: false, needed: total + answerRoom, window: context.tokens };
  return { ok: true, messages: kept.map(({ message }) => message), leftOut: messages.length - kept.length };
}
