import { createWriteStream, existsSync } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { storedSecrets } from '#core/llm/stored-secrets.ts';
import { describeProblem, type Problem } from '#core/result.ts';
import type { Secret } from '#core/secrets.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { exportCheckedSnapshot } from '#core/sessions/snapshot.ts';
import { restoreSnapshot } from '#core/sessions/snapshot-restore.ts';
import type { Snapshot, SnapshotLimits } from '#core/sessions/snapshot-format.ts';
import { type ReadSnapshot, readSnapshotFile, snapshotFile } from '#core/sessions/snapshot-encoding.ts';

/** A database for one CLI command: in memory (fake-indexeddb), filled from and saved to a snapshot file. */
export type CliDatabase = { db: AnimaDatabase; hadSnapshot: boolean };

/** Opens a fresh in-memory database and, when the snapshot file exists, restores it (checked first); without a path, an empty one. */
export async function openSnapshot(path: string | undefined): Promise<CliDatabase> {
  const db = new AnimaDatabase('anima-cli', { indexedDB: new IDBFactory(), IDBKeyRange });
  if (path === undefined || !existsSync(path)) return { db, hadSnapshot: false };
  await restoreSnapshot(db, (await readSnapshotAt(path)).snapshot);
  return { db, hadSnapshot: true };
}

/** Reads and checks a snapshot file (plain or gzipped): its hash, format version and every part. */
export async function readSnapshotAt(path: string, limits?: SnapshotLimits): Promise<ReadSnapshot> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new CliError(`${path}: not a readable file (${error instanceof Error ? error.message : String(error)})`);
  }
  const read = await readSnapshotFile(bytes, limits);
  if (!read.ok)
    throw new CliError(
      [`${path}: not a valid Anima snapshot:`, ...read.error.map((problem) => `  ${describeProblem(problem)}`)].join(
        '\n',
      ),
    );
  return read.value;
}

/** Saves the session to the snapshot file (gzipped when its name ends in .gz); `secrets` are those the command was given (`--api-key`, `--base-url`). */
export async function saveSnapshot(
  db: AnimaDatabase,
  sessionId: string,
  path: string,
  secrets: readonly Secret[],
): Promise<void> {
  const snapshot = await exportCheckedSnapshot(db, sessionId);
  if (!snapshot.ok) throw notWritten(path, snapshot.error, 'the session breaks a rule of the snapshot format');
  await writeSnapshotFile(snapshot.value, path, [...secrets, ...(await storedSecrets(db))]);
}

/**
 * Writes a snapshot file, gzipped when its name ends in .gz. A snapshot the reader would refuse
 * (too large, nested too deeply) or that would carry one of the secrets is not written, in the
 * reader's words. The text goes, piece by piece, to a temporary file, renamed over the old one
 * once whole: a refusal, a full disk or a crash leaves the previous snapshot as it was.
 */
export async function writeSnapshotFile(
  snapshot: Snapshot,
  path: string,
  secrets: readonly Secret[],
  limits?: SnapshotLimits,
): Promise<void> {
  const file = await snapshotFile(snapshot, { secrets, limits });
  if (!file.ok) throw notWritten(path, file.error);
  const temporary = `${path}.tmp-${process.pid}`;
  try {
    const pieces = Readable.from(file.value.pieces());
    await (path.endsWith('.gz')
      ? pipeline(pieces, createGzip(), createWriteStream(temporary))
      : pipeline(pieces, createWriteStream(temporary)));
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw notWritten(path, [
      { message: `the snapshot could not be written (${error instanceof Error ? error.message : String(error)})` },
    ]);
  }
}

/** Why a snapshot file was not written (`because`, when the problems share a cause), each problem on its line. */
const notWritten = (path: string, problems: Problem[], because?: string) =>
  new CliError(
    [
      `${path}: not written, the file was left as it was${because ? `; ${because}` : ''}:`,
      ...problems.map((problem) => `  ${describeProblem(problem)}`),
    ].join('\n'),
  );

/** A failure to report to the user on stderr (no stack trace): bad input, missing file. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
