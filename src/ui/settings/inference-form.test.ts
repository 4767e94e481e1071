import { describe, expect, it } from 'vitest';
import type { InferenceView } from '../common/model-messages.ts';
import {
  PROVIDER_CHOICES,
  describeCheck,
  describeKeyRemoval,
  describeSave,
  formOf,
  formProblems,
  hasUnsavedChanges,
  limitsText,
  settingsOf,
} from './inference-form.ts';

const ENDPOINT_VIEW: InferenceView = {
  provider: 'openai-compatible',
  openAi: {
    baseUrl: 'http://localhost:8080/v1',
    model: 'llama-3',
    apiKeyStored: true,
    baseUrlCredentialsStored: false,
  },
  limits: { requests: 5, wallSeconds: 30 },
  confidenceCap: 0.7,
};

describe('the language model form', () => {
  it('shows the saved settings, an empty key field, and empty limits for no limit', () => {
    const form = formOf(ENDPOINT_VIEW);
    expect(form).toEqual({
      provider: 'openai-compatible',
      baseUrl: 'http://localhost:8080/v1',
      model: 'llama-3',
      apiKey: '',
      vision: false,
      webllmModel: '',
      ggufModel: '',
      limits: { requests: 5, toolCalls: null, inputTokens: null, outputTokens: null, wallSeconds: 30 },
      confidenceCap: 0.7,
    });
  });

  it('marks the endpoint model as seeing images only when asked, and reads the mark back', () => {
    const form = formOf(ENDPOINT_VIEW);
    expect(settingsOf(form)).not.toHaveProperty('openAi.vision');
    const seeing = settingsOf({ ...form, vision: true });
    expect(seeing).toMatchObject({ openAi: { model: 'llama-3', vision: true } });
    expect(formOf({ ...ENDPOINT_VIEW, openAi: { ...ENDPOINT_VIEW.openAi!, vision: true } }).vision).toBe(true);
  });

  it('keeps the stored key when the key field is left empty, replaces it when one is typed, removes it when asked', () => {
    const form = formOf(ENDPOINT_VIEW);
    expect(settingsOf(form)).toEqual({
      provider: 'openai-compatible',
      openAi: { baseUrl: 'http://localhost:8080/v1', model: 'llama-3' },
      limits: { requests: 5, wallSeconds: 30 },
      confidenceCap: 0.7,
    });
    expect(settingsOf({ ...form, apiKey: ' sk-new ' })).toMatchObject({ openAi: { apiKey: 'sk-new' } });
    expect(settingsOf(form, { removeKey: true })).toMatchObject({ openAi: { apiKey: '' } });
  });

  it('keeps a filled-in endpoint when another provider is chosen, and sends a blank one only when it is chosen', () => {
    const form = formOf(ENDPOINT_VIEW);
    expect(settingsOf({ ...form, provider: 'none' })).toMatchObject({ provider: 'none', openAi: { model: 'llama-3' } });
    expect(settingsOf({ ...form, provider: 'none', baseUrl: '', model: '' })).not.toHaveProperty('openAi');
    expect(settingsOf({ ...form, baseUrl: ' ', model: '' })).toMatchObject({ openAi: { baseUrl: '', model: '' } });
    expect(settingsOf({ ...form, provider: 'webllm', webllmModel: ' Qwen ' })).toMatchObject({
      provider: 'webllm',
      webllmModel: 'Qwen',
    });
  });

  it('sends the chosen GGUF model for the CPU engine, and keeps the WebLLM model when switching', () => {
    const form = formOf({ provider: 'webllm', webllmModel: 'Qwen', limits: {}, confidenceCap: 0.7 });
    expect(form.ggufModel).toBe('');
    expect(settingsOf({ ...form, provider: 'gguf', ggufModel: ' tiny.gguf ' })).toEqual({
      provider: 'gguf',
      webllmModel: 'Qwen',
      ggufModel: 'tiny.gguf',
      limits: {},
      confidenceCap: 0.7,
    });
    // None chosen yet: the agent says to choose one (its problem names the field).
    expect(settingsOf({ ...form, provider: 'gguf' })).not.toHaveProperty('ggufModel');
    const saved = formOf({ provider: 'gguf', ggufModel: 'tiny.gguf', limits: {}, confidenceCap: 0.7 });
    expect(saved).toMatchObject({ provider: 'gguf', ggufModel: 'tiny.gguf' });
    expect(settingsOf({ ...saved, provider: 'none' })).toMatchObject({ provider: 'none', ggufModel: 'tiny.gguf' });
    expect(
      hasUnsavedChanges(
        { ...saved, ggufModel: 'other.gguf' },
        { provider: 'gguf', ggufModel: 'tiny.gguf', limits: {}, confidenceCap: 0.7 },
      ),
    ).toBe(true);
  });

  it('offers the CPU engine among the providers', () => {
    expect(PROVIDER_CHOICES.map((choice) => choice.label)).toContain('CPU engine (llama.cpp, any browser)');
    expect(PROVIDER_CHOICES.find((choice) => choice.label.startsWith('CPU engine'))?.value).toBe('gguf');
  });

  it('knows when the form differs from the saved settings, which a check uses', () => {
    const form = formOf(ENDPOINT_VIEW);
    expect(hasUnsavedChanges(form, ENDPOINT_VIEW)).toBe(false);
    expect(hasUnsavedChanges({ ...form, model: 'other' }, ENDPOINT_VIEW)).toBe(true);
    expect(hasUnsavedChanges({ ...form, apiKey: 'sk' }, ENDPOINT_VIEW)).toBe(true);
  });

  it('names a limit that is not a whole number above 0, and an empty confidence cap, before asking the agent', () => {
    const form = formOf(ENDPOINT_VIEW);
    expect(formProblems(form)).toEqual([]);
    expect(
      formProblems({
        ...form,
        limits: { ...form.limits, requests: 0, toolCalls: 1.5, wallSeconds: 0.5 },
        confidenceCap: null,
      }),
    ).toEqual([
      { path: 'limits.requests', message: 'Enter a whole number above 0, or leave it empty for no limit.' },
      { path: 'limits.toolCalls', message: 'Enter a whole number above 0, or leave it empty for no limit.' },
      { path: 'confidenceCap', message: 'enter a confidence from 0.05 to 1' },
    ]);
  });

  it("names the agent's problems by the field's label, and keeps them by field", () => {
    const report = describeSave({
      ok: false,
      problems: [
        { path: 'openAi.baseUrl', message: 'the base URL must be an http(s) address, like http://localhost:8080/v1' },
        { path: 'limits.requests', message: 'Too small' },
        { message: 'something else' },
        { path: 'ggufModel', message: 'choose a GGUF model (add one on the Models screen)' },
      ],
    });
    expect(report).toEqual({
      tone: 'failure',
      message: 'The language model settings were not changed:',
      problems: [
        'Base URL: the base URL must be an http(s) address, like http://localhost:8080/v1',
        'Requests: Too small',
        'something else',
        'GGUF model: choose a GGUF model (add one on the Models screen)',
      ],
      byField: {
        'openAi.baseUrl': ['the base URL must be an http(s) address, like http://localhost:8080/v1'],
        'limits.requests': ['Too small'],
        ggufModel: ['choose a GGUF model (add one on the Models screen)'],
      },
    });
  });

  it('says what runs bind once saved, with their limits', () => {
    expect(describeSave({ ok: true, settings: ENDPOINT_VIEW }).message).toBe(
      'Saved: runs bind llama-3 (OpenAI-compatible), within 5 requests and 30 s of wall time each.',
    );
    expect(describeSave({ ok: true, settings: { ...ENDPOINT_VIEW, limits: {} } }).message).toBe(
      'Saved: runs bind llama-3 (OpenAI-compatible), with no limits.',
    );
    expect(describeSave({ ok: true, settings: { provider: 'none', limits: {}, confidenceCap: 0.7 } }).message).toBe(
      'Saved: runs use the symbolic engine alone.',
    );
    expect(
      describeSave({
        ok: true,
        settings: { provider: 'gguf', ggufModel: 'tiny.gguf', limits: { requests: 2 }, confidenceCap: 0.7 },
      }).message,
    ).toBe('Saved: runs bind tiny.gguf (CPU engine), within 2 requests each.');
    expect(limitsText({ requests: 1, toolCalls: 2, outputTokens: 1000 })).toBe(
      '1 request, 2 tool calls and 1,000 output tokens',
    );
    expect(describeKeyRemoval({ ok: true, settings: ENDPOINT_VIEW }).message).toBe(
      'The API key is removed from this device.',
    );
  });
});

