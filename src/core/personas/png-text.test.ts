import { readFileSync } from 'node:fs';
import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Result } from '#core/result.ts';
import {
  iTXt,
  pngOfChunks,
  pngWith,
  tEXt,
  withBadChecksum,
  zTXt,
  type RawChunk,
} from './__fixtures__/character-cards.ts';
import { crc32, isPng, MAX_PNG_BYTES, placeholderPng, readPngText, writePngText } from './png-text.ts';

/** The chunk types of a PNG in order, read with Node's Buffer as an independent check. */
function chunkTypes(png: Uint8Array): string[] {
  const buffer = Buffer.from(png);
  const types: string[] = [];
  for (let offset = 8; offset < buffer.length; offset += 12 + buffer.readUInt32BE(offset))
    types.push(buffer.toString('latin1', offset + 4, offset + 8));
  return types;
}

function chunkData(png: Uint8Array, type: string): Buffer {
  const buffer = Buffer.from(png);
  for (let offset = 8; offset < buffer.length; offset += 12 + buffer.readUInt32BE(offset)) {
    if (buffer.toString('latin1', offset + 4, offset + 8) === type)
      return buffer.subarray(offset + 8, offset + 8 + buffer.readUInt32BE(offset));
  }
  throw new Error(`no ${type} chunk`);
}

function problemsOf(result: Result<unknown>): string {
  return result.ok ? 'read fine' : result.error.map((problem) => problem.message).join('; ');
}

