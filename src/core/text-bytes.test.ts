import { describe, expect, it } from 'vitest';
import { describeProblem } from './result.ts';
import { decodeUtf8Text, firstInvalidUtf8Byte, readCapped, StrictUtf8Stream } from './text-bytes.ts';

const bytes = (...values: number[]) => Uint8Array.from(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('firstInvalidUtf8Byte', () => {
  it('finds nothing wrong in well-formed text, four-byte characters included', () => {
    expect(firstInvalidUtf8Byte(utf8('aé導😀\u{10FFFF}\uFFFD'))).toBeUndefined();
  });

  it.each([
    ['a stray continuation byte', bytes(0x61, 0x80), 1],
    ['a Latin-1 é', bytes(0x61, 0x62, 0xe9, 0x63), 2],
    ['an overlong form', bytes(0xc0, 0xaf), 0],
    ['an overlong three-byte form', bytes(0x61, 0xe0, 0x80, 0xaf), 1],
    ['an encoded surrogate', bytes(0xed, 0xa0, 0x80), 0],
    ['a code point above U+10FFFF', bytes(0xf4, 0x90, 0x80, 0x80), 0],
    ['a lead byte followed by ASCII', bytes(0x61, 0xe2, 0x41, 0x41), 1],
    ['a character cut short by the end', bytes(0x61, 0xf0, 0x9f, 0x98), 1],
    ['0xFF', bytes(0xff), 0],
  ])('points at %s', (_name, input, offset) => {
    expect(firstInvalidUtf8Byte(input)).toBe(offset);
  });

  it('agrees with the platform decoder on random bytes', () => {
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) % 256;
    for (let round = 0; round < 2000; round++) {
      const input = Uint8Array.from({ length: 1 + (round % 12) }, () => (next() < 128 ? 0x61 : next()));
      let isValid = true;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(input);
      } catch {
        isValid = false;
      }
      const offset = firstInvalidUtf8Byte(input);
      expect(offset === undefined, `${Array.from(input, (byte) => byte.toString(16)).join(' ')}`).toBe(isValid);
      // The lenient decoder's first U+FFFD stands where the first bad byte is.
      if (offset !== undefined)
        expect(new TextDecoder().decode(input).indexOf('\uFFFD')).toBe(
          new TextDecoder().decode(input.subarray(0, offset)).length,
        );
    }
  });
});

describe('decodeUtf8Text', () => {
  it('decodes UTF-8 and drops a byte order mark', () => {
    expect(decodeUtf8Text(bytes(0xef, 0xbb, 0xbf, ...utf8('name = "Zoé"')))).toEqual({
      ok: true,
      value: 'name = "Zoé"',
    });
  });

  it('refuses Latin-1 text with the line and the byte offset', () => {
    const latin1 = bytes(...utf8('[persona]\nname = "Zo'), 0xe9, ...utf8('"\n'));
    const decoded = decodeUtf8Text(latin1);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok)
      expect(decoded.error.map(describeProblem)).toEqual([
        'line 2: the file is not UTF-8 text: the byte 0xE9 at offset 20 (counting from 0) does not start a UTF-8 character; save the file as UTF-8',
      ]);
  });

  it('says when the file ends inside a character', () => {
    const decoded = decodeUtf8Text(bytes(0x61, 0x0a, 0xe2, 0x82));
    expect(decoded.ok ? '' : decoded.error.map(describeProblem)).toEqual([
      'line 2: the file is not UTF-8 text: it ends in the middle of a character, at byte offset 2 (0xE2, counting from 0); was it cut short?',
    ]);
  });
});

describe('StrictUtf8Stream', () => {
  const readAll = (chunks: Uint8Array[]) => {
    const stream = new StrictUtf8Stream();
    let text = '';
    for (const chunk of [...chunks, undefined]) {
      const decoded = stream.decode(chunk);
      if ('problem' in decoded) return { text: text + decoded.textBefore, message: decoded.problem.message };
      text += decoded.text;
    }
    return { text };
  };

  it('decodes characters split between chunks', () => {
    const whole = utf8('a😀b導');
    expect(readAll([whole.subarray(0, 2), whole.subarray(2, 4), whole.subarray(4)])).toEqual({ text: 'a😀b導' });
  });

  it('gives the offset in the whole stream when a character begun in one chunk goes wrong in the next', () => {
    expect(readAll([utf8('abc'), bytes(0x0a, 0xe2), bytes(0x41, 0x42)])).toEqual({
      text: 'abc\n',
      message: expect.stringContaining('the byte 0xE2 at offset 4 (counting from 0)'),
    });
  });

  it('says where a stream ends inside a character', () => {
    expect(readAll([utf8('abc'), bytes(0xf0, 0x9f)])).toEqual({
      text: 'abc',
      message: expect.stringContaining('ends in the middle of a character, at byte offset 3'),
    });
  });

  it('counts offsets over many chunks', () => {
    expect(readAll([utf8('aaaa'), utf8('bbbb'), bytes(0x63, 0xff)]).message).toContain('0xFF at offset 9');
  });
});

describe('readCapped', () => {
  const streamed = (...pieces: string[]) =>
    new Response(
      new ReadableStream({
        start(controller) {
          for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece));
          controller.close();
        },
      }),
    );

  it('joins a body read in pieces, up to the cap', async () => {
    const bytes = await readCapped(streamed('ab', 'cd', 'é'), 6);
    expect(new TextDecoder().decode(bytes)).toBe('abcdé');
  });

  it('says a body over the cap is too large, and reads no further', async () => {
    let pulled = 0;
    const endless = new Response(
      new ReadableStream({
        pull(controller) {
          pulled++;
          controller.enqueue(new Uint8Array(1024));
        },
      }),
    );
    expect(await readCapped(endless, 4096)).toBeUndefined();
    expect(pulled).toBeLessThan(10);
  });

  it('reads an empty body as no bytes', async () => {
    expect(await readCapped(new Response(null), 10)).toEqual(new Uint8Array(0));
  });
});