describe('a check of the model', () => {
  const check = {
    provider: 'openai-compatible',
    model: 'tiny-test',
    attempts: 1,
    promptTokens: 42,
    completionTokens: 7,
  };

  it('shows the answer, with the attempts and tokens', () => {
    expect(describeCheck({ ok: true, check: { ...check, answer: 'Paris' } })).toEqual({
      tone: 'answer',
      answer: 'Paris',
      summary: 'tiny-test (OpenAI-compatible): 1 attempt, 42 prompt + 7 completion tokens.',
    });
  });

  it("shows the bottleneck's kind in words and its detail", () => {
    expect(
      describeCheck({
        ok: true,
        check: {
          ...check,
          attempts: 3,
          bottleneck: { kind: 'dependency_unavailable', detail: 'answered HTTP 500: boom' },
        },
      }),
    ).toEqual({
      tone: 'bottleneck',
      bottleneck: 'dependency unavailable — answered HTTP 500: boom',
      summary: 'tiny-test (OpenAI-compatible): 3 attempts, 42 prompt + 7 completion tokens.',
    });
  });

  it('says why no check could run, or that it was cancelled', () => {
    const refused = {
      ok: false as const,
      problems: [{ message: 'no model is chosen: the agent runs on the symbolic engine alone' }],
    };
    expect(describeCheck(refused)).toEqual({
      tone: 'failure',
      message: 'The check could not run:',
      problems: ['no model is chosen: the agent runs on the symbolic engine alone'],
    });
    expect(describeCheck({ ok: false, problems: [{ message: 'the check was cancelled' }] }, true)).toEqual({
      tone: 'cancelled',
      message: 'The check was cancelled.',
    });
  });
});
