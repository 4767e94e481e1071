import { describe, expect, it } from 'vitest';
import { describeSave, formOf, settingsOf } from './model-settings-form.ts';

describe('the model settings form', () => {
  it('sends only the fields filled in: an empty one is the engine default', () => {
    expect(settingsOf({ temperature: 0.5, topP: null, maxTokens: 256, seed: Number.NaN })).toEqual({
      temperature: 0.5,
      maxTokens: 256,
    });
    expect(formOf({ settings: { seed: 3 } })).toEqual({ temperature: null, topP: null, maxTokens: null, seed: 3 });
  });

  it('names each refused field by its label, and says what was saved', () => {
    expect(describeSave({ ok: false, problems: [{ path: 'topP', message: 'top-p is above 0' }] })).toEqual({
      tone: 'failure',
      message: 'The model settings were not changed:',
      problems: ['Top-p: top-p is above 0'],
      byField: { topP: ['top-p is above 0'] },
    });
    expect(describeSave({ ok: true, settings: { temperature: 0.5, maxTokens: 1000 }, notes: [] })).toEqual({
      tone: 'success',
      message: "Saved: temperature 0.5, max tokens 1,000; the rest are the engine's defaults.",
    });
    expect(describeSave({ ok: true, settings: {}, notes: [] })).toEqual({
      tone: 'success',
      message: "Saved: every setting is the engine's default.",
    });
  });
});
