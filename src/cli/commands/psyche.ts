import { readFile, stat, writeFile } from 'node:fs/promises';
import type { AgentApi } from '#core/api.ts';
import { psycheSizeProblem } from '#core/psyche/psyche-toml-read.ts';
import { describeProblem } from '#core/result.ts';
import { decodeUtf8Text } from '#core/text-bytes.ts';
import { type CliOutput, psycheReport } from '../output.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';
import { usageFor } from '../usage.ts';

/** `anima psyche ...`: check, import and export the psyche.toml the session wears. */
export const PSYCHE_COMMANDS: Record<string, SessionCommand> = {
  // Checking a psyche file needs no session: it is read over the default psyche, in a database of its own.
  'psyche check': { run: check, needsNoSnapshot: true },
  'psyche import': { run: importPsyche, createsSnapshot: true },
  'psyche export': { run: exportPsyche },
};

async function exportPsyche({ values, service, sessionId, output }: SessionContext): Promise<number> {
  const exported = await service.psycheExport({ sessionId });
  if (values.output) {
    await writeFile(values.output, exported.text);
    output.error(`anima: wrote the psyche to ${values.output}\n`);
  } else output.out(exported.text);
  return 0;
}

async function check({ name, operands, service, sessionId, output }: SessionContext): Promise<number> {
  const file = fileOperand(name, operands);
  const checked = await service.psycheCheck({ sessionId, toml: await readPsycheFile(file) });
  output.error(psycheReport(file, checked));
  if (!checked.ok) return 1;
  const { persona, archetypes, shadow } = checked.psyche;
  output.out(
    `${file}: a valid psyche: persona ${persona.name} (${persona.grammarPreference}), ${shadow.vetoPatterns.length} veto and ${shadow.biasPatterns.length} bias patterns, ` +
      `sage ${archetypes.sage} healer ${archetypes.healer} explorer ${archetypes.explorer} guardian ${archetypes.guardian}\n`,
  );
  return 0;
}

async function importPsyche({ name, operands, service, sessionId, output, save }: SessionContext): Promise<number> {
  const file = fileOperand(name, operands);
  const imported = await service.psycheImport({ sessionId, toml: await readPsycheFile(file), fileName: file });
  output.error(psycheReport(file, imported));
  if (!imported.ok) throw new CliError(`${file}: the psyche was not imported; the session is unchanged`);
  await save();
  output.out(
    `${file}: imported as psyche version ${imported.current.version} (persona ${imported.current.psyche.persona.name})\n`,
  );
  return 0;
}

function fileOperand(name: string, operands: string[]): string {
  const [file] = operands;
  if (!file) throw new CliError(`${name}: which FILE?\n\n${usageFor(name)}`, 2);
  return file;
}

/** `--psyche FILE`: imports it as the session's psyche before the run; a file that fails stops the run before anything changed. */
export async function wearPsyche(service: AgentApi, sessionId: string, file: string, output: CliOutput): Promise<void> {
  const imported = await service.psycheImport({ sessionId, toml: await readPsycheFile(file), fileName: file });
  output.error(psycheReport(file, imported));
  if (!imported.ok) throw new CliError(`${file}: the psyche was not imported; nothing was run`);
}

/** Reads a psyche.toml as UTF-8 text, or says why it cannot: unreadable, too large, or not UTF-8 (with the byte offset). */
async function readPsycheFile(file: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    const tooLarge = psycheSizeProblem((await stat(file)).size);
    if (tooLarge) throw new CliError(`${file}: error: ${describeProblem(tooLarge)}`);
    bytes = await readFile(file);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = decodeUtf8Text(bytes);
  if (!text.ok)
    throw new CliError(text.error.map((problem) => `${file}: error: ${describeProblem(problem)}`).join('\n'));
  return text.value;
}
