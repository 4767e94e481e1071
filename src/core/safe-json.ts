import { quoteInput } from './quote-input.ts';
import type { Problem, Result } from './result.ts';
import { decodeUtf8Text } from './text-bytes.ts';

/**
 * The one reader of JSON from users' files (snapshots, persona catalogs, bundles, character
 * cards): it never throws and never overflows the stack, and every refusal is a sentence that
 * names the place (line and column, or a path like `$.triples`), echoing at most 200 characters.
 *
 * Before `JSON.parse` builds the value, an iterative pass checks what it does not: the nesting
 * depth, a key given twice in an object (`JSON.parse` silently keeps the last: a snapshot whose
 * second `"triples"` is empty read as a session without facts), numbers too large for a double
 * (they would become Infinity) and lone surrogates (they are not text, and do not survive
 * UTF-8). When anything is wrong, a strict pass over every character finds the first problem
 * and says it; `JSON.parse`'s own messages, which quote the input, never reach a user.
 *
 * Speed (CPU time, Node 20, this project's 2-core machine): 35 MB of snapshot-like rows of
 * numbers, JSON.parse 141 ms, readJson 378 ms; 157 MB of text-heavy rows, 435 ms and 829 ms.
 */

/** Deeper nesting than any real file has; it would overflow the stack of JSON.stringify, structured clone or a schema. */
export const MAX_JSON_DEPTH = 64;

export type JsonReadOptions = {
  /** The most UTF-8 bytes read; larger input is refused before it is looked at. */
  maxBytes: number;
  /** The deepest nesting of arrays and objects (MAX_JSON_DEPTH unless given). */
  maxDepth?: number;
};

/**
 * Reads JSON from a file's bytes (strictly UTF-8, a byte order mark skipped) or from text; a
 * refusal says what is wrong and where, and nothing of the input is used.
 */
export function readJson(input: string | Uint8Array, options: JsonReadOptions): Result<unknown> {
  let text: string;
  if (typeof input === 'string') {
    // Each UTF-16 unit is at most three UTF-8 bytes: only long text needs encoding to be measured.
    if (input.length > options.maxBytes / 3) {
      const isLong = input.length > options.maxBytes;
      const size = isLong ? input.length : new TextEncoder().encode(input).byteLength;
      if (size > options.maxBytes) return tooLarge(size, options.maxBytes, isLong);
    }
    text = input;
  } else {
    if (input.byteLength > options.maxBytes) return tooLarge(input.byteLength, options.maxBytes, false);
    const decoded = decodeUtf8Text(input);
    if (!decoded.ok) return decoded;
    text = decoded.value;
  }
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  // The quick pass leaves what JSON.parse checks anyway (characters inside strings) to it; any doubt, and the strict pass finds the first problem.
  const isWellFormed = (text as { isWellFormed?: () => boolean }).isWellFormed?.() ?? false;
  if (isWellFormed && checkJson(text, start, maxDepth, true) === undefined) {
    try {
      return { ok: true, value: JSON.parse(start === 0 ? text : text.slice(start)) };
    } catch {
      // Said by the strict pass below.
    }
  }
  // Unreachable without a problem when both passes are right; said in words all the same.
  return refuse(
    checkJson(text, start, maxDepth, false) ?? {
      message: 'the JSON could not be read (its text passed every check, but the engine refused it)',
    },
  );
}

/**
 * How deeply arrays and objects nest in a value (a scalar: 0), counted without recursion; it
 * stops counting past `stopAfter`. For JSON kept inside another file, which nests it deeper.
 */
export function nestingDepth(value: unknown, stopAfter = MAX_JSON_DEPTH): number {
  let deepest = 0;
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    const depth = next.depth + 1;
    deepest = Math.max(deepest, depth);
    if (depth > stopAfter) break;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth });
  }
  return deepest;
}

/**
 * What the reader says of a value nested deeper than `maxDepth`, without a place: a writer asks
 * it too, so it never writes what would be refused.
 */
export function depthProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): Problem | undefined {
  return nestingDepth(value, maxDepth) > maxDepth ? { message: tooDeep(maxDepth) } : undefined;
}

