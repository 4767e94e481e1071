import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { z } from 'zod';
import { type AgentApi, withContractChecks } from '#core/api.ts';
import { PART_TYPES, partTypeSchema, type PartType } from '#core/records/persona-catalog.ts';
import {
  PERSONA_FILE_FORMATS,
  personaContract,
  personaFileFormatSchema,
  type AssembledPersonaView,
  type PersonaImportPreview,
  type PersonaSummary,
} from '#core/api/persona-contract.ts';
import { describeProblem, type Problem, problemsFromZod } from '#core/result.ts';
import { createAgentService } from '#core/service/service.ts';
import { type CliCatalog, openCatalog } from '../catalog-file.ts';
import type { CliOutput } from '../output.ts';
import { numberOption } from '../options.ts';
import { CliError, openSnapshot } from '../snapshot-file.ts';
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
type PersonaCommandName = (typeof PERSONA_COMMANDS)[number];

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

type PersonaCommand = {
  service: AgentApi;
  operand: string | undefined;
  values: PersonaOptions;
  output: CliOutput;
  catalog: CliCatalog;
};

/** `anima persona ...`: the catalog file loaded into a fresh database, the command run, the file saved when it changed. */
export async function runPersonaCommand(
  command: string | undefined,
  operand: string | undefined,
  values: PersonaOptions,
  output: CliOutput,
): Promise<number> {
  if (!isPersonaCommand(command)) throw usageError(`unknown command ${quoteInput(`persona ${command ?? ''}`)}`);
  if (!values.catalog) throw usageError(`persona ${command}: --catalog C is required`);
  const isWearing = command === 'wear';
  if (isWearing && !values.snapshot)
    throw usageError('persona wear: --snapshot S is required (the session that wears it)');
  if (isWearing && (operand === undefined) === !values.none)
    throw usageError('persona wear: give a persona NAME, or --none to wear none');
  if (!isWearing && command !== 'list' && operand === undefined)
    throw usageError(`persona ${command}: which ${command === 'import' ? 'FILE' : 'persona NAME'}?`);

  // Only wear needs a session; the others work on the catalog alone.
  const { db, hadSnapshot } = await openSnapshot(isWearing ? values.snapshot : undefined);
  if (isWearing && !hadSnapshot)
    throw new CliError(
      `no snapshot at ${values.snapshot} (\`anima run ... --snapshot ${values.snapshot}\` creates it)`,
    );
  // An import may start a catalog; a dry run only reads, so it may preview against none.
  const catalog = await openCatalog(db, values.catalog, { mustExist: command !== 'import' });
  const service: AgentApi = withContractChecks(
    createAgentService({ db, now: () => Date.now(), newId: () => crypto.randomUUID() }),
  );
  const context: PersonaCommand = { service, operand, values, output, catalog };
  switch (command) {
    case 'list':
      return listPersonas(context);
    case 'show':
      return showPersona(context);
    case 'import':
      return importPersona(context);
    case 'export':
      return exportPersona(context);
    case 'compile':
      return compilePersona(context);
    case 'manifest':
      return manifestOf(context);
    case 'wear':
      return wearPersona(context);
  }
}

function isPersonaCommand(command: string | undefined): command is PersonaCommandName {
  return PERSONA_COMMANDS.some((name) => name === command);
}

const usageError = (message: string) => new CliError(`${message}\n\n${PERSONA_USAGE}`, 2);

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
function describeArgumentProblem(problem: Problem): string {
  const [argument, key] = problem.path?.split('.') ?? [];
  const typed = argument === undefined ? undefined : ARGUMENT_NAMES[argument];
  if (typed === undefined) return describeProblem(problem);
  return `${typed}${argument === 'overrides' && key !== undefined ? ` ${key}` : ''}: ${problem.message}`;
}

