import { quoteInput } from './quote-input.ts';
import type { Problem } from './result.ts';
import { problemAt } from './json-places.ts';

// Where JSON strings and numbers end in a text, and what is wrong with one that does not.

/** Strings up to this long are read a character at a time, longer ones searched with indexOf. */
const SHORT_STRING = 24;

/** Finds where JSON strings end, and whether the last one had an escape (a key with one is decoded before it is compared). */
export class StringReader {
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
export function stringProblem(text: string, from: number, path: string | undefined): Problem {
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
export const TOO_LARGE = -2;

/** The end of the JSON number at `from` (decimal: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), -1 when there is none, or TOO_LARGE. */
export function numberEnd(text: string, from: number): number {
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
export function quickNumberEnd(text: string, from: number): number {
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