const tooDeep = (maxDepth: number) => `the JSON nests deeper than ${maxDepth} levels, more than any file Anima writes`;

/**
 * A size in words: bytes, KB or MB (of 1,024), to one decimal. A limit is rounded down and what
 * passes it up, so the two never read the same; otherwise to the nearest.
 */
export function sizeText(bytes: number, rounding: 'nearest' | 'up' | 'down' = 'nearest'): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const [amount, unit] = bytes < 2 ** 20 ? [bytes / 1024, 'KB'] : [bytes / 2 ** 20, 'MB'];
  if (rounding === 'nearest') return `${amount.toFixed(1).replace(/\.0$/, '')} ${unit}`;
  return `${(rounding === 'up' ? Math.ceil(amount * 10) : Math.floor(amount * 10)) / 10} ${unit}`;
}

function tooLarge(size: number, max: number, isAtLeast: boolean): Result<never> {
  return refuse({
    message: `the JSON is ${isAtLeast ? 'at least ' : ''}${sizeText(size)}, more than the ${sizeText(max)} Anima reads here`,
  });
}

function refuse(problem: Problem): Result<never> {
  return { ok: false, error: [problem] };
}

const EXPECT_VALUE = 0;
const AFTER_VALUE = 1;
const EXPECT_KEY = 2;

/** Keys of an object compared one by one up to this many, then in a set. */
const KEYS_IN_A_LIST = 24;

/**
 * The keys of the objects open while JSON is checked, on one stack, as offsets into the text:
 * most keys are compared where they stand, without a string made of each (a snapshot has
 * millions). A key with an escape is decoded, and a large object's keys go into a set.
 */
class OpenObjectKeys {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly decoded: (string | undefined)[] = [];
  private top = 0;
  private readonly baseAt: number[] = [];
  private readonly setAt: (Set<string> | undefined)[] = [];
  /** Where the last key of the object at each depth is on the stack (objects open inside it are above). */
  private readonly lastAt: number[] = [];

  constructor(private readonly text: string) {}

  /** An object opens at this depth (1-based). */
  open(depth: number): void {
    this.baseAt[depth] = this.top;
    this.setAt[depth] = undefined;
  }

  /** The object at this depth closes: its keys are forgotten. */
  close(depth: number): void {
    this.top = this.baseAt[depth]!;
  }

  /** Adds the key whose text (between its quotes) is start..end to the object at this depth; false when it has that key already. */
  add(depth: number, start: number, end: number, hasEscape: boolean): boolean {
    const decoded = hasEscape ? decodeKey(this.text.slice(start - 1, end + 1)) : undefined;
    const base = this.baseAt[depth]!;
    const set = this.setAt[depth];
    let isNew = true;
    if (set) {
      const key = decoded ?? this.text.slice(start, end);
      isNew = !set.has(key);
      set.add(key);
    } else for (let index = base; index < this.top && isNew; index++) isNew = !this.isSame(index, start, end, decoded);
    this.starts[this.top] = start;
    this.ends[this.top] = end;
    this.decoded[this.top] = decoded;
    this.lastAt[depth] = this.top;
    this.top++;
    if (!set && this.top - base > KEYS_IN_A_LIST)
      this.setAt[depth] = new Set(Array.from({ length: this.top - base }, (_, offset) => this.keyOf(base + offset)));
    return isNew;
  }

  /** The key being read in the object at this depth, for a path. */
  currentAt(depth: number): string {
    return this.keyOf(this.lastAt[depth]!);
  }

  private keyOf(index: number): string {
    return this.decoded[index] ?? this.text.slice(this.starts[index], this.ends[index]);
  }

  private isSame(index: number, start: number, end: number, decoded: string | undefined): boolean {
    const stored = this.decoded[index];
    if (decoded !== undefined || stored !== undefined)
      return (decoded ?? this.text.slice(start, end)) === this.keyOf(index);
    const storedStart = this.starts[index]!;
    if (this.ends[index]! - storedStart !== end - start) return false;
    for (let offset = 0; offset < end - start; offset++)
      if (this.text.charCodeAt(storedStart + offset) !== this.text.charCodeAt(start + offset)) return false;
    return true;
  }
}

