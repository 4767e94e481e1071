import {
  type Artifact,
  type ArtifactDraft,
  artifactDraftSchema,
  type ArtifactProvenance,
  artifactProvenanceSchema,
} from '#core/records/artifact.ts';
import type { AnimaDatabase, StoreTable } from './database.ts';

/** The tables a transaction that writes artifacts must hold (a cycle's, a restore's). */
export function artifactTables(db: AnimaDatabase): StoreTable<unknown, unknown>[] {
  return [db.artifacts, db.artifactBytes] as StoreTable<unknown, unknown>[];
}

/**
 * Keeps a tool's artifacts for the user, inside the caller's transaction (the cycle's), with
 * their provenance. One with the name of an artifact the same goal already has replaces it (a
 * goal's notes are rewritten as its findings grow), keeping when it was first made. The drafts
 * were checked when the tool returned them; they are checked again here, so nothing unchecked is
 * ever stored. Returns the stored artifacts.
 */
export async function putArtifacts(
  db: AnimaDatabase,
  sessionId: string,
  provenance: ArtifactProvenance,
  drafts: readonly ArtifactDraft[],
  now: number,
): Promise<Artifact[]> {
  const origin = artifactProvenanceSchema.parse(provenance);
  const checked = drafts.map((draft) => artifactDraftSchema.parse(draft));
  const existing = await artifactsOfGoal(db, sessionId, origin.goalId);
  const stored: Artifact[] = [];
  for (const { bytes, ...draft } of checked) {
    const previous = existing.find((artifact) => artifact.name === draft.name);
    const record: Artifact = {
      ...(previous?.id !== undefined ? { id: previous.id } : {}),
      sessionId,
      ...origin,
      ...draft,
      size: bytes.byteLength,
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    };
    const id = (await db.artifacts.put(record))!;
    await db.artifactBytes.put({ id, sessionId, bytes });
    stored.push({ ...record, id });
  }
  return stored;
}

/** A goal's artifacts, newest first (what they are, not their bytes). */
export async function artifactsOfGoal(db: AnimaDatabase, sessionId: string, goalId: number): Promise<Artifact[]> {
  return newestFirst(await db.artifacts.where('[sessionId+goalId]').equals([sessionId, goalId]).toArray());
}

/** A session's artifacts, newest first (what they are, not their bytes). */
export async function artifactsOfSession(db: AnimaDatabase, sessionId: string): Promise<Artifact[]> {
  return newestFirst(await db.artifacts.where('sessionId').equals(sessionId).toArray());
}

/** One artifact of a session with its bytes, or undefined when the session has none with this id. */
export async function readArtifact(
  db: AnimaDatabase,
  sessionId: string,
  id: number,
): Promise<{ artifact: Artifact; bytes: Uint8Array } | undefined> {
  return db.transaction('r', [db.artifacts, db.artifactBytes], async () => {
    const artifact = await db.artifacts.get(id);
    const stored = await db.artifactBytes.get(id);
    if (!artifact || artifact.sessionId !== sessionId || !stored) return undefined;
    return { artifact, bytes: stored.bytes };
  });
}

function newestFirst(artifacts: Artifact[]): Artifact[] {
  return artifacts.sort((a, b) => b.updatedAt - a.updatedAt || (b.id ?? 0) - (a.id ?? 0));
}
