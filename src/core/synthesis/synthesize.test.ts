import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_GRAMMARS } from './built-in-grammars.ts';
import { grammarNamed } from './synthesize.ts';

const EXAMPLE = readFileSync(new URL('./example-grammar.toml', import.meta.url), 'utf8');

describe('grammarNamed', () => {
  it('picks a built-in grammar by name, ignoring case and spaces', () => {
    expect(grammarNamed('narrative')).toEqual({ ok: true, value: BUILT_IN_GRAMMARS.narrative });
    expect(grammarNamed(' Terse ')).toEqual({ ok: true, value: BUILT_IN_GRAMMARS.terse });
  });

  it('keeps the built-in names for the built-ins, even when a custom grammar has one', () => {
    expect(grammarNamed('formal', { name: 'formal', source: EXAMPLE })).toEqual({
      ok: true,
      value: BUILT_IN_GRAMMARS.formal,
    });
  });

  it('parses the custom grammar the preference names', () => {
    const result = grammarNamed('field-notes', { name: 'field-notes', source: EXAMPLE });
    expect(result.ok && result.value.headings.answers).toBe('Sightings');
  });

  it('says when a custom grammar has no source, or its source does not parse', () => {
    expect(grammarNamed('mine', { name: 'mine' })).toEqual({
      ok: false,
      error: [{ message: expect.stringContaining('has no source') }],
    });
    expect(grammarNamed('mine', { name: 'mine', source: 'name = [' })).toMatchObject({
      ok: false,
      error: [{ line: 1 }],
    });
  });

  it('says which grammars there are when none has the name', () => {
    expect(grammarNamed('poetic', { name: 'mine', source: EXAMPLE })).toEqual({
      ok: false,
      error: [{ message: 'no grammar is named "poetic" (known: "narrative", "formal", "terse", "mine")' }],
    });
  });
});
