import { tinyTokenize } from '#core/testing/tiny-gguf.ts';
import { CONTEXT_TOKENS, expect, test, userAsks } from './fixtures.ts';

/**
 * The wllama engine on a real llama.cpp with the tiny random-weight model: counts, determinism,
 * streaming and cancellation. Its text is meaningless, so no test names what it says.
 */

/** Prompts in plain ASCII, some with the vocabulary's merges ("▁t", "he", "in", ...). */
const PROMPTS = ['Hello there', 'the answer is in the stars', 'a b c'];

/** How llama.cpp's default chat template (ChatML, for a model that has none) wraps one user message. */
function chatMl(content: string): string {
  return `<|im_start|>user\n${content}<|im_end|>\n<|im_start|>assistant\n`;
}

test('counts a prompt in tokens exactly as the tiny vocabulary predicts, bare and in the chat template', async ({
  inference,
}) => {
  for (const prompt of PROMPTS) {
    // One more than the pieces: the model adds its BOS token.
    const bare = await inference.call.complete({ prompt, maxTokens: 1 });
    expect(bare.promptTokens, prompt).toBe(tinyTokenize(prompt).length + 1);
    const chat = await inference.call.chat(userAsks(prompt, { max_tokens: 1 }));
    expect(chat.usage?.prompt_tokens, prompt).toBe(tinyTokenize(chatMl(prompt)).length + 1);
  }
});

test('decodes greedily by default: the same 32 tokens twice, and the same again when streamed', async ({
  inference,
}) => {
  const request = userAsks('Tell me a story', { max_tokens: 32 });
  const first = await inference.call.chat(request);
  expect(first.usage?.completion_tokens).toBe(32);
  expect(first.choices[0]?.finish_reason).toBe('length');
  const text = first.choices[0]?.message.content ?? '';
  expect(text.length).toBeGreaterThan(0);

  const second = await inference.call.chat(request);
  expect(second.choices[0]?.message.content).toBe(text);
  expect(second.usage).toEqual(first.usage);

  const chunks = await inference.call.chatStream(request);
  expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(text);
  expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason).filter(Boolean)).toEqual(['length']);
  // The usage comes once, last, in a chunk with no choices (as OpenAI streams it).
  expect(chunks.filter((chunk) => chunk.usage)).toHaveLength(1);
  expect(chunks.at(-1)).toEqual({ choices: [], usage: first.usage });
});

test('an interrupt mid-stream ends the stream with an AbortError, and the engine answers the next request', async ({
  inference,
}) => {
  const outcome = await inference.call.interruptMidStream(userAsks('Hello', { max_tokens: 32 }));
  expect(outcome.interrupted.name).toBe('AbortError');
  expect(outcome.chunksBeforeInterrupt).toBe(1);
  expect(outcome.after.usage?.completion_tokens).toBe(32);
});

test('a call cancelled mid-stream through engineProvider throws an AbortError, and the next call answers', async ({
  inference,
}) => {
  const outcome = await inference.call.abortMidStream({ prompt: 'Hello', maxTokens: 32 });
  expect(outcome.aborted.name).toBe('AbortError');
  expect(outcome.piecesBeforeAbort).toBe(1);
  expect(outcome.after.usage.completionTokens).toBe(32);
  expect(outcome.after.text.length).toBeGreaterThan(0);
});

test('unloading the model ends a request in flight with an AbortError, and its engine then says the model is gone', async ({
  inference,
}) => {
  const outcome = await inference.call.unloadMidRequest(userAsks('Hello', { max_tokens: 200 }));
  expect(outcome.inFlight.name).toBe('AbortError');
  expect(outcome.afterUnload).toContain('no longer loaded');
});

test("a prompt past the model's context is a context overflow, not a lost engine, and the engine answers the next one", async ({
  inference,
}) => {
  const outcome = await inference.call.overlongPrompt(CONTEXT_TOKENS * 2);
  expect(outcome.kind).toBe('context-overflow');
  expect(outcome.message).toMatch(/context/);
  const after = await inference.call.chat(userAsks('Hello', { max_tokens: 4 }));
  expect(after.usage?.completion_tokens).toBe(4);
});