/** A quoted key with an escape, decoded; the quick pass has not checked its other characters, so one JSON.parse refuses stays as it is (JSON.parse refuses the whole text later). */
function decodeKey(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted;
  }
}

/**
 * Checks JSON text from `start` in one pass without recursion (the depth is a counter, so a
 * 100,000-deep file costs nothing): undefined when it is well-formed, else the first problem.
 * A quick pass skips through strings with indexOf (as fast as the engine searches) and leaves
 * their characters (control characters, unknown escapes) to JSON.parse; a strict pass checks
 * every character, to say where the first problem is.
 */
function checkJson(text: string, start: number, maxDepth: number, isQuick: boolean): Problem | undefined {
  const length = text.length;
  const strings = new StringReader(text);
  // Per level of nesting (1-based): an object or an array, and the index being read in an array.
  const isObject: boolean[] = [];
  const indexAt: number[] = [];
  const keys = new OpenObjectKeys(text);
  let depth = 0;
  let state = EXPECT_VALUE;
  let at = skipWhitespace(text, start);
  if (at >= length) return problemAt(text, at, undefined, 'there is no JSON: the text is empty');
  const pathTo = (level: number) => pathOf(level, isObject, indexAt, (objectLevel) => keys.currentAt(objectLevel));
  const pathHere = () => pathTo(depth);

  for (;;) {
    if (state === EXPECT_VALUE) {
      const code = text.charCodeAt(at);
      if (code === 0x7b || code === 0x5b) {
        // Line and column say where; a path 64 levels long would not.
        if (depth >= maxDepth) return problemAt(text, at, undefined, tooDeep(maxDepth));
        depth++;
        const isAnObject = code === 0x7b;
        isObject[depth] = isAnObject;
        indexAt[depth] = 0;
        at = skipWhitespace(text, at + 1);
        if (text.charCodeAt(at) === (isAnObject ? 0x7d : 0x5d)) {
          depth--;
          at++;
          state = AFTER_VALUE;
        } else if (isAnObject) {
          keys.open(depth);
          state = EXPECT_KEY;
        }
        continue;
      }
      state = AFTER_VALUE;
      if (code === 0x22) {
        const end = isQuick ? strings.quickEnd(at) : strings.strictEnd(at);
        if (end < 0) return stringProblem(text, at, pathHere());
        at = end;
        continue;
      }
      let end = -1;
      if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
        end = isQuick ? quickNumberEnd(text, at) : numberEnd(text, at);
        // A number ends at a delimiter: "0x1F", "01" or "1.5.2" is one word that is not a number.
        if (end === TOO_LARGE)
          return problemAt(
            text,
            at,
            pathHere(),
            `${quoteInput(wordAt(text, at))} is too large a number (a double goes up to about 1.8e308)`,
          );
        if (end < 0 || isWordCode(text.charCodeAt(end)))
          return problemAt(
            text,
            at,
            pathHere(),
            `${quoteInput(wordAt(text, at))} is not a JSON number (decimal digits, then an optional fraction and exponent)`,
          );
      } else if (code === 0x74 && text.startsWith('true', at)) end = at + 4;
      else if (code === 0x66 && text.startsWith('false', at)) end = at + 5;
      else if (code === 0x6e && text.startsWith('null', at)) end = at + 4;
      if (end < 0 || isWordCode(text.charCodeAt(end)))
        return problemAt(text, at, pathHere(), `a value was expected, but ${foundAt(text, at)} was found`);
      at = end;
      continue;
    }

    if (state === AFTER_VALUE) {
      at = skipWhitespace(text, at);
      if (depth === 0)
        return at >= length
          ? undefined
          : problemAt(text, at, undefined, `the JSON value ends before the text does: ${foundAt(text, at)} follows it`);
      const code = text.charCodeAt(at);
      if (code === 0x2c) {
        at = skipWhitespace(text, at + 1);
        if (isObject[depth]) state = EXPECT_KEY;
        else {
          indexAt[depth]!++;
          state = EXPECT_VALUE;
        }
        continue;
      }
      const closing = isObject[depth] ? 0x7d : 0x5d;
      if (code === closing) {
        if (isObject[depth]) keys.close(depth);
        depth--;
        at++;
        continue;
      }
      const what = isObject[depth] ? 'a comma or } after the value' : 'a comma or ] after the value';
      return problemAt(
        text,
        at,
        pathHere(),
        at >= length
          ? `the text ends too soon: ${what} was expected`
          : `${what} was expected, but ${foundAt(text, at)} was found`,
      );
    }

    // EXPECT_KEY
    if (text.charCodeAt(at) !== 0x22)
      return problemAt(
        text,
        at,
        pathTo(depth - 1),
        `a key in double quotes was expected, but ${foundAt(text, at)} was found`,
      );
    const end = isQuick ? strings.quickEnd(at) : strings.strictEnd(at);
    if (end < 0) return stringProblem(text, at, pathTo(depth - 1));
    if (!keys.add(depth, at + 1, end - 1, strings.hadEscape))
      return problemAt(
        text,
        at,
        pathHere(),
        `the key ${quoteInput(keys.currentAt(depth), 60)} appears twice in one object; which one is meant cannot be known`,
      );
    at = skipWhitespace(text, end);
    if (text.charCodeAt(at) !== 0x3a)
      return problemAt(text, at, pathHere(), `a colon after the key was expected, but ${foundAt(text, at)} was found`);
    at = skipWhitespace(text, at + 1);
    state = EXPECT_VALUE;
  }
}

