/**
 * Numbers that people write in files and options (confidences, counts, limits) are plain
 * decimals: digits, optionally a point followed by more digits (`0`, `0.75`, `10.0`), no sign.
 * JavaScript's Number() would also take `0x1`, `0b1`, `1e3`, `Infinity`, `-0`, `''` and spaces
 * around, which nobody means as a confidence or a count, so those are refused, not read.
 */
const PLAIN_DECIMAL = /^[0-9]+(?:\.[0-9]+)?$/;

/** The value of a plain decimal, or undefined when the text is anything else. */
export function parseDecimal(text: string): number | undefined {
  return PLAIN_DECIMAL.test(text) ? Number(text) : undefined;
}
