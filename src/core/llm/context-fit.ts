import type { ChatMessage, ModelContext } from './provider.ts';

/**
 * What a chat template adds around each message (role markers, an end-of-turn token) and around
 * the prompt (its start, the opening of the answer). Templates differ: these allow for the
 * largest of WebLLM's models (Llama 3's adds 5 a message), so a prompt counted here is never
 * shorter than the one the model reads.
 */
const TOKENS_PER_MESSAGE = 8;
const TOKENS_PER_PROMPT = 16;

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
    messages.map(async (message) => TOKENS_PER_MESSAGE + (await context.count(message.content))),
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
