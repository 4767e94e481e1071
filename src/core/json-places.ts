import { quoteInput } from './quote-input.ts';
import type { Problem } from './result.ts';

// How a problem in JSON text names its place: line and column, the JSONPath, and what stands there.

/** Characters that continue a word: a value must not run into one ("truex", "0x1F", "01", "1.", "NaN"). */
export function isWordCode(code: number): boolean {
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
export function wordAt(text: string, from: number): string {
  let end = from;
  while (end < text.length && isWordCode(text.charCodeAt(end))) end++;
  return text.slice(from, Math.max(end, from + 1));
}

/** What stands at `at`, in words: the end of the text, a word, or one character. */
export function foundAt(text: string, at: number): string {
  if (at >= text.length) return 'the end of the text';
  const code = text.charCodeAt(at);
  if (isWordCode(code)) return quoteInput(wordAt(text, at));
  return quoteInput(code >= 0xd800 && code <= 0xdbff ? text.slice(at, at + 2) : text.charAt(at));
}

/** A problem at an offset of the text: its line and column (1-based, in characters), and its path when known. */
export function problemAt(text: string, at: number, path: string | undefined, message: string): Problem {
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
export function pathOf(
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
