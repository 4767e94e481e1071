import { describe, expect, it } from 'vitest';
import { parseDecimal } from './decimal-text.ts';

describe('parseDecimal', () => {
  it.each([
    ['0', 0],
    ['1', 1],
    ['0.75', 0.75],
    ['1.0', 1],
    ['007', 7],
    ['10', 10],
  ])('reads %s', (text, value) => {
    expect(parseDecimal(text)).toBe(value);
  });

  it.each([
    '0x1',
    '0b1',
    '0o7',
    '1e3',
    '1E-1',
    'Infinity',
    '-Infinity',
    'NaN',
    '',
    ' ',
    ' 1 ',
    '1_0',
    '.5',
    '5.',
    '+1',
    '1,5',
    '١',
    '１',
    '--1',
    '0.5.1',
    '-0',
    '-2.5',
  ])('refuses %j', (text) => {
    expect(parseDecimal(text)).toBeUndefined();
  });
});
