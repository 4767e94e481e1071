import { quoteInput } from './quote-input.ts';
import type { Problem } from './result.ts';
import { foundAt, isWordCode, pathOf, problemAt, wordAt } from './json-places.ts';
import { numberEnd, quickNumberEnd, StringReader, stringProblem, TOO_LARGE } from './json-tokens.ts';

// The checks safe-json.ts runs before JSON.parse builds a value: nesting, keys given twice, and where the first problem is.

export const tooDeep = (maxDepth: number) =>
  `the JSON nests deeper than ${maxDepth} levels, more than any file Anima writes`;

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
export function checkJson(text: string, start: number, maxDepth: number, isQuick: boolean): Problem | undefined {
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
