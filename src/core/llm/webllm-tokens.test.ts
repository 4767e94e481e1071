import { MLCEngine } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { estimatedTokens, webLlmTokenCounter } from './webllm-tokens.ts';

const MODEL = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
/** A tokenizer that stands in for the model's: a token per word. */
const wordTokenizer = {
  encode: (text: string) => Int32Array.from(text.split(/\s+/).filter(Boolean), (_word, index) => index),
};

describe("a WebLLM model's token count", () => {
  it("uses the tokenizer of the model WebLLM's engine has loaded, where the installed WebLLM keeps it", () => {
    const engine = new MLCEngine();
    // The private field the count reads: a WebLLM that moved it fails here, not on a user's GPU.
    const pipelines = (engine as unknown as { loadedModelIdToPipeline: unknown }).loadedModelIdToPipeline;
    expect(pipelines).toBeInstanceOf(Map);
    const count = webLlmTokenCounter(engine, MODEL);
    const text = 'Zorblax is a rare mineral found in caves';
    expect(count(text)).toBe(estimatedTokens(text));
    (pipelines as Map<string, unknown>).set(MODEL, { tokenizer: wordTokenizer });
    expect(count(text)).toBe(8);
  });

  it('is estimated where the tokenizer is gone, unusable, or fails', () => {
    const text = 'Zorblax is a rare mineral found in caves';
    for (const engine of [
      {},
      { loadedModelIdToPipeline: {} },
      { loadedModelIdToPipeline: new Map([[MODEL, { tokenizer: { encode: 'no' } }]]) },
      {
        loadedModelIdToPipeline: new Map([
          [
            MODEL,
            {
              tokenizer: {
                encode: () => {
                  throw new Error('disposed');
                },
              },
            },
          ],
        ]),
      },
    ]) {
      expect(webLlmTokenCounter(engine, MODEL)(text)).toBe(estimatedTokens(text));
    }
  });

  it('is estimated long: more than the words of prose, and a UTF-8 byte a token for Chinese or emoji', () => {
    const prose = 'The first paragraph says what Zorblax is, and the second where it is found.';
    expect(estimatedTokens(prose)).toBeGreaterThan(prose.split(' ').length * 2);
    expect(estimatedTokens('知识图谱')).toBe(12);
    expect(estimatedTokens('é🙂')).toBe(6);
  });
});
