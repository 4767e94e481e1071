import { describe, expect, it } from 'vitest';
import { describeProblem } from './result.ts';
import { type JsonReadOptions, MAX_JSON_DEPTH, readJson } from './safe-json.ts';
import { decodeUtf8Text } from './text-bytes.ts';

const LIMIT: JsonReadOptions = { maxBytes: 2 ** 20 };

/** The one sentence a refusal comes to, as a user reads it. */
function refusalOf(input: string | Uint8Array, options = LIMIT): string {
  const read = readJson(input, options);
  if (read.ok) throw new Error(`read ${JSON.stringify(read.value)}, expected a refusal`);
  expect(read.error).toHaveLength(1);
  return describeProblem(read.error[0]!);
}

describe('readJson', () => {
  it('reads what JSON.parse reads, from text or UTF-8 bytes, a byte order mark skipped', () => {
    const text = '{"a": [1, -2.5e3, "x\\"y\\u00e9\\ud83d\\ude00", true, false, null], "b": {}}';
    expect(readJson(text, LIMIT)).toEqual({ ok: true, value: JSON.parse(text) });
    expect(readJson(new TextEncoder().encode(`\uFEFF${text}`), LIMIT)).toEqual({ ok: true, value: JSON.parse(text) });
    expect(readJson('\uFEFF 7 \n', LIMIT)).toEqual({ ok: true, value: 7 });
  });

  it('refuses a key given twice in one object, naming its path (JSON.parse would keep the last)', () => {
    const snapshot = '{"format":"anima-snapshot",\n"triples":[[1,2,3]],\n"triples":[]}';
    expect(refusalOf(snapshot)).toBe(
      'line 3, column 1, at $.triples: the key "triples" appears twice in one object; which one is meant cannot be known',
    );
    // Escaped or not, the same key; deep inside arrays; in an object with many keys.
    expect(refusalOf('{"x":{"y":[{"k":1,"\\u006b":2}]}}')).toMatch(
      /^line 1, column 19, at \$\.x\.y\[0\]\.k: the key "k" appears twice/,
    );
    const many = Array.from({ length: 100 }, (_, index) => `"key${index}":${index}`);
    expect(refusalOf(`{${many.join(',')},"key57":0}`)).toMatch(/at \$\.key57: the key "key57" appears twice/);
    expect(refusalOf('{"a b":{"c":1,"c":1}}')).toMatch(/at \$\["a b"\]\.c: /);
    // The same key in two objects is no repeat.
    expect(readJson('[{"a":1,"b":{"a":2}},{"a":3}]', LIMIT).ok).toBe(true);
  });

  it('refuses nesting deeper than the limit without overflowing the stack, even 100,000 levels deep', () => {
    expect(readJson(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`, LIMIT).ok).toBe(true);
    expect(refusalOf(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).toBe(
      `line 1, column ${MAX_JSON_DEPTH + 1}: the JSON nests deeper than 64 levels, more than any file Anima writes`,
    );
    expect(refusalOf(`{"personas":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)).toMatch(
      /^line 1, column 76: the JSON nests deeper than 64 levels/,
    );
    expect(refusalOf('{"a":{"b":[]}}', { maxBytes: 100, maxDepth: 2 })).toMatch(
      /^line 1, column 11: the JSON nests deeper than 2 levels/,
    );
  });

  it('says where the text breaks the grammar, in one sentence', () => {
    expect(refusalOf('')).toBe('line 1, column 1: there is no JSON: the text is empty');
    expect(refusalOf('{"a":1,}')).toBe(
      'line 1, column 8, at $: a key in double quotes was expected, but "}" was found',
    );
    expect(refusalOf('{"a" 1}')).toBe(
      'line 1, column 6, at $.a: a colon after the key was expected, but "1" was found',
    );
    expect(refusalOf('[1 2]')).toBe(
      'line 1, column 4, at $[0]: a comma or ] after the value was expected, but "2" was found',
    );
    expect(refusalOf('{"a":\n  [1,')).toBe(
      'line 2, column 6, at $.a[1]: a value was expected, but the end of the text was found',
    );
    expect(refusalOf('{"a":[1]')).toBe(
      'line 1, column 9, at $.a: the text ends too soon: a comma or } after the value was expected',
    );
    expect(refusalOf('"abc')).toBe(
      'line 1, column 1, at $: a string is not closed: the text ends before its closing double quote',
    );
    expect(refusalOf('["a\nb"]')).toBe(
      'line 1, column 4, at $[0]: a string holds the control character U+000A, which JSON writes as an escape (a string not closed on its line?)',
    );
    expect(refusalOf('"a\\qb"')).toBe(
      'line 1, column 3, at $: "\\\\q" is not an escape JSON knows (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)',
    );
    expect(refusalOf('[1] [2]')).toBe('line 1, column 5: the JSON value ends before the text does: "[" follows it');
    expect(refusalOf('{a:1}')).toBe('line 1, column 2, at $: a key in double quotes was expected, but "a" was found');
  });

  it('takes decimal numbers only, and none that a double cannot hold', () => {
    for (const number of ['0x1F', '01', '1.', '.5', '+1', '1e', '1_000', 'NaN', 'Infinity', '-Infinity'])
      expect(readJson(`[${number}]`, LIMIT).ok, number).toBe(false);
    expect(refusalOf('[0x1F]')).toBe(
      'line 1, column 2, at $[0]: "0x1F" is not a JSON number (decimal digits, then an optional fraction and exponent)',
    );
    expect(refusalOf('{"n":1e400}')).toBe(
      'line 1, column 6, at $.n: "1e400" is too large a number (a double goes up to about 1.8e308)',
    );
    expect(refusalOf(`[${'9'.repeat(400)}]`)).toMatch(/is too large a number/);
    expect(readJson('[-0.5e-3, 1E+2, 1e-400, 123456789012345678901234567890]', LIMIT)).toEqual({
      ok: true,
      value: [-0.0005, 100, 0, 1.2345678901234568e29],
    });
  });

  it('refuses half of a character (a lone surrogate), escaped or not: it is not text', () => {
    expect(refusalOf('["\\ud800"]')).toBe(
      'line 1, column 3, at $[0]: "\\\\ud800" is half of a character (a lone surrogate), which is not text',
    );
    expect(refusalOf('["\\udc00\\ud800"]')).toMatch(/a lone surrogate/);
    expect(refusalOf('["x\ud800"]')).toBe(
      'line 1, column 4, at $[0]: a string holds half of a character (a lone surrogate), which is not text',
    );
    expect(readJson('["\\ud83d\\ude00😀"]', LIMIT)).toEqual({ ok: true, value: ['😀😀'] });
  });

  it('echoes at most 200 characters of the input, however long the bad piece', () => {
    const hugeWord = 'x'.repeat(10_000_000);
    const refusal = refusalOf(`[${hugeWord}]`, { maxBytes: 11_000_000 });
    expect(refusal.length).toBeLessThan(400);
    expect(refusal).toContain('(10,000,000 characters)');
    const hugeKey = 'k'.repeat(5_000);
    expect(refusalOf(`{"${hugeKey}":1,"${hugeKey}":2}`).length).toBeLessThan(300);
  });

  it('refuses input over its size limit before reading it, saying both sizes', () => {
    expect(refusalOf('[1, 2, 3, 4, 5]', { maxBytes: 10 })).toBe(
      'the JSON is at least 15 bytes, more than the 10 bytes Anima reads here',
    );
    expect(refusalOf(`"${'é'.repeat(20)}"`, { maxBytes: 30 })).toBe(
      'the JSON is 42 bytes, more than the 30 bytes Anima reads here',
    );
    expect(refusalOf(new Uint8Array(3 * 2 ** 20), { maxBytes: 2 * 2 ** 20 })).toBe(
      'the JSON is 3 MB, more than the 2 MB Anima reads here',
    );
  });

  it('refuses bytes that are not UTF-8 with the offset of the first bad byte', () => {
    expect(refusalOf(Uint8Array.of(0x7b, 0x22, 0x61, 0x22, 0x3a, 0xff, 0x7d))).toBe(
      'line 1: the file is not UTF-8 text: the byte 0xFF at offset 5 (counting from 0) does not start a UTF-8 character; save the file as UTF-8',
    );
    // Latin-1 "café": its é begins a three-byte UTF-8 character that the quote does not continue; an overlong form, a surrogate, a cut character.
    expect(refusalOf(Uint8Array.of(0x22, 0x63, 0x61, 0x66, 0xe9, 0x22))).toMatch(/the byte 0xE9 at offset 4 /);
    expect(refusalOf(Uint8Array.of(0x22, 0xc0, 0xaf, 0x22))).toMatch(/the byte 0xC0 at offset 1 /);
    expect(refusalOf(Uint8Array.of(0x22, 0xed, 0xa0, 0x80, 0x22))).toMatch(/the byte 0xED at offset 1 /);
    expect(refusalOf(Uint8Array.of(0x22, 0x80, 0x22))).toMatch(/the byte 0x80 at offset 1 /);
    expect(refusalOf(Uint8Array.of(0x22, 0xe2, 0x82))).toBe(
      'line 1: the file is not UTF-8 text: it ends in the middle of a character, at byte offset 1 (0xE2, counting from 0); was it cut short?',
    );
    expect(decodeUtf8Text(Uint8Array.of(0xe2, 0x82, 0xac))).toEqual({ ok: true, value: '€' });
  });
});

describe('readJson on text the quick pass lets through', () => {
  it('refuses what only JSON.parse would notice, in the strict pass’s words', () => {
    // A key with an escape and a raw control character: the quick pass decodes keys, and must not throw on it.
    expect(refusalOf('{"a\\n\u0001":1}')).toBe(
      'line 1, column 6, at $: a string holds the control character U+0001, which JSON writes as an escape',
    );
    expect(refusalOf('{"a":"x\ty"}')).toMatch(
      /^line 1, column 8, at \$\.a: a string holds the control character U\+0009/,
    );
    expect(refusalOf('[1-2]')).toMatch(/^line 1, column 2, at \$\[0\]: "1-2" is not a JSON number/);
    expect(refusalOf('[1e5e5]')).toMatch(/"1e5e5" is not a JSON number/);
  });
});
