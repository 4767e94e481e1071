import { describe, expect, it } from 'vitest';
import { countText, numberText } from './count-text.ts';

describe('counts in words', () => {
  it('writes one in the singular and groups thousands, whatever the locale', () => {
    expect(countText(1, 'answer')).toBe('1 answer');
    expect(countText(0, 'answer')).toBe('0 answers');
    expect(countText(1228, 'finding')).toBe('1,228 findings');
    expect(countText(2, 'entry', 'entries')).toBe('2 entries');
    expect(numberText(1224)).toBe('1,224');
  });
});
