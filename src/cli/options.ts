import { parseArgs } from 'node:util';
import { parseDecimal } from '#core/decimal-text.ts';
import { quoteInput } from '#core/quote-input.ts';
import { CliError } from './snapshot-file.ts';

/** Every option any command takes; each command reads the ones it knows. */
const OPTIONS = {
  snapshot: { type: 'string' },
  format: { type: 'string' },
  json: { type: 'boolean', default: false },
  verbose: { type: 'boolean', default: false },
  limit: { type: 'string' },
  output: { type: 'string' },
  'min-confidence': { type: 'string' },
  goal: { type: 'string', multiple: true },
  goals: { type: 'string' },
  fresh: { type: 'boolean' },
  criteria: { type: 'string' },
  choose: { type: 'string', multiple: true },
  priority: { type: 'string' },
  kg: { type: 'string' },
  'max-cycles': { type: 'string' },
  query: { type: 'string' },
  'max-iterations': { type: 'string' },
  psyche: { type: 'string' },
  facts: { type: 'string', multiple: true },
  note: { type: 'string' },
  grammar: { type: 'string' },
  attempt: { type: 'string' },
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'api-key': { type: 'string' },
  vision: { type: 'boolean' },
  'max-requests': { type: 'string' },
  'max-tokens': { type: 'string' },
  planning: { type: 'string' },
  'reflection-interval': { type: 'string' },
  'max-failed-plans': { type: 'string' },
  catalog: { type: 'string' },
  tag: { type: 'string', multiple: true },
  search: { type: 'string' },
  detail: { type: 'boolean' },
  budget: { type: 'string' },
  override: { type: 'string', multiple: true },
  types: { type: 'string' },
  as: { type: 'string' },
  'dry-run': { type: 'boolean' },
  force: { type: 'boolean' },
  none: { type: 'boolean' },
  'link-same-labels': { type: 'boolean' },
  input: { type: 'string' },
  reason: { type: 'string' },
  description: { type: 'string' },
  stage: { type: 'string', multiple: true },
  condition: { type: 'string' },
  position: { type: 'string' },
  'allow-web': { type: 'string', multiple: true },
  offline: { type: 'boolean' },
  'memory-capacity': { type: 'string' },
  'consolidation-threshold': { type: 'string' },
  temperature: { type: 'string' },
  'top-p': { type: 'string' },
  'answer-tokens': { type: 'string' },
  seed: { type: 'string' },
  embedder: { type: 'string' },
  endpoint: { type: 'string', multiple: true },
  key: { type: 'string' },
  'key-header': { type: 'string' },
  timeout: { type: 'string' },
  'row-limit': { type: 'string' },
  trust: { type: 'string' },
  language: { type: 'string' },
  'without-asking': { type: 'boolean' },
  around: { type: 'string' },
  header: { type: 'string' },
  refresh: { type: 'boolean' },
  approve: { type: 'boolean' },
  depth: { type: 'string' },
  help: { type: 'boolean', default: false },
} as const;

/** The command line read against OPTIONS; throws Node's own error on an unknown or malformed option. */
export function parseCommandLine(argv: string[]) {
  return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
}

/** The options as parsed: what every command receives. */
export type CliValues = ReturnType<typeof parseCommandLine>['values'];

/** Reads a numeric option, a plain decimal (not 0x10 nor 1e3), or explains what it must be (a usage error, exit code 2). */
export function numberOption(
  text: string | undefined,
  name: string,
  rule: { min: number; max: number; fallback: number; isInteger?: boolean },
): number {
  if (text === undefined) return rule.fallback;
  const value = parseDecimal(text);
  if (value === undefined || value < rule.min || value > rule.max || (rule.isInteger && !Number.isInteger(value)))
    throw new CliError(
      `${name} must be ${rule.isInteger ? 'a whole number' : 'a number'} from ${rule.min} to ${rule.max}, not ${quoteInput(text, 40)}`,
      2,
    );
  return value;
}

/** A positional id (a goal's, a question's), or NaN when none was given. */
export function idOperand(text: string | undefined, name: string): number {
  return numberOption(text, name, { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: Number.NaN, isInteger: true });
}

/** "on" or "off", as a flag's value. */
export function onOff(text: string, name: string): boolean {
  if (text === 'on' || text === 'off') return text === 'on';
  throw new CliError(`${name} must be on or off, not ${quoteInput(text)}`, 2);
}
