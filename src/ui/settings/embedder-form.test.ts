import { describe, expect, it } from 'vitest';
import { choiceOf, describeCheck, describeSave, formOf } from './embedder-form.ts';

describe('the embedder form', () => {
  it('holds a choice per provider and asks for the chosen one, or for none', () => {
    const form = formOf({ provider: 'gguf', model: 'nomic' });
    expect(form).toEqual({ provider: 'gguf', endpointModel: '', ggufModel: 'nomic', webllmModel: '' });
    expect(choiceOf({ ...form, endpointModel: 'text-embed' })).toEqual({ provider: 'gguf', model: 'nomic' });
    expect(choiceOf({ ...form, provider: 'openai-compatible', endpointModel: 'text-embed' })).toEqual({
      provider: 'openai-compatible',
      model: 'text-embed',
    });
    const arctic = 'snowflake-arctic-embed-s-q0f32-MLC-b4';
    expect(formOf({ provider: 'webllm', model: arctic })).toMatchObject({ provider: 'webllm', webllmModel: arctic });
    expect(choiceOf({ ...form, provider: 'webllm', webllmModel: arctic })).toEqual({
      provider: 'webllm',
      model: arctic,
    });
    expect(choiceOf(formOf(undefined))).toBeNull();
  });

  it('says what a save and a check came to, and each problem in words', () => {
    expect(describeSave({ ok: true, embedder: { provider: 'openai-compatible', model: 'text-embed' } }).message).toBe(
      'Saved: recall and similarity use the embeddings of text-embed from the next run.',
    );
    expect(describeSave({ ok: true })).toEqual({
      tone: 'success',
      message: 'Saved: no embedder; recall and similarity compare by hypervectors.',
    });
    expect(
      describeSave({ ok: false, problems: [{ path: 'embedder.model', message: 'name the embedding model' }] }),
    ).toEqual({
      tone: 'failure',
      message: 'The embedder was not changed:',
      problems: ['name the embedding model'],
    });
    expect(
      describeCheck({ ok: true, check: { provider: 'gguf', model: 'nomic', dimensions: 768, similarity: 0.912 } })
        .message,
    ).toBe('nomic answered: vectors of 768 numbers; "a cat" and "a kitten" are 0.91 alike.');
  });
});