/** JSON's whitespace: space, tab, line feed, carriage return. */
function skipWhitespace(text: string, from: number): number {
  let at = from;
  for (;;) {
    const code = text.charCodeAt(at);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return at;
    at++;
  }
}

/** Strings up to this long are read a character at a time, longer ones searched with indexOf. */
const SHORT_STRING = 24;

/** Finds where JSON strings end, and whether the last one had an escape (a key with one is decoded before it is compared). */
class StringReader {
  hadEscape = false;
  /** The next backslash at or after the last place looked: indexOf runs over the text once, not once per string. */
  private nextBackslash = -1;

  constructor(private readonly text: string) {}

  /**
   * The end (just past the closing quote) of the string at `from`, or -1: only escapes are read
   * (a lone surrogate escaped is refused here, as JSON.parse would take it); other characters are
   * JSON.parse's to check.
   */
  quickEnd(from: number): number {
    const text = this.text;
    this.hadEscape = false;
    let at = from + 1;
    // Most strings are short keys: a loop ends them sooner than a call to indexOf would.
    for (const stop = at + SHORT_STRING; at < stop; at++) {
      const code = text.charCodeAt(at);
      if (code === 0x22) return at + 1;
      if (code === 0x5c) break;
    }
    for (;;) {
      const quote = text.indexOf('"', at);
      if (quote < 0) return -1;
      if (this.nextBackslash < at) {
        const found = text.indexOf('\\', at);
        this.nextBackslash = found < 0 ? text.length : found;
      }
      if (this.nextBackslash > quote) return quote + 1;
      this.hadEscape = true;
      at = escapeEnd(text, this.nextBackslash);
      if (at < 0) return -1;
    }
  }

  /**
   * The end (just past the closing quote) of the string at `from`, or -1 when it is not a JSON
   * string: a control character, an unknown escape, a lone surrogate, no closing quote.
   */
  strictEnd(from: number): number {
    const text = this.text;
    this.hadEscape = false;
    let at = from + 1;
    for (;;) {
      const code = text.charCodeAt(at);
      if (code === 0x22) return at + 1;
      if (code === 0x5c) {
        this.hadEscape = true;
        at = escapeEnd(text, at);
        if (at < 0) return -1;
        continue;
      }
      // Also the end of the text: charCodeAt gives NaN there.
      if (!(code >= 0x20)) return -1;
      if (code >= 0xd800 && code <= 0xdfff) {
        const next = text.charCodeAt(at + 1);
        if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return -1;
        at += 2;
        continue;
      }
      at++;
    }
  }
}

