import { describe, expect, it } from 'vitest';
import { locateTomlKeys, nearestLine } from './key-lines.ts';

const SOURCE = [
  'name = "x"', // 1
  '[templates]', // 2
  'part = "{subject}"', // 3
  'other = """', // 4
  'part_of = not a key, inside a string', // 5
  '"""', // 6
  'part_of = "x"', // 7
  '[openers]', // 8
  'connect = [', // 9
  '  "Also, ",', // 10
  ']', // 11
  'layout.kind = "prose"', // 12
  '"quoted key" = 1', // 13
  '[[patterns]]', // 14
  'name = "a"', // 15
  '[[patterns]]', // 16
  'name = "b"', // 17
].join('\n');

describe('where TOML keys are written', () => {
  const located = locateTomlKeys(SOURCE);

  it('finds keys under a table header, dotted keys and quoted keys', () => {
    expect(nearestLine(located, 'templates.part')).toBe(3);
    expect(nearestLine(located, 'openers.layout.kind')).toBe(12);
    expect(nearestLine(located, 'openers.quoted key')).toBe(13);
  });

  it('skips lines inside multi-line strings and values', () => {
    expect(nearestLine(located, 'templates.part_of')).toBe(7);
    expect(located.has('openers.  "Also, ",')).toBe(false);
  });

  it('numbers the tables of an array of tables', () => {
    expect(nearestLine(located, 'patterns.0.name')).toBe(15);
    expect(nearestLine(located, 'patterns.1.name')).toBe(17);
  });

  it('gives an array element the line of its array, a missing key the line of its table, and nothing for what is not written', () => {
    expect(nearestLine(located, 'openers.connect.0')).toBe(9);
    expect(nearestLine(located, 'templates.classification')).toBe(2);
    expect(nearestLine(located, 'layout')).toBeUndefined();
  });
});
