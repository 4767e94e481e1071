import type { Problem, Result } from '#core/result.ts';
import { depthProblem, readJson, sizeText, sortedKeys } from '#core/safe-json.ts';
import { type Secret, worthRedacting } from '#core/secrets.ts';
import { utf8Length } from '#core/text-bytes.ts';
import { parseSnapshot } from './snapshot-check.ts';
import {
  DEFAULT_SNAPSHOT_LIMITS,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type Snapshot,
  type SnapshotLimits,
} from './snapshot-format.ts';

/**
 * A snapshot file: the snapshot's JSON with `sha256` (of the rest of the document) after its
 * version, optionally gzipped. This module writes and reads the file; snapshot-format.ts holds what is in it.
 */

/** What the reader says of a snapshot over the limit, and the writer of one it will not write. */
export function snapshotTooLarge(
  size: number | 'larger unzipped',
  limits: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS,
): string {
  return `the snapshot is ${size === 'larger unzipped' ? size : sizeText(size, 'up')}, more than the ${sizeText(limits.maxBytes, 'down')} Anima reads`;
}

/** The first version whose files carry a SHA-256 (older ones are read without one, and migrated). */
const FIRST_HASHED_VERSION = 9;

const hex = (bytes: ArrayBuffer) =>
  [...new Uint8Array(bytes)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

/** About how many characters a piece of a file's text holds. */
const PIECE_CHARS = 2 ** 20;

/**
 * A document's JSON exactly as JSON.stringify writes it, in pieces of about a megabyte: its
 * arrays are written row by row, so a large snapshot is never held as one string. `sorted` sorts
 * every object's keys, as the hash covers the document, so spacing or key order a tool gives the
 * file do not matter.
 */
function* jsonPieces(document: Record<string, unknown>, options: { sorted: boolean }): Generator<string> {
  const json = (value: unknown): string | undefined => JSON.stringify(options.sorted ? sortedKeys(value) : value);
  let piece = '{';
  let isFirst = true;
  for (const key of options.sorted ? Object.keys(document).sort() : Object.keys(document)) {
    const value = document[key];
    if (!Array.isArray(value)) {
      const text = json(value);
      if (text === undefined) continue;
      piece += `${isFirst ? '' : ','}${JSON.stringify(key)}:${text}`;
    } else {
      piece += `${isFirst ? '' : ','}${JSON.stringify(key)}:[`;
      for (const [index, row] of value.entries()) {
        piece += `${index === 0 ? '' : ','}${json(row) ?? 'null'}`;
        if (piece.length >= PIECE_CHARS) {
          yield piece;
          piece = '';
        }
      }
      piece += ']';
    }
    isFirst = false;
  }
  yield `${piece}}`;
}

/** Pieces of text as UTF-8, in one buffer of their size (no string of the whole). */
function encodePieces(pieces: Iterable<string>, size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  const encoder = new TextEncoder();
  let offset = 0;
  for (const piece of pieces) offset += encoder.encodeInto(piece, bytes.subarray(offset)).written;
  return bytes;
}

/** The SHA-256 (hex) of a snapshot document's content: everything but its `sha256` field, with every object's keys sorted; `size` in bytes when known. */
async function contentSha256(document: object, size?: number): Promise<string> {
  const { sha256: _sha256, ...content } = document as Record<string, unknown>;
  // WebCrypto digests one buffer: the sorted JSON (as long as the unsorted) is written into it piece by piece.
  return hex(
    await crypto.subtle.digest(
      'SHA-256',
      encodePieces(
        jsonPieces(content, { sorted: true }),
        size ?? measurePieces(jsonPieces(content, { sorted: false })).size,
      ),
    ),
  );
}

/** At most this many places are named when a snapshot holds a secret. */
const MAX_SECRET_PLACES = 20;

/** Where a snapshot holds one of the device's secrets: each place by part, row and field, with which secret it is, never its value. */
function secretPlaces(snapshot: Snapshot, secrets: readonly Secret[]): Problem[] {
  const found = (text: string) => secrets.find((secret) => text.includes(secret.value));
  const problems: Problem[] = [];
  const note = (path: string, secret: Secret) =>
    problems.push({
      path,
      message: `holds a secret of this device (${secret.what}); a snapshot never carries one, so nothing was written`,
    });
  // Without recursion: a row's strings first, in order, then what nests in it.
  const pending: { value: object; path: string }[] = [{ value: snapshot, path: '' }];
  for (let next = pending.pop(); next && problems.length < MAX_SECRET_PLACES; next = pending.pop()) {
    const nested: { value: object; path: string }[] = [];
    for (const [key, child] of Object.entries(next.value)) {
      // A key that holds the secret is named by its parent: its own name would show it.
      const inKey = Array.isArray(next.value) ? undefined : found(key);
      if (inKey) note(next.path, inKey);
      const path = () => (next.path === '' ? key : `${next.path}.${inKey ? '(a key)' : key}`);
      if (typeof child === 'string') {
        const secret = found(child);
        if (secret) note(path(), secret);
      } else if (typeof child === 'object' && child !== null && !ArrayBuffer.isView(child))
        nested.push({ value: child, path: path() });
    }
    // Pushed last first, so they are taken in order (one at a time: a part may have millions of rows).
    for (let index = nested.length - 1; index >= 0; index--) pending.push(nested[index]!);
  }
  return problems.slice(0, MAX_SECRET_PLACES);
}

/**
 * One pass over a text in pieces: its size in bytes, and which of the secrets it holds, as written
 * or escaped in JSON (a secret across two pieces is found too).
 */
function measurePieces(pieces: Iterable<string>, secrets: readonly Secret[] = []): { size: number; held: Secret[] } {
  const sought = secrets.map((secret) => ({
    secret,
    forms: [secret.value, JSON.stringify(secret.value).slice(1, -1)],
  }));
  // The end of a piece kept for the next: long enough to hold all but one character of any form.
  const overlap = Math.max(0, ...sought.flatMap(({ forms }) => forms.map((form) => form.length - 1)));
  const held = new Set<Secret>();
  let size = 0;
  let tail = '';
  for (const piece of pieces) {
    size += utf8Length(piece);
    if (held.size === sought.length) continue;
    const text = tail + piece;
    for (const { secret, forms } of sought)
      if (!held.has(secret) && forms.some((form) => text.includes(form))) held.add(secret);
    tail = overlap > 0 ? text.slice(-overlap) : '';
  }
  return { size, held: [...held] };
}

/** `"sha256":"<64 hex digits>",` and the final newline: what the file holds beyond its content. */
const HASH_FIELD_BYTES = `"sha256":"${'0'.repeat(64)}",`.length + 1;

/** What a snapshot file is written under: the secrets it must not carry, and the reader's limits (tests pass smaller ones). */
export type SnapshotWriteOptions = { secrets: readonly Secret[]; limits?: SnapshotLimits };

/** A snapshot file ready to be written: its size in bytes, and its text in pieces (never one string). */
export type SnapshotFile = { size: number; pieces: () => Generator<string> };

/**
 * A snapshot's file: one line of JSON with its hash, and a final newline; the same snapshot always
 * gives the same text. Checked before anything is written or hashed: against what the reader
 * refuses (nesting deeper than it reads, more bytes than it reads), with the reader's words, so
 * Anima never writes a file it would not read back; and against the device's secrets (an API key,
 * credentials of an address), with the places named: the one check every export passes, in the
 * app and in the CLI.
 */
export async function snapshotFile(snapshot: Snapshot, options: SnapshotWriteOptions): Promise<Result<SnapshotFile>> {
  const { secrets, limits = DEFAULT_SNAPSHOT_LIMITS } = options;
  const tooDeep = depthProblem(snapshot);
  if (tooDeep) return { ok: false, error: [tooDeep] };
  // The text first (one search per secret); the rows only to say where.
  const { size: contentSize, held } = measurePieces(jsonPieces(snapshot, { sorted: false }), worthRedacting(secrets));
  const size = contentSize + HASH_FIELD_BYTES;
  const problems: Problem[] = [];
  if (held.length > 0) {
    const places = secretPlaces(snapshot, held);
    problems.push(
      ...(places.length > 0
        ? places
        : [
            {
              message: `the snapshot holds a secret of this device (${held[0]!.what}); a snapshot never carries one, so nothing was written`,
            },
          ]),
    );
  }
  if (size > limits.maxBytes) problems.push({ message: snapshotTooLarge(size, limits) });
  if (problems.length > 0) return { ok: false, error: problems };
  const sha256 = await contentSha256(snapshot, contentSize);
  const { format, version, ...rest } = snapshot;
  return {
    ok: true,
    value: {
      size,
      *pieces() {
        yield* jsonPieces({ format, version, sha256, ...rest }, { sorted: false });
        yield '\n';
      },
    },
  };
}

/** The file's bytes, gzipped when asked (`.anima.json.gz`); refused as {@link snapshotFile} refuses. */
export async function snapshotFileBytes(
  snapshot: Snapshot,
  options: SnapshotWriteOptions & { gzip: boolean },
): Promise<Result<Uint8Array>> {
  const file = await snapshotFile(snapshot, options);
  if (!file.ok) return file;
  const bytes = encodePieces(file.value.pieces(), file.value.size);
  return {
    ok: true,
    value: options.gzip
      ? (await streamBytes(new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'))))!
      : bytes,
  };
}

/** The file name a session's snapshot is saved under. */
export function snapshotFileName(sessionName: string, options: { gzip: boolean }): string {
  const slug =
    sessionName
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '') || 'session';
  return `${slug}.anima.json${options.gzip ? '.gz' : ''}`;
}

/** A read snapshot and the format version its file was written in (older versions are migrated). */
export type ReadSnapshot = { snapshot: Snapshot; fileVersion: number };

const refuse = (message: string, path?: string): Result<never> => ({
  ok: false,
  error: [{ ...(path !== undefined ? { path } : {}), message }],
});

/**
 * Reads a snapshot file (plain or gzipped) completely before anything is written: its size, its
 * JSON, its format and version, its hash, then every part and reference (parseSnapshot). Problems
 * say what is wrong and where; a file from a newer Anima is refused, an older one migrated.
 */
export async function readSnapshotFile(
  bytes: Uint8Array,
  limits: SnapshotLimits = DEFAULT_SNAPSHOT_LIMITS,
): Promise<Result<ReadSnapshot>> {
  const json = await documentOf(bytes, limits);
  if (!json.ok) return json;
  const document = json.value;
  if (
    typeof document !== 'object' ||
    document === null ||
    Array.isArray(document) ||
    (document as { format?: unknown }).format !== SNAPSHOT_FORMAT
  )
    return refuse(`this is not an Anima session snapshot (its "format" is not "${SNAPSHOT_FORMAT}")`, 'format');
  const { version, sha256 } = document as { version?: unknown; sha256?: unknown };
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    return refuse('the format version is missing or not a whole number', 'version');
  if (version > SNAPSHOT_VERSION)
    return refuse(
      `this snapshot is format version ${version}, written by a newer Anima; this one reads versions 1 to ${SNAPSHOT_VERSION}: update Anima (reload it online) to import it`,
      'version',
    );
  if (version >= FIRST_HASHED_VERSION) {
    if (typeof sha256 !== 'string') return refuse('the SHA-256 of the content is missing', 'sha256');
    if (sha256 !== (await contentSha256(document)))
      return refuse(
        'the content does not match its SHA-256: the file was changed or damaged after it was exported',
        'sha256',
      );
  }
  const { sha256: _sha256, ...content } = document as Record<string, unknown>;
  const parsed = parseSnapshot(content);
  return parsed.ok ? { ok: true, value: { snapshot: parsed.value, fileVersion: version } } : parsed;
}

/** The file's JSON value; its bytes (as large as the file, unzipped) are let go once parsed. */
async function documentOf(bytes: Uint8Array, limits: SnapshotLimits): Promise<Result<unknown>> {
  const plain = await unzipped(bytes, limits);
  // Said where the JSON breaks: a file cut short (an interrupted download) reads as text that ends too soon.
  return plain.ok ? readJson(plain.value, { maxBytes: limits.maxBytes }) : plain;
}

/** The file's bytes, unzipped when they are gzip (by their magic number), refusing more than the limit. */
async function unzipped(bytes: Uint8Array, limits: SnapshotLimits): Promise<Result<Uint8Array>> {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    return bytes.byteLength > limits.maxBytes
      ? refuse(snapshotTooLarge(bytes.byteLength, limits))
      : { ok: true, value: bytes };
  try {
    const unzippedBytes = await streamBytes(
      new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip')),
      limits.maxBytes,
    );
    return unzippedBytes === undefined
      ? refuse(snapshotTooLarge('larger unzipped', limits))
      : { ok: true, value: unzippedBytes };
  } catch (error) {
    return refuse(`the gzip data is damaged or cut short (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Reads a byte stream whole; undefined (and the stream cancelled) when it passes `limit`. */
async function streamBytes(
  stream: ReadableStream<Uint8Array>,
  limit = Number.POSITIVE_INFINITY,
): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(read.value);
  }
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}