/** The end of the escape at `at` (a backslash), or -1 when JSON has no such escape or it is half of a character. */
function escapeEnd(text: string, at: number): number {
  const escaped = text.charCodeAt(at + 1);
  if (escaped === 0x75) {
    const unit = hexUnit(text, at + 2);
    if (unit < 0) return -1;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      // A high surrogate must be followed by a low one, escaped.
      const next = text.charCodeAt(at + 6) === 0x5c && text.charCodeAt(at + 7) === 0x75 ? hexUnit(text, at + 8) : -1;
      return next >= 0xdc00 && next <= 0xdfff ? at + 12 : -1;
    }
    return unit >= 0xdc00 && unit <= 0xdfff ? -1 : at + 6;
  }
  return escaped === 0x22 ||
    escaped === 0x5c ||
    escaped === 0x2f ||
    escaped === 0x62 ||
    escaped === 0x66 ||
    escaped === 0x6e ||
    escaped === 0x72 ||
    escaped === 0x74
    ? at + 2
    : -1;
}

/** The UTF-16 unit four hex digits at `from` give, or -1. */
function hexUnit(text: string, from: number): number {
  let unit = 0;
  for (let at = from; at < from + 4; at++) {
    const code = text.charCodeAt(at);
    const digit =
      code >= 0x30 && code <= 0x39
        ? code - 0x30
        : code >= 0x61 && code <= 0x66
          ? code - 0x57
          : code >= 0x41 && code <= 0x46
            ? code - 0x37
            : -1;
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

/** Says what is wrong with the string starting at `from` (stringEnd refused it). */
function stringProblem(text: string, from: number, path: string | undefined): Problem {
  let at = from + 1;
  for (;;) {
    const code = text.charCodeAt(at);
    if (at >= text.length)
      return problemAt(text, from, path, 'a string is not closed: the text ends before its closing double quote');
    if (code === 0x5c) {
      const escaped = text.charAt(at + 1);
      if (escaped === 'u') {
        const unit = hexUnit(text, at + 2);
        if (unit < 0)
          return problemAt(
            text,
            at,
            path,
            `${quoteInput(text.slice(at, at + 6))} is not an escape: \\u takes four hex digits`,
          );
        const isHigh = unit >= 0xd800 && unit <= 0xdbff;
        const next = isHigh && text.startsWith('\\u', at + 6) ? hexUnit(text, at + 8) : -1;
        if ((isHigh && !(next >= 0xdc00 && next <= 0xdfff)) || (unit >= 0xdc00 && unit <= 0xdfff))
          return problemAt(
            text,
            at,
            path,
            `${quoteInput(text.slice(at, at + 6))} is half of a character (a lone surrogate), which is not text`,
          );
        at += isHigh ? 12 : 6;
        continue;
      }
      if (escaped === '' || !'"\\/bfnrt'.includes(escaped))
        return problemAt(
          text,
          at,
          path,
          `${quoteInput(text.slice(at, at + 2))} is not an escape JSON knows (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)`,
        );
      at += 2;
      continue;
    }
    if (code < 0x20) {
      const hint = code === 0x0a || code === 0x0d ? ' (a string not closed on its line?)' : '';
      return problemAt(
        text,
        at,
        path,
        `a string holds the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}, which JSON writes as an escape${hint}`,
      );
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(at + 1);
      if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff))
        return problemAt(text, at, path, 'a string holds half of a character (a lone surrogate), which is not text');
      at += 2;
      continue;
    }
    if (code === 0x22) return problemAt(text, from, path, 'this string could not be read');
    at++;
  }
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/** numberEnd's answer for a number too large for a double: JSON.parse would make it Infinity, which no file can hold. */
const TOO_LARGE = -2;

/** The end of the JSON number at `from` (decimal: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), -1 when there is none, or TOO_LARGE. */
function numberEnd(text: string, from: number): number {
  let at = from;
  if (text.charCodeAt(at) === 0x2d) at++;
  if (text.charCodeAt(at) === 0x30) at++;
  else if (isDigit(text.charCodeAt(at))) while (isDigit(text.charCodeAt(at))) at++;
  else return -1;
  let isPlain = true;
  if (text.charCodeAt(at) === 0x2e) {
    at++;
    if (!isDigit(text.charCodeAt(at))) return -1;
    while (isDigit(text.charCodeAt(at))) at++;
  }
  const exponent = text.charCodeAt(at);
  if (exponent === 0x65 || exponent === 0x45) {
    isPlain = false;
    at++;
    const sign = text.charCodeAt(at);
    if (sign === 0x2b || sign === 0x2d) at++;
    if (!isDigit(text.charCodeAt(at))) return -1;
    while (isDigit(text.charCodeAt(at))) at++;
  }
  // Only an exponent or 309 digits reach Infinity; the common short number is not converted twice.
  if ((!isPlain || at - from > 308) && !Number.isFinite(Number(text.slice(from, at)))) return TOO_LARGE;
  return at;
}

/**
 * The end of the number at `from` as the quick pass reads it: the characters a number may hold,
 * their grammar left to JSON.parse; TOO_LARGE for one that would become Infinity.
 */
function quickNumberEnd(text: string, from: number): number {
  let at = from;
  let isPlain = true;
  for (;;) {
    const code = text.charCodeAt(at);
    if ((code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x2d) at++;
    else if (code === 0x65 || code === 0x45 || code === 0x2b) {
      isPlain = false;
      at++;
    } else break;
  }
  return (!isPlain || at - from > 308) && !Number.isFinite(Number(text.slice(from, at))) ? TOO_LARGE : at;
}

/** Characters that continue a word: a value must not run into one ("truex", "0x1F", "01", "1.", "NaN"). */
function isWordCode(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x2e ||
    code === 0x2b ||
    code === 0x2d ||
    code === 0x5f
  );
}

/** The word (letters, digits, . + - _) at `from`: what is quoted when a value is not one. */
function wordAt(text: string, from: number): string {
  let end = from;
  while (end < text.length && isWordCode(text.charCodeAt(end))) end++;
  return text.slice(from, Math.max(end, from + 1));
}

/** What stands at `at`, in words: the end of the text, a word, or one character. */
function foundAt(text: string, at: number): string {
  if (at >= text.length) return 'the end of the text';
  const code = text.charCodeAt(at);
  if (isWordCode(code)) return quoteInput(wordAt(text, at));
  return quoteInput(code >= 0xd800 && code <= 0xdbff ? text.slice(at, at + 2) : text.charAt(at));
}

/** A problem at an offset of the text: its line and column (1-based, in characters), and its path when known. */
function problemAt(text: string, at: number, path: string | undefined, message: string): Problem {
  let line = 1;
  let lineStart = 0;
  for (let newline = text.indexOf('\n'); newline >= 0 && newline < at; newline = text.indexOf('\n', newline + 1)) {
    line++;
    lineStart = newline + 1;
  }
  return { line, column: at - lineStart + 1, ...(path !== undefined ? { path } : {}), message };
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** Keys and paths are cut here: a path names the place, it does not echo the file. */
const MAX_KEY_IN_PATH = 40;
const MAX_PATH_CHARS = 200;

/** The JSONPath of the value being read at `depth` (`$.goals[3].description`), cut to 200 characters. */
function pathOf(
  depth: number,
  isObject: readonly boolean[],
  indexAt: readonly number[],
  keyAt: (level: number) => string,
): string {
  let path = '$';
  for (let level = 1; level <= depth; level++) {
    if (!isObject[level]) path += `[${indexAt[level]}]`;
    else {
      const key = keyAt(level);
      path +=
        PLAIN_KEY.test(key) && key.length <= MAX_KEY_IN_PATH
          ? `.${key}`
          : `[${quoteInput(key, MAX_KEY_IN_PATH).replace(/ \([\d,]+ characters\)$/, '')}]`;
    }
    if (path.length > MAX_PATH_CHARS) return `${path.slice(0, MAX_PATH_CHARS)}…`;
  }
  return path;
}

/** A copy of a value with every object's keys sorted (deep), for text that must not depend on key order; used row by row, never on a whole document. */
export const sortedKeys = (item: unknown): unknown =>
  Array.isArray(item)
    ? item.map(sortedKeys)
    : typeof item === 'object' && item !== null
      ? Object.fromEntries(
          Object.keys(item)
            .sort()
            .map((key) => [key, sortedKeys((item as Record<string, unknown>)[key])]),
        )
      : item;
