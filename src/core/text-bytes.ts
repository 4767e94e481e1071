import type { Problem, Result } from './result.ts';

/**
 * Text files (psyche.toml, N-Triples, Turtle, CSV, JSON) are UTF-8. A lenient decoder turns bytes
 * that are not into U+FFFD, which then travels into names and labels unseen; these helpers refuse
 * them instead, saying at which byte (counted from 0) and on which line the first bad one is.
 */

/** The UTF-8 length of a text, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // Two bytes more from U+0800 on, one more from U+0080; a surrogate pair is four bytes in all.
    if (code >= 0x80) bytes += code >= 0x800 && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

/**
 * The offset of the first byte of the first sequence that is not well-formed UTF-8 (Unicode table
 * 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), or undefined when all of it is.
 * A sequence cut short by the end of the bytes counts as bad, at its first byte.
 */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number | undefined {
  let position = 0;
  while (position < bytes.length) {
    const lead = bytes[position]!;
    if (lead < 0x80) {
      position++;
      continue;
    }
    const length = sequenceLength(lead);
    if (length === 0 || position + length > bytes.length) return position;
    const [low, high] = secondByteRange(lead);
    const second = bytes[position + 1]!;
    if (second < low || second > high) return position;
    for (let index = 2; index < length; index++) {
      if (!isContinuation(bytes[position + index]!)) return position;
    }
    position += length;
  }
  return undefined;
}

/** Bytes a sequence starting with `lead` takes, or 0 when `lead` cannot start one. */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** What may follow a lead byte: narrower after E0, ED, F0 and F4 (overlong forms, surrogates, beyond U+10FFFF). */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

function isContinuation(byte: number): boolean {
  return byte >= 0x80 && byte <= 0xbf;
}

/**
 * The one sentence for bytes that are not UTF-8: the first bad byte is `bytes[index]`, which is
 * `offset` bytes into the file (the same unless `bytes` is a piece of it).
 */
function notUtf8Message(bytes: Uint8Array, index: number, offset = index): string {
  const hex = `0x${(bytes[index] ?? 0).toString(16).toUpperCase().padStart(2, '0')}`;
  return isCutShort(bytes, index)
    ? `the file is not UTF-8 text: it ends in the middle of a character, at byte offset ${offset} (${hex}, counting from 0); was it cut short?`
    : `the file is not UTF-8 text: the byte ${hex} at offset ${offset} (counting from 0) does not start a UTF-8 character; save the file as UTF-8`;
}

/** Whether the bytes from `index` to the end are the beginning of a character the end cuts off. */
function isCutShort(bytes: Uint8Array, index: number): boolean {
  const lead = bytes[index]!;
  const rest = bytes.length - index;
  if (sequenceLength(lead) <= rest) return false;
  const [low, high] = secondByteRange(lead);
  if (rest > 1 && (bytes[index + 1]! < low || bytes[index + 1]! > high)) return false;
  return rest <= 2 || isContinuation(bytes[index + 2]!);
}

/** The line (from 1) that the byte at `offset` is on. */
function lineOfByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let index = bytes.indexOf(0x0a); index >= 0 && index < offset; index = bytes.indexOf(0x0a, index + 1)) line++;
  return line;
}

/** A whole text file's bytes as text, strictly: a leading byte order mark is dropped; bytes that are not UTF-8 are a problem with the line and byte offset. */
export function decodeUtf8Text(bytes: Uint8Array): Result<string> {
  try {
    // The native decoder is fast; the byte scan runs only to say where it failed.
    return { ok: true, value: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    const offset = firstInvalidUtf8Byte(bytes) ?? bytes.length;
    return { ok: false, error: [{ line: lineOfByte(bytes, offset), message: notUtf8Message(bytes, offset) }] };
  }
}

/**
 * Decodes a stream chunk by chunk, strictly, for files too large to hold whole. The first bad
 * byte ends it with the offset, and the text of the chunk before that byte (so a reader can
 * count its lines).
 */
export class StrictUtf8Stream {
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });
  /** Bytes before the current chunk. */
  #offset = 0;
  /** The last bytes pushed (at most 3): a character may have begun there. */
  #tail = new Uint8Array(0);

  /** The text of the next chunk; call with no bytes at the end to flush a character left open. */
  decode(bytes?: Uint8Array): { text: string } | { problem: Problem; textBefore: string } {
    try {
      const text = bytes ? this.#decoder.decode(bytes, { stream: true }) : this.#decoder.decode();
      if (bytes) this.#advance(bytes);
      return { text };
    } catch {
      // Everything before the tail decoded: start the scan at the character the tail left open, if any.
      const open = openCharacterLength(this.#tail);
      const scanned = concat(this.#tail.subarray(this.#tail.length - open), bytes ?? new Uint8Array(0));
      const index = firstInvalidUtf8Byte(scanned) ?? scanned.length;
      const textBefore = new TextDecoder('utf-8').decode(scanned.subarray(0, index));
      const offset = this.#offset - open + index;
      return { problem: { message: notUtf8Message(scanned, index, offset) }, textBefore };
    }
  }

  #advance(bytes: Uint8Array): void {
    this.#offset += bytes.length;
    this.#tail = concat(this.#tail, bytes.subarray(Math.max(0, bytes.length - 3))).slice(-3);
  }
}

/** How many of the last bytes form a character not yet complete (0 when the bytes end on a boundary). */
function openCharacterLength(tail: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, tail.length); back++) {
    const byte = tail[tail.length - back]!;
    if (isContinuation(byte)) continue;
    return sequenceLength(byte) > back ? back : 0;
  }
  return 0;
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return joined;
}

/** Reads a response body up to a cap (undefined when it is larger), cancelling the rest unread. */
export async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
