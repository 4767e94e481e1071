import { describe, expect, it } from 'vitest';
import { grammarChoices, grammarLabel, writeUpFileName } from './synthesis-messages.ts';

describe('grammarChoices', () => {
  it('offers the built-in grammars first, then the custom ones the agent names, each once', () => {
    expect(grammarChoices(['terse', 'scholarly', 'narrative'])).toEqual(['narrative', 'formal', 'terse', 'scholarly']);
    expect(grammarChoices([])).toEqual(['narrative', 'formal', 'terse']);
  });
});

describe('grammarLabel', () => {
  it('capitalises built-in grammars and marks custom ones', () => {
    expect(grammarLabel('formal')).toBe('Formal');
    expect(grammarLabel('scholarly')).toBe('scholarly (custom)');
  });
});

describe('writeUpFileName', () => {
  it('names the file after the goal and the grammar', () => {
    expect(writeUpFileName({ id: 1, description: 'Learn about Mars!' }, 'narrative')).toBe(
      'learn-about-mars-narrative.txt',
    );
  });

  it('falls back to the goal id when the description has no letters or digits', () => {
    expect(writeUpFileName({ id: 3, description: '???' }, 'My Grammar')).toBe('goal-3-my-grammar.txt');
  });
});