describe('the placeholder portrait', () => {
  it('is a 64×64 RGB PNG of one colour that zlib inflates, the same bytes for the same name', () => {
    const png = placeholderPng('Seraphina');
    expect(isPng(png)).toBe(true);
    expect(chunkTypes(png)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([...chunkData(png, 'IHDR')]).toEqual([0, 0, 0, 64, 0, 0, 0, 64, 8, 2, 0, 0, 0]);
    const pixels = inflateSync(chunkData(png, 'IDAT'));
    expect(pixels.length).toBe(64 * (1 + 64 * 3));
    const colour = [...pixels.subarray(1, 4)];
    for (let row = 0; row < 64; row++) {
      const line = pixels.subarray(row * 193, (row + 1) * 193);
      expect(line[0]).toBe(0);
      for (let column = 0; column < 64; column++)
        expect([...line.subarray(1 + column * 3, 4 + column * 3)]).toEqual(colour);
    }
    expect(Buffer.compare(png, placeholderPng('Seraphina'))).toBe(0);
    expect(readPngText(png)).toEqual({ ok: true, value: [] });
  });

  it('takes another colour for another name', () => {
    const colourOf = (seed: string) =>
      [...inflateSync(chunkData(placeholderPng(seed), 'IDAT')).subarray(1, 4)].join(',');
    const colours = new Set(['Ada', 'Bram', 'Cleo', 'Dora', 'Coding Sensei', ''].map(colourOf));
    expect(colours.size).toBe(6);
  });
});

describe('reading the text chunks of a PNG', () => {
  it('lists tEXt (Latin-1) and uncompressed iTXt (UTF-8) chunks in file order', () => {
    const png = pngWith([tEXt('Comment', 'caf\u00e9'), iTXt('Title', 'すべての仕様'), tEXt('chara', 'eyJhIjoxfQ==')]);
    expect(readPngText(png)).toEqual({
      ok: true,
      value: [
        { kind: 'text', chunkType: 'tEXt', keyword: 'Comment', text: 'café' },
        { kind: 'text', chunkType: 'iTXt', keyword: 'Title', text: 'すべての仕様' },
        { kind: 'text', chunkType: 'tEXt', keyword: 'chara', text: 'eyJhIjoxfQ==' },
      ],
    });
  });

  it('lists compressed text chunks by keyword without their text', () => {
    const compressedITXt: RawChunk = {
      type: 'iTXt',
      data: Buffer.concat([Buffer.from('ccv3\0\u0001\u0000\0\0', 'latin1'), deflateSync('eyJhIjoxfQ==')]),
    };
    const png = pngWith([zTXt('chara', deflateSync('eyJhIjoxfQ==')), compressedITXt]);
    expect(readPngText(png)).toEqual({
      ok: true,
      value: [
        { kind: 'compressed', chunkType: 'zTXt', keyword: 'chara' },
        { kind: 'compressed', chunkType: 'iTXt', keyword: 'ccv3' },
      ],
    });
  });

  it('refuses a file that is not a PNG', () => {
    expect(problemsOf(readPngText(new TextEncoder().encode('{"name": "Ada"}')))).toBe(
      'not a PNG file: it does not start with the PNG signature',
    );
    expect(problemsOf(readPngText(new Uint8Array(0)))).toContain('not a PNG file');
  });

  it('refuses a truncated download, naming the chunk where it ends', () => {
    const png = pngWith([tEXt('chara', 'x'.repeat(100))]);
    expect(problemsOf(readPngText(png.subarray(0, 50)))).toBe('the PNG is truncated in chunk 2 (IDAT)');
    expect(problemsOf(readPngText(png.subarray(0, png.length - 4)))).toBe('the PNG is truncated in chunk 4 (IEND)');
    expect(problemsOf(readPngText(png.subarray(0, png.length - 10)))).toBe('the PNG is truncated in chunk 4');
    expect(problemsOf(readPngText(png.subarray(0, png.length - 12)))).toBe(
      'the PNG is truncated: it ends after chunk 3 without an IEND chunk',
    );
  });

  it('refuses a damaged file whose chunk fails its CRC-32', () => {
    expect(problemsOf(readPngText(withBadChecksum(placeholderPng('Ada'))))).toBe(
      'chunk 1 (IHDR) has a bad checksum: the file is damaged',
    );
    const damagedText = pngWith([tEXt('chara', 'eyJhIjoxfQ==')]);
    damagedText[damagedText.length - 14] = 0x41; // a letter of the text, not its CRC
    expect(problemsOf(readPngText(damagedText))).toBe('chunk 3 (tEXt) has a bad checksum: the file is damaged');
  });

  it('refuses a file that does not start with IHDR, a malformed chunk type, or a text chunk without keyword', () => {
    expect(problemsOf(readPngText(pngOfChunks([tEXt('chara', 'x'), { type: 'IEND', data: new Uint8Array(0) }])))).toBe(
      'the PNG starts with a tEXt chunk, not IHDR: the file is damaged',
    );
    const badType = placeholderPng('Ada');
    badType[8 + 25 + 4] = 0x31; // IDAT's type becomes "1DAT"
    expect(problemsOf(readPngText(badType))).toBe('chunk 2 has an invalid type: the file is damaged');
    expect(problemsOf(readPngText(pngWith([{ type: 'tEXt', data: new TextEncoder().encode('no separator') }])))).toBe(
      'chunk 3 (tEXt) has no keyword of 1 to 79 characters ended by a zero byte',
    );
  });

  it('refuses a file over the size cap before reading it', () => {
    expect(MAX_PNG_BYTES).toBe(8 * 2 ** 20);
    const png = pngWith([tEXt('Comment', 'x'.repeat(2000))]);
    expect(problemsOf(readPngText(png, { maxBytes: 1024 * 1024 }))).toBe('read fine');
    expect(problemsOf(readPngText(png, { maxBytes: 1000 }))).toBe(
      'the PNG is larger than 1000 bytes, the most Anima reads',
    );
    const large = new Uint8Array(MAX_PNG_BYTES + 1);
    large.set(png);
    expect(problemsOf(readPngText(large))).toBe('the PNG is larger than 8 MiB, the most Anima reads');
  });

  it('computes the CRC-32 PNG uses', () => {
    expect(crc32(new TextEncoder().encode('IEND'))).toBe(0xae426082);
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
});

describe('writing text chunks into a PNG', () => {
  it('inserts the chunks before IEND and keeps every other chunk byte for byte', () => {
    const original = pngWith([
      tEXt('Comment', 'made by hand'),
      { type: 'tIME', data: Uint8Array.of(7, 232, 1, 2, 3, 4, 5) },
    ]);
    const written = writePngText(original, [
      { keyword: 'chara', text: 'AAAA' },
      { keyword: 'ccv3', text: 'BBBB' },
    ]);
    if (!written.ok) throw new Error(problemsOf(written));
    expect(chunkTypes(written.value)).toEqual(['IHDR', 'IDAT', 'tEXt', 'tIME', 'tEXt', 'tEXt', 'IEND']);
    expect(
      Buffer.compare(written.value.subarray(0, original.length - 12), original.subarray(0, original.length - 12)),
    ).toBe(0);
    expect(readPngText(written.value)).toMatchObject({
      ok: true,
      value: [{ keyword: 'Comment' }, { keyword: 'chara', text: 'AAAA' }, { keyword: 'ccv3', text: 'BBBB' }],
    });
  });

  it('replaces every text chunk with the same keyword, compressed or not, and gives the same bytes when run again', () => {
    const original = pngWith([
      tEXt('chara', 'old'),
      zTXt('chara', deflateSync('older')),
      iTXt('ccv3', 'old'),
      tEXt('Comment', 'kept'),
    ]);
    const entries = [
      { keyword: 'chara', text: 'new' },
      { keyword: 'ccv3', text: 'newer' },
    ];
    const once = writePngText(original, entries);
    if (!once.ok) throw new Error(problemsOf(once));
    expect(readPngText(once.value)).toMatchObject({
      ok: true,
      value: [
        { keyword: 'Comment', text: 'kept' },
        { keyword: 'chara', text: 'new' },
        { keyword: 'ccv3', text: 'newer' },
      ],
    });
    const twice = writePngText(once.value, entries);
    expect(twice.ok && Buffer.compare(twice.value, once.value)).toBe(0);
  });

  it('drops bytes after IEND and refuses a damaged image', () => {
    const original = placeholderPng('Ada');
    const trailing = Buffer.concat([original, Buffer.from('trailing garbage')]);
    expect(readPngText(trailing).ok).toBe(true);
    const written = writePngText(trailing, []);
    expect(written.ok && Buffer.compare(written.value, original)).toBe(0);
    expect(problemsOf(writePngText(withBadChecksum(original), [{ keyword: 'chara', text: 'x' }]))).toBe(
      'chunk 1 (IHDR) has a bad checksum: the file is damaged',
    );
  });

  it('throws on a keyword or text the PNG specification forbids, since the caller chose them', () => {
    const png = placeholderPng('Ada');
    for (const keyword of ['', 'k'.repeat(80), ' chara', 'chara ', 'two  spaces', 'ключ', 'tab\tkey']) {
      expect(() => writePngText(png, [{ keyword, text: 'x' }]), keyword).toThrow(RangeError);
    }
    expect(writePngText(png, [{ keyword: 'k'.repeat(79), text: '' }]).ok).toBe(true);
    expect(writePngText(png, [{ keyword: 'Caf\u00e9 key', text: '\u00ff' }]).ok).toBe(true);
    expect(() => writePngText(png, [{ keyword: 'chara', text: 'é\u0100' }])).toThrow(
      'is not Latin-1 without zero bytes',
    );
    expect(() => writePngText(png, [{ keyword: 'chara', text: 'a\0b' }])).toThrow(RangeError);
  });
});

/** libpng's own test image, as libpng-dev ships it (tests/fixtures/public/README.md). */
const PNGTEST = new Uint8Array(
  readFileSync(new URL('../../../tests/fixtures/public/libpng-pngtest.png', import.meta.url)),
);

describe("libpng's test image: a real PNG with uncompressed and compressed text and many other chunks", () => {
  it('lists its tEXt Title and its zTXt Description, rewrites it unchanged, and adds a chunk keeping every other', () => {
    const read = readPngText(PNGTEST);
    expect(read).toEqual({
      ok: true,
      value: [
        { kind: 'text', chunkType: 'tEXt', keyword: 'Title', text: 'PNG' },
        { kind: 'compressed', chunkType: 'zTXt', keyword: 'Description' },
      ],
    });
    const untouched = writePngText(PNGTEST, []);
    expect(untouched.ok && Buffer.compare(untouched.value, PNGTEST)).toBe(0);
    const written = writePngText(PNGTEST, [{ keyword: 'chara', text: 'e30=' }]);
    if (!written.ok) throw new Error(problemsOf(written));
    const types = chunkTypes(PNGTEST);
    expect(types).toEqual([
      'IHDR',
      'gAMA',
      'sRGB',
      'sBIT',
      'cHRM',
      'sTER',
      'vpAg',
      'bKGD',
      'oFFs',
      'pCAL',
      'sCAL',
      'pHYs',
      'tIME',
      'tEXt',
      'IDAT',
      'zTXt',
      'eXIf',
      'IEND',
    ]);
    expect(chunkTypes(written.value)).toEqual([...types.slice(0, -1), 'tEXt', 'IEND']);
    expect(
      Buffer.compare(written.value.subarray(0, PNGTEST.length - 12), PNGTEST.subarray(0, PNGTEST.length - 12)),
    ).toBe(0);
    expect(readPngText(written.value)).toMatchObject({
      ok: true,
      value: [{ keyword: 'Title' }, { keyword: 'Description' }, { keyword: 'chara', text: 'e30=' }],
    });
  });
});
