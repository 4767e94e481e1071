import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describeProblem } from '../core/result.ts';
import { AnimaDatabase } from '../core/store/database.ts';
import { exportSnapshot, parseSnapshot, restoreSnapshot } from '../core/store/snapshot.ts';

/** A database for one CLI command: in memory (fake-indexeddb), filled from and saved to a snapshot file. */
export type CliDatabase = { db: AnimaDatabase; hadSnapshot: boolean };

/** Opens a fresh in-memory database and, when the snapshot file exists, restores it (checked first); without a path, an empty one. */
export async function openSnapshot(path: string | undefined): Promise<CliDatabase> {
  const db = new AnimaDatabase('anima-cli', { indexedDB: new IDBFactory(), IDBKeyRange });
  if (path === undefined || !existsSync(path)) return { db, hadSnapshot: false };
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new CliError(`${path}: not a readable snapshot (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = parseSnapshot(value);
  if (!parsed.ok) throw new CliError([`${path}: not a valid Anima snapshot:`, ...parsed.error.map((problem) => `  ${describeProblem(problem)}`)].join('\n'));
  await restoreSnapshot(db, parsed.value);
  return { db, hadSnapshot: true };
}

/** Saves the session to the snapshot file; writes a temporary file first so a crash never leaves half a snapshot. */
export async function saveSnapshot(db: AnimaDatabase, sessionId: string, path: string): Promise<void> {
  const snapshot = await exportSnapshot(db, sessionId);
  const temporary = `${path}.tmp-${process.pid}`;
  await writeFile(temporary, `${JSON.stringify(snapshot)}\n`);
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
