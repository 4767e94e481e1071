import type { z } from 'zod';
import type { AgentApi } from '#core/api.ts';
import { PART_TYPES, partTypeSchema, type PartType } from '#core/records/persona-catalog.ts';
import { personaContract } from '#core/api/persona-contract.ts';
import { describeProblem, type Problem, problemsFromZod } from '#core/result.ts';
import type { CliCatalog } from '../catalog-file.ts';
import type { CliOutput } from '../output.ts';
import { numberOption } from '../options.ts';
import { CliError } from '../snapshot-file.ts';
import { quoteInput } from '#core/quote-input.ts';

/** The persona part of `anima --help`. */
export const PERSONA_USAGE = `The persona catalog (the device's personas, in a catalog file created by the first import):
  anima persona list --catalog C [--tag T]... [--search TEXT] [--json]
  anima persona show NAME --catalog C [--detail] [--budget N] [--override TYPE=PART]... [--types a,b] [--limit N] [--json]
                 the assembled prompt; then, on stderr, its tokens, the parts its arc stage or an
                 override put in, and what --budget or --limit left out
  anima persona import FILE --catalog C [--as NAME] [--dry-run] [--json]
                 an Anima bundle or a character card (V1, V2, V3; JSON or PNG): each part, trait,
                 skill, guardrail and arc new or reused; --dry-run writes nothing
  anima persona export NAME --catalog C [--format bundle|card-json|card-png] [--output FILE|DIR] [--force]
                 without --output a bundle or card-json prints, a card-png is written to its own
                 name here; an existing file is never replaced without --force
  anima persona compile NAME --catalog C         store the merged summary and detail (what runs use)
  anima persona manifest NAME --catalog C        its structure and token estimates, as JSON
  anima persona wear NAME|--none --catalog C --snapshot S
                 the session wears it (or none): run, resume, cycle and write-up given --catalog C
                 keep its guardrails, lead a model's prompt with it and write in its name
`;

const PERSONA_COMMANDS = ['list', 'show', 'import', 'export', 'compile', 'manifest', 'wear'] as const;
export type PersonaCommandName = (typeof PERSONA_COMMANDS)[number];

/** The options the persona commands read, as `main` parsed them. */
export type PersonaOptions = {
  catalog?: string;
  snapshot?: string;
  json?: boolean;
  tag?: string[];
  search?: string;
  detail?: boolean;
  budget?: string;
  override?: string[];
  types?: string;
  limit?: string;
  as?: string;
  'dry-run'?: boolean;
  format?: string;
  output?: string;
  force?: boolean;
  none?: boolean;
};

export type PersonaCommand = {
  service: AgentApi;
  operand: string | undefined;
  values: PersonaOptions;
  output: CliOutput;
  catalog: CliCatalog;
};

export function isPersonaCommand(command: string | undefined): command is PersonaCommandName {
  return PERSONA_COMMANDS.some((name) => name === command);
}

export const usageError = (message: string) => new CliError(`${message}\n\n${PERSONA_USAGE}`, 2);

/** How the user typed each argument of the persona calls, so a problem at `budgetTokens` reads "--budget: ...". */
const ARGUMENT_NAMES: Record<string, string> = {
  name: 'NAME',
  persona: 'NAME',
  tags: '--tag',
  text: '--search',
  overrides: '--override',
  types: '--types',
  limit: '--limit',
  budgetTokens: '--budget',
  fileName: 'FILE',
  data: 'FILE',
  asName: '--as',
  format: '--format',
};

/** A problem with the command's arguments, placed at the argument as typed ("--override tone: ..."). */
export function describeArgumentProblem(problem: Problem): string {
  const [argument, key] = problem.path?.split('.') ?? [];
  const typed = argument === undefined ? undefined : ARGUMENT_NAMES[argument];
  if (typed === undefined) return describeProblem(problem);
  return `${typed}${argument === 'overrides' && key !== undefined ? ` ${key}` : ''}: ${problem.message}`;
}

/** The service's refusal as an error: each problem on its own line when there are several. */
export function refusalError(
  command: PersonaCommandName,
  problems: Problem[],
  describe: (problem: Problem) => string,
  exitCode = 1,
): CliError {
  const [only] = problems;
  if (problems.length === 1 && only) return new CliError(`persona ${command}: ${describe(only)}`, exitCode);
  return new CliError(
    [`persona ${command}:`, ...problems.map((problem) => `  ${describe(problem)}`)].join('\n'),
    exitCode,
  );
}

/**
 * Checks a call's arguments against the contract before calling: a name over 120 characters or
 * a tag over 60 is wrong usage, said at the argument, where the checked service would throw.
 */
export function checkArguments(command: PersonaCommandName, method: keyof typeof personaContract, args: object): void {
  const schema: z.ZodType = personaContract[method].args;
  const parsed = schema.safeParse(args);
  if (!parsed.success) throw refusalError(command, problemsFromZod(parsed.error), describeArgumentProblem, 2);
}

/** A number option that may be left out. */
export function optionalNumber(
  text: string | undefined,
  name: string,
  rule: { min: number; max: number },
): number | undefined {
  return text === undefined ? undefined : numberOption(text, name, { ...rule, fallback: rule.min, isInteger: true });
}

/** `--override TYPE=PART`, repeated: part type -> part name. Whether the type and part exist, the service says. */
export function overridesOption(texts: string[] = []): Record<string, string> {
  const overrides = new Map<string, string>();
  for (const text of texts) {
    const separator = text.indexOf('=');
    const type = text.slice(0, separator).trim();
    const part = text.slice(separator + 1).trim();
    if (separator < 0 || type === '' || part === '')
      throw usageError(`--override takes TYPE=PART, e.g. --override tone=warm-tone, not ${quoteInput(text)}`);
    if (overrides.has(type)) throw usageError(`--override ${type} is given twice`);
    overrides.set(type, part);
  }
  return Object.fromEntries(overrides);
}

/** `--types a,b`: the part types to keep. */
export function typesOption(text: string | undefined): PartType[] | undefined {
  if (text === undefined) return undefined;
  const types: PartType[] = [];
  const unknown: string[] = [];
  for (const name of text.split(',').map((type) => type.trim())) {
    const type = partTypeSchema.safeParse(name);
    if (type.success) types.push(type.data);
    else unknown.push(quoteInput(name));
  }
  if (unknown.length > 0)
    throw usageError(`--types: no part type ${unknown.join(', ')}; the types are ${PART_TYPES.join(', ')}`);
  return types;
}
