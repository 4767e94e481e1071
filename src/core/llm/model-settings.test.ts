import { describe, expect, it } from 'vitest';
import {
  mergeModelSettings,
  parseModelSettings,
  storedModelSettings,
  unhonouredModelSettings,
} from './model-settings.ts';
import { MAX_ANSWER_TOKENS } from '#core/records/model-settings.ts';

describe('model settings', () => {
  it('takes each setting within its range, and leaves out what is not given', () => {
    expect(parseModelSettings({ temperature: 0, topP: 1, maxTokens: 1, seed: -7 })).toEqual({
      ok: true,
      value: { temperature: 0, topP: 1, maxTokens: 1, seed: -7 },
    });
    expect(parseModelSettings({ temperature: 2 })).toEqual({ ok: true, value: { temperature: 2 } });
    expect(parseModelSettings({})).toEqual({ ok: true, value: {} });
  });

  it.each([
    [{ temperature: 2.5 }, 'temperature', 'temperature is at most 2'],
    [{ temperature: -0.1 }, 'temperature', 'temperature is at least 0'],
    [{ temperature: 'warm' }, 'temperature', 'temperature is a number from 0 to 2'],
    [{ topP: 0 }, 'topP', 'top-p is above 0'],
    [{ topP: 1.01 }, 'topP', 'top-p is at most 1'],
    [{ maxTokens: 0 }, 'maxTokens', 'max tokens is at least 1'],
    [{ maxTokens: 12.5 }, 'maxTokens', 'max tokens is a whole number of tokens'],
    [{ maxTokens: MAX_ANSWER_TOKENS + 1 }, 'maxTokens', 'max tokens is at most 131,072'],
    [{ seed: 1.5 }, 'seed', 'seed is a whole number'],
  ])('refuses %j in one sentence naming the field', (given, path, message) => {
    expect(parseModelSettings(given)).toEqual({ ok: false, error: [{ path, message }] });
  });

  it("refuses max tokens beyond the chosen model's context window, where it is known", () => {
    expect(parseModelSettings({ maxTokens: 4097 }, 4096)).toEqual({
      ok: false,
      error: [{ path: 'maxTokens', message: "max tokens is at most 4,096, the chosen model's context window" }],
    });
    expect(parseModelSettings({ maxTokens: 4096 }, 4096)).toMatchObject({ ok: true });
    expect(parseModelSettings({ maxTokens: 50_000 })).toMatchObject({ ok: true });
  });

  it('merges a call override over the session setting over a call default, field by field, leaving the rest to the engine', () => {
    const posture = { temperature: 0.2 };
    const session = { temperature: 0.9, topP: 0.5, seed: 3 };
    const callDefault = { maxTokens: 1024, topP: 0.95 };
    expect(mergeModelSettings(posture, session, callDefault)).toEqual({
      temperature: 0.2,
      topP: 0.5,
      seed: 3,
      maxTokens: 1024,
    });
    expect(mergeModelSettings(undefined, session)).toEqual(session);
    expect(mergeModelSettings(undefined, undefined)).toEqual({});
  });

  it("reads stored settings that no longer parse as the engines' defaults", () => {
    expect(storedModelSettings(undefined)).toEqual({});
    expect(storedModelSettings({ temperature: 9 })).toEqual({});
    expect(storedModelSettings({ seed: 4 })).toEqual({ seed: 4 });
  });

  it('says in words what the chosen provider cannot promise', () => {
    expect(unhonouredModelSettings('openai-compatible', { seed: 1 })).toEqual([
      expect.stringMatching(/^The seed is sent to the endpoint, but many servers ignore it/),
    ]);
    expect(unhonouredModelSettings('openai-compatible', { temperature: 1 })).toEqual([]);
    expect(unhonouredModelSettings('gguf', { seed: 1, temperature: 1 })).toEqual([]);
    expect(unhonouredModelSettings('none', { seed: 1 })).toEqual([
      'No model is chosen: these settings apply once a model is.',
    ]);
    expect(unhonouredModelSettings('none', {})).toEqual([]);
  });
});