/** The service's refusal as an error: each problem on its own line when there are several. */
function refusalError(
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
function checkArguments(command: PersonaCommandName, method: keyof typeof personaContract, args: object): void {
  const schema: z.ZodType = personaContract[method].args;
  const parsed = schema.safeParse(args);
  if (!parsed.success) throw refusalError(command, problemsFromZod(parsed.error), describeArgumentProblem, 2);
}

/** A number option that may be left out. */
function optionalNumber(
  text: string | undefined,
  name: string,
  rule: { min: number; max: number },
): number | undefined {
  return text === undefined ? undefined : numberOption(text, name, { ...rule, fallback: rule.min, isInteger: true });
}

/** `--override TYPE=PART`, repeated: part type -> part name. Whether the type and part exist, the service says. */
function overridesOption(texts: string[] = []): Record<string, string> {
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
function typesOption(text: string | undefined): PartType[] | undefined {
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

/** "1 part", "3 parts". */
const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** One line of `persona list`: name, counts, arc:stage (or -), tags (or -), tab-separated. */
function summaryLine(persona: PersonaSummary): string {
  const counts = [
    counted(persona.parts, 'part'),
    counted(persona.traits, 'trait'),
    counted(persona.skills, 'skill'),
    counted(persona.guardrails, 'guardrail'),
  ].join(', ');
  const arc = persona.arc ? `${persona.arc.name}:${persona.arc.stage}` : '-';
  return `${persona.name}\t${counts}\t${arc}\t${persona.tags.length > 0 ? persona.tags.join(', ') : '-'}\n`;
}

async function listPersonas({ service, values, output }: PersonaCommand): Promise<number> {
  const filter = {
    ...(values.tag ? { tags: values.tag } : {}),
    ...(values.search !== undefined ? { text: values.search } : {}),
  };
  checkArguments('list', 'personaList', filter);
  const { personas } = await service.personaList(filter);
  if (values.json) output.out(`${JSON.stringify(personas)}\n`);
  else if (personas.length === 0)
    output.error(
      values.tag || values.search !== undefined
        ? 'anima: no persona matches\n'
        : 'anima: the catalog has no personas (`anima persona import FILE` adds one)\n',
    );
  else output.out(personas.map(summaryLine).join(''));
  return 0;
}

const partLabel = (part: { name: string; type: string }) => `${part.name} (${part.type})`;

/** What `persona show` says after the prompt: its size, where parts came from, and what was left out and why. */
function assemblyNotes(
  assembled: AssembledPersonaView,
  compiled: { isCurrent: boolean } | undefined,
  asked: { budgetTokens?: number; types?: PartType[] },
): string[] {
  const notes = [
    `${assembled.name}, ${assembled.view} view: about ${assembled.tokens} tokens${asked.budgetTokens !== undefined ? ` (budget ${asked.budgetTokens})` : ''}`,
  ];
  if (assembled.stage) {
    const staged = assembled.parts.filter((part) => part.source === 'stage');
    notes.push(
      `on the arc ${assembled.stage.arc} at the stage ${assembled.stage.stage}${staged.length > 0 ? `, which puts in ${staged.map(partLabel).join(', ')}` : ''}`,
    );
  }
  const overridden = assembled.parts.filter((part) => part.source === 'override');
  if (overridden.length > 0) notes.push(`overridden for this call: ${overridden.map(partLabel).join(', ')}`);
  if (asked.types) notes.push(`only parts of the types ${asked.types.join(', ')} (--types)`);
  // A detail-view part shows its summary only when the budget had no room for its content.
  const shortened = assembled.view === 'detail' ? assembled.parts.filter((part) => part.view === 'summary') : [];
  if (shortened.length > 0)
    notes.push(`in their summary to fit the budget: ${shortened.map((part) => part.name).join(', ')}`);
  const leftOut = (because: 'budget' | 'limit') =>
    assembled.leftOut.filter((item) => item.because === because).map((item) => `${item.kind} ${item.name}`);
  if (leftOut('budget').length > 0) notes.push(`left out to fit the budget: ${leftOut('budget').join(', ')}`);
  if (leftOut('limit').length > 0) notes.push(`left out by --limit: ${leftOut('limit').join(', ')}`);
  if (compiled && !compiled.isCurrent)
    notes.push('the compiled prompt (what runs use) is older than this: `anima persona compile` stores it again');
  return notes;
}

async function showPersona({ service, operand, values, output }: PersonaCommand): Promise<number> {
  const types = typesOption(values.types);
  const limit = optionalNumber(values.limit, '--limit', { min: 0, max: 1000 });
  const budgetTokens = optionalNumber(values.budget, '--budget', { min: 1, max: 1_000_000 });
  const args = {
    name: operand!,
    detail: values.detail ?? false,
    overrides: overridesOption(values.override),
    ...(types ? { types } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(budgetTokens !== undefined ? { budgetTokens } : {}),
  };
  checkArguments('show', 'personaGet', args);
  const got = await service.personaGet(args);
  if (!got.ok) throw refusalError('show', got.problems, describeArgumentProblem);
  if (values.json) {
    output.out(
      `${JSON.stringify({ assembled: got.assembled, ...(got.compiled ? { compiled: got.compiled } : {}) })}\n`,
    );
    return 0;
  }
  output.out(`${got.assembled.text}\n`);
  output.error(
    assemblyNotes(got.assembled, got.compiled, { budgetTokens, ...(types ? { types } : {}) })
      .map((note) => `anima: ${note}\n`)
      .join(''),
  );
  return 0;
}

const IMPORT_FORMATS: Record<PersonaImportPreview['format'], string> = {
  bundle: 'an Anima persona bundle',
  'card-v1': 'a character card (V1)',
  'card-v2': 'a character card (V2)',
  'card-v3': 'a character card (V3)',
};

/** One line, at most 60 characters: enough to recognise an item by. */
const shortened = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
};

/** The lines under an import: each item new or reused, the arc, the card fields kept for export. */
function previewLines(preview: PersonaImportPreview): string[] {
  const lines = preview.items.map((item) => {
    const what = `${item.state} ${item.kind} ${item.type ? partLabel({ name: item.name, type: item.type }) : item.name}`;
    return item.summary.trim() !== '' ? `${what}: ${shortened(item.summary)}` : what;
  });
  if (preview.arc)
    lines.push(
      `on the arc ${preview.arc.name} (${preview.arc.stages.join(' -> ')}) at the stage ${preview.arc.currentStage}`,
    );
  if (preview.kept.length > 0) lines.push(`kept for export, unused by Anima: ${preview.kept.join(', ')}`);
  if (preview.hasImage) lines.push("kept for export: the card's image");
  return lines.map((line) => `  ${line}\n`);
}

async function importPersona({ service, operand: file, values, output, catalog }: PersonaCommand): Promise<number> {
  let data: Uint8Array;
  try {
    // Bytes for every format: the service tells a PNG from JSON text by its signature.
    data = new Uint8Array(await readFile(file!));
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const args = { fileName: basename(file!), data, ...(values.as !== undefined ? { asName: values.as } : {}) };
  checkArguments('import', 'personaImportCheck', args);
  const refused = (problems: Problem[]) => {
    // The problems are placed in the file (`parts.1.name`), except a persona name that is taken.
    const isNameTaken = problems.some((problem) => problem.path === 'persona.name');
    return new CliError(
      [
        `${file}: nothing imported:`,
        ...problems.map((problem) => `  ${describeProblem(problem)}`),
        ...(isNameTaken ? ['  (--as NAME imports it under another name)'] : []),
      ].join('\n'),
    );
  };
  const checked = await service.personaImportCheck(args);
  if (!checked.ok) throw refused(checked.problems);
  const { preview } = checked;
  if (values['dry-run']) {
    if (values.json) output.out(`${JSON.stringify(preview)}\n`);
    else
      output.out(
        `${file}: ${IMPORT_FORMATS[preview.format]}; importing it would create the persona ${preview.persona.name} (--dry-run: nothing written)\n${previewLines(preview).join('')}`,
      );
    return 0;
  }
  const imported = await service.personaImport(args);
  if (!imported.ok) throw refused(imported.problems);
  await catalog.save();
  if (values.json) output.out(`${JSON.stringify({ persona: imported.item, preview })}\n`);
  else
    output.out(
      `${file}: imported ${IMPORT_FORMATS[preview.format]} as the persona ${imported.item.name}\n${previewLines(preview).join('')}`,
    );
  return 0;
}

const EXPORT_FORMATS: Record<(typeof PERSONA_FILE_FORMATS)[number], string> = {
  bundle: 'an Anima persona bundle',
  'card-json': 'a character card (V3 JSON)',
  'card-png': 'a character card (PNG)',
};

/** Where an export goes: --output FILE, or its own name inside --output DIR or the current folder. */
async function exportTarget(output: string | undefined, fileName: string): Promise<string> {
  if (output === undefined) return fileName;
  const isFolder = await stat(output).then(
    (found) => found.isDirectory(),
    () => false,
  );
  return isFolder ? join(output, fileName) : output;
}

async function exportPersona({ service, operand: name, values, output }: PersonaCommand): Promise<number> {
  const format = personaFileFormatSchema.safeParse(values.format ?? 'bundle');
  if (!format.success)
    throw usageError(`--format must be ${PERSONA_FILE_FORMATS.join(', ')}, not ${quoteInput(values.format ?? '')}`);
  const args = { name: name!, format: format.data };
  checkArguments('export', 'personaExport', args);
  const exported = await service.personaExport(args);
  if (!exported.ok) throw refusalError('export', exported.problems, describeArgumentProblem);
  // Like `psyche export`, text prints when no file is named; a PNG is never written to a terminal.
  if (values.output === undefined && typeof exported.data === 'string') {
    output.out(exported.data);
    return 0;
  }
  const target = await exportTarget(values.output, exported.fileName);
  try {
    await writeFile(target, exported.data, { flag: values.force ? 'w' : 'wx' });
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EEXIST')
      throw new CliError(`${target} already exists; nothing written (--force replaces it)`);
    throw new CliError(`cannot write ${target}: ${error instanceof Error ? error.message : String(error)}`);
  }
  output.error(`anima: wrote ${name} as ${EXPORT_FORMATS[format.data]} to ${target}\n`);
  return 0;
}

async function compilePersona({ service, operand: name, output, catalog }: PersonaCommand): Promise<number> {
  checkArguments('compile', 'personaCompile', { name });
  const compiled = await service.personaCompile({ name: name! });
  if (!compiled.ok) throw refusalError('compile', compiled.problems, describeArgumentProblem);
  await catalog.save();
  output.out(
    `compiled ${name}: the summary is about ${compiled.compiled.summaryTokens} tokens, the detail about ${compiled.compiled.detailTokens}; a run wearing it uses this summary until the next compile\n`,
  );
  return 0;
}

async function manifestOf({ service, operand: name, output }: PersonaCommand): Promise<number> {
  checkArguments('manifest', 'personaManifest', { name });
  const manifest = await service.personaManifest({ name: name! });
  if (!manifest.ok) throw refusalError('manifest', manifest.problems, describeArgumentProblem);
  output.out(`${JSON.stringify(manifest.manifest)}\n`);
  return 0;
}

async function wearPersona({ service, operand: name, values, output, catalog }: PersonaCommand): Promise<number> {
  const persona = values.none ? null : name!;
  const { session } = await service.open({});
  checkArguments('wear', 'sessionPersonaSet', { sessionId: session.id, persona });
  const worn = await service.sessionPersonaSet({ sessionId: session.id, persona });
  if (!worn.ok) throw refusalError('wear', worn.problems, describeArgumentProblem);
  // What a session wears is kept in the catalog (a snapshot leaves device-local personas out), so the snapshot stays as it was.
  await catalog.save();
  output.out(
    worn.persona
      ? `the session "${session.name}" wears ${worn.persona.name} now; give run, resume, cycle and write-up --catalog ${values.catalog} to act as it\n`
      : `the session "${session.name}" wears no persona now\n`,
  );
  return 0;
}
