import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { storedSecrets } from '../core/llm/stored-secrets.ts';
import { describeProblem } from '../core/result.ts';
import type { Secret } from '../core/secrets.ts';
import { AnimaDatabase } from '../core/store/database.ts';
import { exportSnapshot, restoreSnapshot, type Snapshot } from '../core/store/snapshot.ts';
import { type ReadSnapshot, readSnapshotFile, snapshotFileBytes } from '../core/store/snapshot-file.ts';

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
export async function readSnapshotAt(path: string): Promise<ReadSnapshot> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new CliError(`${path}: not a readable file (${error instanceof Error ? error.message : String(error)})`);
  }
  const read = await readSnapshotFile(bytes);
  if (!read.ok) throw new CliError([`${path}: not a valid Anima snapshot:`, ...read.error.map((problem) => `  ${describeProblem(problem)}`)].join('\n'));
  return read.value;
}

/** Saves the session to the snapshot file (gzipped when its name ends in .gz); `secrets` are those the command was given (`--api-key`, `--base-url`). */
export async function saveSnapshot(db: AnimaDatabase, sessionId: string, path: string, secrets: readonly Secret[]): Promise<void> {
  await writeSnapshotFile(await exportSnapshot(db, sessionId), path, [...secrets, ...(await storedSecrets(db))]);
}

/**
 * Writes a snapshot file, gzipped when its name ends in .gz; a temporary file first, so a crash
 * never leaves half a snapshot. Nothing is written when it would carry one of the secrets.
 */
export async function writeSnapshotFile(snapshot: Snapshot, path: string, secrets: readonly Secret[]): Promise<void> {
  const bytes = await snapshotFileBytes(snapshot, { gzip: path.endsWith('.gz'), secrets });
  if (!bytes.ok) throw new CliError([`${path}: not written:`, ...bytes.error.map((problem) => `  ${describeProblem(problem)}`)].join('\n'));
  const temporary = `${path}.tmp-${process.pid}`;
  await writeFile(temporary, bytes.value);
  await rename(temporary, path);
}

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
