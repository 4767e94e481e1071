import { defaultPsyche, type Psyche } from '#core/records/psyche.ts';
import type { PsycheVersion } from '#core/records/psyche-version.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import type { MirroredRead } from '#core/store/row-mirror.ts';

/** What the current psyche is when a session has stored none: the default, as version 1 (stored as such with the first change, so the history never skips a number). */
function defaultVersion(sessionId: string): PsycheVersion {
  return { sessionId, version: 1, psyche: defaultPsyche(), cycle: 0, reason: 'the default psyche', createdAt: 0 };
}

/** The session's current psyche: its highest stored version, or the default (version 1, not stored). */
export async function currentPsyche(db: AnimaDatabase, sessionId: string): Promise<PsycheVersion> {
  return psycheOrDefault(sessionId, await latestStoredPsyche(db, sessionId));
}

function latestStoredPsyche(db: AnimaDatabase, sessionId: string): Promise<PsycheVersion | undefined> {
  return db.psyches.where('[sessionId+version]').between([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER]).last();
}

/** The psyche of a session with the given highest stored version (none: the default). */
export function psycheOrDefault(sessionId: string, latest: PsycheVersion | undefined): PsycheVersion {
  return latest ?? defaultVersion(sessionId);
}

/** The read of a session's highest stored psyche version, as the database's mirror keeps it. */
export function latestPsycheRead(db: AnimaDatabase, sessionId: string): MirroredRead<PsycheVersion> {
  return {
    key: `latest-psyche:${sessionId}`,
    table: 'psyches',
    matches: (row) => row.sessionId === sessionId,
    newest: { count: 1, rank: (row) => row.version },
    order: (a, b) => a.version - b.version,
    load: async () => {
      const latest = await latestStoredPsyche(db, sessionId);
      return latest ? [latest] : [];
    },
  };
}

/** Every stored version, oldest first. */
export function psycheHistory(db: AnimaDatabase, sessionId: string): Promise<PsycheVersion[]> {
  return db.psyches
    .where('[sessionId+version]')
    .between([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER])
    .toArray();
}

/**
 * Stores a psyche as the session's next version; call inside a transaction over psyches. When the
 * session had none stored, the default is stored first as version 1, so history starts where the
 * agent started.
 */
export async function addPsycheVersion(
  db: AnimaDatabase,
  change: { sessionId: string; psyche: Psyche; cycle: number; reason: string; now: number },
): Promise<PsycheVersion> {
  let current = await currentPsyche(db, change.sessionId);
  if (current.id === undefined) {
    current = { ...current, createdAt: change.now };
    await db.psyches.add(current);
  }
  const version: PsycheVersion = {
    sessionId: change.sessionId,
    version: current.version + 1,
    psyche: change.psyche,
    cycle: change.cycle,
    reason: change.reason,
    createdAt: change.now,
  };
  version.id = (await db.psyches.add(version)) as number;
  return version;
}

/** Counts a shadow encounter on the current version in place (stored first if it was the default); call inside a transaction over psyches. */
export async function countShadowEncounter(db: AnimaDatabase, sessionId: string, now: number): Promise<void> {
  const current = await currentPsyche(db, sessionId);
  const self = current.psyche.selfIntegration;
  const psyche: Psyche = {
    ...current.psyche,
    selfIntegration: { ...self, shadowEncounters: self.shadowEncounters + 1 },
  };
  if (current.id === undefined) await db.psyches.add({ ...current, version: 1, psyche, createdAt: now });
  else await db.psyches.put({ ...current, psyche });
}
