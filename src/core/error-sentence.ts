/**
 * What a user reads when something was thrown instead of refused: the CLI prints it, the worker
 * sends it to the UI. An error Anima wrote for people (a sentence) passes as it is; one of
 * JavaScript's own (a RangeError from a stack overflow, a TypeError from a bug) is a defect, and
 * says so in one sentence with its message, never a stack trace.
 */

/** JavaScript's built-in errors: thrown by a defect in Anima or a library, never written for a user. */
const DEFECT_NAMES = new Set([
  'TypeError',
  'RangeError',
  'ReferenceError',
  'SyntaxError',
  'EvalError',
  'URIError',
  'InternalError',
  'AggregateError',
]);

/** The most characters of a thrown message shown: a message that quotes its input whole (10 MB, say) is cut. */
const MAX_MESSAGE_CHARS = 1_000;
/** The most characters of a defect's own message shown. */
const MAX_DEFECT_CHARS = 200;

/** Whether a thrown value is a defect rather than an error written for a user. */
export function isDefect(error: unknown): boolean {
  return !(error instanceof Error) || DEFECT_NAMES.has(error.name);
}

/** A thrown value as one sentence for a user. */
export function errorSentence(error: unknown): string {
  if (!isDefect(error)) return shortened((error as Error).message.trim() || (error as Error).name, MAX_MESSAGE_CHARS);
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return `Anima stopped on an internal error, a defect to report (${shortened(what.replaceAll(/\s+/g, ' '), MAX_DEFECT_CHARS)})`;
}

/** A message cut to `max` characters, saying how long it was: for text that may quote a user's input whole. */
export function shortened(text: string, max = MAX_MESSAGE_CHARS): string {
  if (text.length <= max) return text;
  // Never between the two halves of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length.toLocaleString('en')} characters)`;
}
