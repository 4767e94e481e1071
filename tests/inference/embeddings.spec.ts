import { cosineSimilarity } from '#core/llm/embedder.ts';
import { TINY_GGUF_SHAPE } from '#core/testing/tiny-gguf.ts';
import { expect, test, tinyModel } from './fixtures.ts';

/**
 * Embeddings on a real llama.cpp (wllama) with the tiny random-weight model made an embedding
 * model (its file says mean pooling), through the worker's GGUF host as a session's GGUF embedder
 * binds it. Its vectors mean nothing; what is checked is that they are real and behave as vectors.
 */
test('embeds texts on the CPU engine: one vector of the model’s width per text, the same text alike, another not', async ({
  inference,
}) => {
  const texts = ['the answer is in the stars', 'Hello there', 'the answer is in the stars'];
  const outcome = await inference.call.embed(tinyModel(3, { pooling: 'mean' }), 'tiny-embed', texts);
  if ('error' in outcome) throw new Error(outcome.error);
  expect(outcome.vectors).toHaveLength(3);
  for (const vector of outcome.vectors) {
    expect(vector).toHaveLength(TINY_GGUF_SHAPE.width);
    expect(vector.every(Number.isFinite)).toBe(true);
  }
  const [stars, hello, starsAgain] = outcome.vectors.map((vector) => Float32Array.from(vector));
  expect(cosineSimilarity(stars!, starsAgain!)).toBeCloseTo(1, 5);
  expect(cosineSimilarity(stars!, hello!)).toBeLessThan(0.9999);
  // The chat model the page loaded before is kept apart, and still answers.
  expect(outcome.chatAnswered).toBe(true);
});

test('a file llama.cpp cannot load fails to bind as an embedder, saying why in words', async ({ inference }) => {
  const junk = Buffer.from('GGUF, but not really: a truncated download').toString('base64');
  const outcome = await inference.call.embed(junk, 'broken-embed', ['Hello there']);
  expect('error' in outcome && outcome.error).toMatch(/^broken-embed: llama\.cpp could not load the model: /);
});
