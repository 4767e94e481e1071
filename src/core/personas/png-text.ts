import type { Result } from '#core/result.ts';

/**
 * Reads and writes the text chunks of a PNG file, byte for byte everywhere else: character
 * cards travel as PNG images whose `chara` and `ccv3` text chunks hold the card. Pure and
 * synchronous (no DOM, no Node APIs), so it runs in the worker and in Node alike.
 *
 * The layout follows the PNG specification (W3C, 3rd edition): an 8-byte signature, then chunks
 * of length (4 bytes, big-endian), type (4 ASCII letters), data, and a CRC-32 of type and data;
 * IHDR comes first and IEND last.
 */

/** The eight bytes every PNG file starts with. */
export const PNG_SIGNATURE: Uint8Array = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** The largest PNG read or rewritten: a card's portrait fits, a photo dump does not. */
export const MAX_PNG_BYTES = 8 * 2 ** 20;

/**
 * A text chunk found in a PNG. Compressed text (zTXt, or iTXt with its compression flag set)
 * is listed without its text: inflating it would need the asynchronous DecompressionStream,
 * and card writers store their payload uncompressed as the card specifications require.
 */
export type PngTextChunk =
  | { kind: 'text'; chunkType: 'tEXt' | 'iTXt'; keyword: string; text: string }
  | { kind: 'compressed'; chunkType: 'zTXt' | 'iTXt'; keyword: string };

/** A text chunk to write: a keyword (1–79 Latin-1 characters) and Latin-1 text. */
export type PngTextEntry = { keyword: string; text: string };

/** Where a chunk lies in the file; `end` is just past its CRC. */
type ChunkSpan = { type: string; start: number; dataStart: number; dataEnd: number; end: number };

/** The largest chunk length the PNG specification allows (2^31 - 1). */
const MAX_CHUNK_LENGTH = 0x7fffffff;
/** Length, type and CRC around each chunk's data. */
const CHUNK_OVERHEAD = 12;
const TEXT_CHUNK_TYPES = new Set(['tEXt', 'iTXt', 'zTXt']);

/** Whether the bytes start with the PNG signature (says nothing about the rest of the file). */
export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= PNG_SIGNATURE.length && PNG_SIGNATURE.every((byte, index) => bytes[index] === byte);
}

/**
 * Lists the text chunks of a PNG in file order, after checking the signature, the order of
 * IHDR and IEND, and every chunk's length and CRC-32, so a damaged or truncated download is
 * refused with the place it breaks rather than read half-way.
 */
export function readPngText(bytes: Uint8Array, options: { maxBytes?: number } = {}): Result<PngTextChunk[]> {
  const chunks = readChunkSpans(bytes, options.maxBytes ?? MAX_PNG_BYTES);
  if (!chunks.ok) return chunks;
  const texts: PngTextChunk[] = [];
  for (const [index, chunk] of chunks.value.entries()) {
    if (!TEXT_CHUNK_TYPES.has(chunk.type)) continue;
    const text = decodeTextChunk(chunk.type, bytes.subarray(chunk.dataStart, chunk.dataEnd));
    if (!text.ok) return problem(`chunk ${index + 1} (${chunk.type}) ${text.error}`);
    texts.push(text.value);
  }
  return { ok: true, value: texts };
}

/**
 * Returns a copy of a PNG in which the given tEXt chunks replace every text chunk (tEXt, iTXt
 * or zTXt) with the same keywords, inserted in the given order just before IEND. All other
 * chunks are kept byte for byte, in their order; anything after IEND is dropped.
 *
 * A bad keyword or text is a programming error and throws; a damaged PNG is the input's fault
 * and comes back as problems.
 */
export function writePngText(
  bytes: Uint8Array,
  entries: readonly PngTextEntry[],
  options: { maxBytes?: number } = {},
): Result<Uint8Array> {
  const encoded = entries.map((entry) => encodeChunk('tEXt', textChunkData(entry)));
  const chunks = readChunkSpans(bytes, options.maxBytes ?? MAX_PNG_BYTES);
  if (!chunks.ok) return chunks;
  const replaced = new Set(entries.map((entry) => entry.keyword));
  const kept = chunks.value.filter(
    (chunk) => !(TEXT_CHUNK_TYPES.has(chunk.type) && replaced.has(keywordOf(bytes, chunk))),
  );
  const parts: Uint8Array[] = [PNG_SIGNATURE];
  for (const chunk of kept) {
    if (chunk.type === 'IEND') parts.push(...encoded);
    parts.push(bytes.subarray(chunk.start, chunk.end));
  }
  return { ok: true, value: concatenate(parts) };
}

