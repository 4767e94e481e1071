import { existsSync } from 'node:fs';
import { storedSecrets } from '#core/llm/stored-secrets.ts';
import { describeProblem } from '#core/result.ts';
import { checkSession } from '#core/sessions/session-check.ts';
import { exportSnapshot } from '#core/sessions/snapshot.ts';
import { restoreSnapshot } from '#core/sessions/snapshot-restore.ts';
import { SNAPSHOT_VERSION } from '#core/sessions/snapshot-format.ts';
import type { CliOutput } from '../output.ts';
import { CliError, openSnapshot, readSnapshotAt, writeSnapshotFile } from '../snapshot-file.ts';
import { quoteInput } from '#core/quote-input.ts';

/** The snapshot part of `anima --help`. */
export const SNAPSHOT_USAGE = `Snapshot files (.anima.json, or gzipped .anima.json.gz):
  anima snapshot verify FILE [--json]          its SHA-256, format version, every part and reference,
                 and the session's counters against its cycle log: exit 0 when whole, 1 when not
  anima snapshot migrate FILE [--output OUT] [--force]
                 rewrite an older format version as the current one (in place, or to OUT)
`;

type SnapshotOptions = { json?: boolean; output?: string; force?: boolean };

const usageError = (message: string) => new CliError(`${message}\n\n${SNAPSHOT_USAGE}`, 2);

/** Runs `anima snapshot verify|migrate FILE`. */
export async function runSnapshotCommand(
  command: string | undefined,
  file: string | undefined,
  values: SnapshotOptions,
  output: CliOutput,
): Promise<number> {
  if (command !== 'verify' && command !== 'migrate')
    throw usageError(`unknown command ${quoteInput(`snapshot ${command ?? ''}`)}`);
  if (file === undefined) throw usageError(`snapshot ${command}: which FILE?`);
  if (!existsSync(file)) throw new CliError(`${file}: no such file`);
  return command === 'verify' ? verify(file, values, output) : migrate(file, values, output);
}

async function verify(file: string, values: SnapshotOptions, output: CliOutput): Promise<number> {
  let read;
  try {
    read = await readSnapshotAt(file);
  } catch (error) {
    if (!(error instanceof CliError) || !values.json) throw error;
    output.out(`${JSON.stringify({ ok: false, problems: [error.message] })}\n`);
    return 1;
  }
  const { snapshot, fileVersion } = read;
  // The counters are checked as a restore leaves them: in a database of its own, in memory.
  const { db } = await openSnapshot(undefined);
  const sessionId = await restoreSnapshot(db, snapshot);
  const problems = await checkSession(db, sessionId);
  const summary = {
    session: snapshot.session.name,
    fileVersion,
    cycles: snapshot.session.cycle,
    goals: snapshot.goals.length,
    triples: snapshot.triples.length,
    ...(snapshot.persona ? { persona: snapshot.persona.persona.name } : {}),
  };
  if (values.json)
    output.out(
      `${JSON.stringify({ ok: problems.length === 0, ...summary, problems: problems.map(describeProblem) })}\n`,
    );
  else if (problems.length > 0)
    output.error(
      [
        `${file}: the snapshot reads, but its session is not whole:`,
        ...problems.map((problem) => `  ${describeProblem(problem)}`),
        '',
      ].join('\n'),
    );
  else {
    const persona = summary.persona ? `, wearing ${summary.persona}` : '';
    const migration =
      fileVersion < SNAPSHOT_VERSION
        ? ` (format version ${fileVersion}: \`anima snapshot migrate\` brings it to ${SNAPSHOT_VERSION})`
        : ` (format version ${fileVersion})`;
    output.out(
      `${file}: a whole Anima snapshot${migration}: session "${summary.session}", ${summary.cycles} cycles, ${summary.goals} goals, ${summary.triples} triples${persona}\n`,
    );
  }
  return problems.length === 0 ? 0 : 1;
}

async function migrate(file: string, values: SnapshotOptions, output: CliOutput): Promise<number> {
  const target = values.output ?? file;
  if (values.output !== undefined && existsSync(values.output) && !values.force)
    throw new CliError(`${values.output} exists; give --force to replace it`);
  const { snapshot, fileVersion } = await readSnapshotAt(file);
  if (fileVersion === SNAPSHOT_VERSION && target === file) {
    output.out(`${file}: already format version ${SNAPSHOT_VERSION}; nothing to do\n`);
    return 0;
  }
  // Through a database, as an import would: the rows are renumbered and the file written as any export.
  const { db } = await openSnapshot(undefined);
  const sessionId = await restoreSnapshot(db, snapshot);
  await writeSnapshotFile(await exportSnapshot(db, sessionId), target, await storedSecrets(db));
  output.out(`${target}: format version ${fileVersion} -> ${SNAPSHOT_VERSION}\n`);
  return 0;
}
