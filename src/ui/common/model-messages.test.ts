import { describe, expect, it } from 'vitest';
import { boundModelText, bottleneckText, modelUseText, providerLabel, runUsageText } from './model-messages.ts';

describe('the words for a language model', () => {
  it("says a cycle's model use: the model, its provider, requests and tokens", () => {
    expect(
      modelUseText({
        provider: 'openai-compatible',
        model: 'llama-3',
        requests: 2,
        promptTokens: 1200,
        completionTokens: 30,
      }),
    ).toBe('llama-3 (OpenAI-compatible): 2 requests, 1,200 prompt + 30 completion tokens');
    expect(modelUseText({ provider: 'webllm', model: 'Qwen', requests: 1, promptTokens: 5, completionTokens: 1 })).toBe(
      'Qwen (WebLLM): 1 request, 5 prompt + 1 completion tokens',
    );
    expect(
      modelUseText({ provider: 'gguf', model: 'tiny.gguf', requests: 1, promptTokens: 5, completionTokens: 1 }),
    ).toBe('tiny.gguf (CPU engine): 1 request, 5 prompt + 1 completion tokens');
    const steps = [
      { promptTokens: 500, completionTokens: 10 },
      { promptTokens: 700, completionTokens: 20 },
    ];
    expect(
      modelUseText({ provider: 'webllm', model: 'Qwen', requests: 2, promptTokens: 1200, completionTokens: 30, steps }),
    ).toBe('Qwen (WebLLM): 2 requests, 1,200 prompt + 30 completion tokens (500 + 10, 700 + 20)');
  });

  it("names a bottleneck's kind in words, then its detail", () => {
    expect(bottleneckText({ kind: 'dependency_unavailable', detail: 'answered HTTP 500' })).toBe(
      'dependency unavailable — answered HTTP 500',
    );
    expect(bottleneckText({ kind: 'invalid_output', detail: '  ' })).toBe('invalid output');
  });

  it("says a run's usage only when it bound a model", () => {
    expect(
      runUsageText({
        provider: 'openai-compatible',
        model: 'llama-3',
        requests: 4,
        toolCalls: 1,
        inputTokens: 1200,
        outputTokens: 300,
      }),
    ).toBe('llama-3 (OpenAI-compatible): 4 requests, 1,200 tokens in, 300 out');
    expect(
      runUsageText({ provider: 'none', requests: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0 }),
    ).toBeUndefined();
  });

  it('names the model runs bind', () => {
    expect(boundModelText({ provider: 'none', limits: {}, confidenceCap: 0.7 })).toBe('none');
    expect(
      boundModelText({
        provider: 'openai-compatible',
        openAi: { baseUrl: 'http://x/v1', model: 'llama-3', apiKeyStored: false, baseUrlCredentialsStored: false },
        limits: {},
        confidenceCap: 0.7,
      }),
    ).toBe('llama-3 (OpenAI-compatible)');
    expect(boundModelText({ provider: 'webllm', webllmModel: 'Qwen', limits: {}, confidenceCap: 0.7 })).toBe(
      'Qwen (WebLLM)',
    );
    expect(
      boundModelText({
        provider: 'gguf',
        ggufModel: 'smollm2-135m-instruct-q8_0.gguf',
        limits: {},
        confidenceCap: 0.7,
      }),
    ).toBe('smollm2-135m-instruct-q8_0.gguf (CPU engine)');
    expect(boundModelText({ provider: 'gguf', limits: {}, confidenceCap: 0.7 })).toBe('CPU engine, no model chosen');
    expect(providerLabel('some-other')).toBe('some-other');
  });
});
