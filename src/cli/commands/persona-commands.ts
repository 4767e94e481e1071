import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { PartType } from '#core/records/persona-catalog.ts';
import {
  PERSONA_FILE_FORMATS,
  personaFileFormatSchema,
  type AssembledPersonaView,
  type PersonaImportPreview,
  type PersonaSummary,
} from '#core/api/persona-contract.ts';
import { describeProblem, type Problem } from '#core/result.ts';
import { CliError } from '../snapshot-file.ts';
import { quoteInput } from '#core/quote-input.ts';
import {
  type PersonaCommand,
  usageError,
  describeArgumentProblem,
  refusalError,
  checkArguments,
  optionalNumber,
  overridesOption,
  typesOption,
} from './persona-arguments.ts';

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

export async function listPersonas({ service, values, output }: PersonaCommand): Promise<number> {
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

export async function showPersona({ service, operand, values, output }: PersonaCommand): Promise<number> {
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

export async function importPersona({
  service,
  operand: file,
  values,
  output,
  catalog,
}: PersonaCommand): Promise<number> {
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

export async function exportPersona({ service, operand: name, values, output }: PersonaCommand): Promise<number> {
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

export async function compilePersona({ service, operand: name, output, catalog }: PersonaCommand): Promise<number> {
  checkArguments('compile', 'personaCompile', { name });
  const compiled = await service.personaCompile({ name: name! });
  if (!compiled.ok) throw refusalError('compile', compiled.problems, describeArgumentProblem);
  await catalog.save();
  output.out(
    `compiled ${name}: the summary is about ${compiled.compiled.summaryTokens} tokens, the detail about ${compiled.compiled.detailTokens}; a run wearing it uses this summary until the next compile\n`,
  );
  return 0;
}

export async function manifestOf({ service, operand: name, output }: PersonaCommand): Promise<number> {
  checkArguments('manifest', 'personaManifest', { name });
  const manifest = await service.personaManifest({ name: name! });
  if (!manifest.ok) throw refusalError('manifest', manifest.problems, describeArgumentProblem);
  output.out(`${JSON.stringify(manifest.manifest)}\n`);
  return 0;
}

export async function wearPersona({
  service,
  operand: name,
  values,
  output,
  catalog,
}: PersonaCommand): Promise<number> {
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
