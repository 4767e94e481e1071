import { parseDecimal } from '#core/decimal-text.ts';
import { quoteInput } from '#core/quote-input.ts';
import { CliError } from './snapshot-file.ts';

/** Reads a numeric option, a plain decimal (not 0x10 nor 1e3), or explains what it must be (a usage error, exit code 2). */
export function numberOption(text: string | undefined, name: string, rule: { min: number; max: number; fallback: number; isInteger?: boolean }): number {
  if (text === undefined) return rule.fallback;
  const value = parseDecimal(text);
  if (value === undefined || value < rule.min || value > rule.max || (rule.isInteger && !Number.isInteger(value)))
    throw new CliError(`${name} must be ${rule.isInteger ? 'a whole number' : 'a number'} from ${rule.min} to ${rule.max}, not ${quoteInput(text, 40)}`, 2);
  return value;
}