/**
 * A small valid PNG (64×64, RGB) of one colour derived from the seed: the portrait of a card
 * exported without an image. It stores its pixels in uncompressed deflate blocks, so it is
 * built synchronously and the same seed always gives the same bytes.
 */
export function placeholderPng(seed: string): Uint8Array {
  const size = 64;
  const [red, green, blue] = colourOf(seed);
  const rowBytes = 1 + size * 3;
  const pixels = new Uint8Array(rowBytes * size);
  for (let row = 0; row < size; row++) {
    // Each row starts with its filter type, 0 (none).
    for (let column = 0; column < size; column++) pixels.set([red, green, blue], row * rowBytes + 1 + column * 3);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per sample, truecolour, deflate, adaptive filtering, no interlace
  return concatenate([
    PNG_SIGNATURE,
    encodeChunk('IHDR', header),
    encodeChunk('IDAT', zlibStored(pixels)),
    encodeChunk('IEND', new Uint8Array(0)),
  ]);
}

/** The CRC-32 (ISO 3309, as PNG uses it) of some bytes; exported so fixtures can build chunks by hand. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, byte) => {
  let value = byte;
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

/** Finds every chunk up to IEND, checking the structure as it goes. */
function readChunkSpans(bytes: Uint8Array, maxBytes: number): Result<ChunkSpan[]> {
  if (bytes.length > maxBytes) return problem(`the PNG is larger than ${formatSize(maxBytes)}, the most Anima reads`);
  if (!isPng(bytes)) return problem('not a PNG file: it does not start with the PNG signature');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: ChunkSpan[] = [];
  let offset = PNG_SIGNATURE.length;
  while (chunks.at(-1)?.type !== 'IEND') {
    const number = chunks.length + 1;
    if (offset === bytes.length)
      return problem(`the PNG is truncated: it ends after chunk ${chunks.length} without an IEND chunk`);
    if (offset + 8 > bytes.length) return problem(`the PNG is truncated in chunk ${number}`);
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.subarray(offset + 4, offset + 8));
    if (!/^[A-Za-z]{4}$/.test(type)) return problem(`chunk ${number} has an invalid type: the file is damaged`);
    if (length > MAX_CHUNK_LENGTH)
      return problem(`chunk ${number} (${type}) has an invalid length: the file is damaged`);
    const dataStart = offset + 8;
    const dataEnd = dataStart + length;
    if (dataEnd + 4 > bytes.length) return problem(`the PNG is truncated in chunk ${number} (${type})`);
    if (crc32(bytes.subarray(offset + 4, dataEnd)) !== view.getUint32(dataEnd))
      return problem(`chunk ${number} (${type}) has a bad checksum: the file is damaged`);
    if (number === 1 && type !== 'IHDR')
      return problem(`the PNG starts with a ${type} chunk, not IHDR: the file is damaged`);
    chunks.push({ type, start: offset, dataStart, dataEnd, end: dataEnd + 4 });
    offset = dataEnd + 4;
  }
  return { ok: true, value: chunks };
}

/** Splits a text chunk's data into keyword and text; the error says what is wrong with it. */
function decodeTextChunk(type: string, data: Uint8Array): Result<PngTextChunk, string> {
  const separator = data.indexOf(0);
  if (separator < 1 || separator > 79)
    return { ok: false, error: 'has no keyword of 1 to 79 characters ended by a zero byte' };
  const keyword = latin1(data.subarray(0, separator));
  if (type === 'tEXt')
    return {
      ok: true,
      value: { kind: 'text', chunkType: 'tEXt', keyword, text: latin1(data.subarray(separator + 1)) },
    };
  if (type === 'zTXt') return { ok: true, value: { kind: 'compressed', chunkType: 'zTXt', keyword } };
  // iTXt: keyword, 0, compression flag, compression method, language tag, 0, translated keyword, 0, text (UTF-8).
  const isCompressed = data[separator + 1] === 1;
  const languageEnd = data.indexOf(0, separator + 3);
  const translatedEnd = languageEnd < 0 ? -1 : data.indexOf(0, languageEnd + 1);
  if (translatedEnd < 0)
    return { ok: false, error: 'is cut short: an iTXt chunk needs its flags, language tag and translated keyword' };
  if (isCompressed) return { ok: true, value: { kind: 'compressed', chunkType: 'iTXt', keyword } };
  return {
    ok: true,
    value: {
      kind: 'text',
      chunkType: 'iTXt',
      keyword,
      text: new TextDecoder().decode(data.subarray(translatedEnd + 1)),
    },
  };
}

/** The keyword of a text chunk (the bytes before its first zero byte). */
function keywordOf(bytes: Uint8Array, chunk: ChunkSpan): string {
  const data = bytes.subarray(chunk.dataStart, chunk.dataEnd);
  const separator = data.indexOf(0);
  return latin1(separator < 0 ? data : data.subarray(0, separator));
}

/** The data of a tEXt chunk, after checking the PNG specification's rules for keyword and text. */
function textChunkData({ keyword, text }: PngTextEntry): Uint8Array {
  const isPrintableLatin1 = /^[\x20-\x7e\xa1-\xff]{1,79}$/.test(keyword);
  const hasStraySpaces = keyword.startsWith(' ') || keyword.endsWith(' ') || keyword.includes('  ');
  if (!isPrintableLatin1 || hasStraySpaces) {
    throw new RangeError(
      `"${keyword}" is not a PNG keyword: it needs 1 to 79 printable Latin-1 characters, without leading, trailing or consecutive spaces`,
    );
  }
  // eslint-disable-next-line no-control-regex -- a zero byte is what this looks for
  if (/[^\x01-\xff]/.test(text))
    throw new RangeError(
      `the text for "${keyword}" is not Latin-1 without zero bytes, as a tEXt chunk requires (encode it first, e.g. as base64)`,
    );
  return Uint8Array.from(`${keyword}\0${text}`, (character) => character.charCodeAt(0));
}

/** A whole chunk: length, type, data and the CRC-32 of type and data. */
function encodeChunk(type: string, data: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(CHUNK_OVERHEAD + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(
    Uint8Array.from(type, (character) => character.charCodeAt(0)),
    4,
  );
  chunk.set(data, 8);
  view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
  return chunk;
}

/** A zlib stream (RFC 1950) of uncompressed deflate blocks (RFC 1951, BTYPE 00) and its Adler-32. */
function zlibStored(data: Uint8Array): Uint8Array {
  const maxBlock = 0xffff;
  const blockCount = Math.max(1, Math.ceil(data.length / maxBlock));
  const stream = new Uint8Array(2 + blockCount * 5 + data.length + 4);
  const view = new DataView(stream.buffer);
  stream.set([0x78, 0x01]); // deflate, 32 KiB window, no dictionary, header check bits
  let offset = 2;
  for (let block = 0; block < blockCount; block++) {
    const content = data.subarray(block * maxBlock, (block + 1) * maxBlock);
    stream[offset] = block === blockCount - 1 ? 1 : 0; // BFINAL on the last block
    view.setUint16(offset + 1, content.length, true);
    view.setUint16(offset + 3, ~content.length & 0xffff, true);
    stream.set(content, offset + 5);
    offset += 5 + content.length;
  }
  view.setUint32(offset, adler32(data));
  return stream;
}

function adler32(data: Uint8Array): number {
  let low = 1;
  let high = 0;
  for (const byte of data) {
    low = (low + byte) % 65521;
    high = (high + low) % 65521;
  }
  return ((high << 16) | low) >>> 0;
}

/** A soft colour (hue from an FNV-1a hash of the seed, fixed saturation and lightness). */
function colourOf(seed: string): [number, number, number] {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(seed)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  const hue = hash % 360;
  const saturation = 0.45;
  const lightness = 0.6;
  // HSL to RGB as CSS Color 4 defines it.
  const amplitude = saturation * Math.min(lightness, 1 - lightness);
  const channel = (shift: number) => {
    const position = (shift + hue / 30) % 12;
    return Math.round(255 * (lightness - amplitude * Math.max(-1, Math.min(position - 3, 9 - position, 1))));
  };
  return [channel(0), channel(8), channel(4)];
}

function latin1(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

function concatenate(parts: readonly Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

function formatSize(bytes: number): string {
  return bytes % 2 ** 20 === 0 ? `${bytes / 2 ** 20} MiB` : `${bytes} bytes`;
}

function problem<T>(message: string): Result<T> {
  return { ok: false, error: [{ message }] };
}
