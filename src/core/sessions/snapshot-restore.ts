import { KnowledgeGraph } from '#core/kg/graph.ts';
import {
  ACTIVE_SESSION_KEY,
  type AnimaDatabase,
  deleteSessionRows,
  sessionTables,
  type StoreTable,
} from '#core/store/database.ts';
import { chunksOfGraph } from '#core/store/graph-chunks.ts';
import type { Artifact, ArtifactBytesRecord } from '#core/records/artifact.ts';
import { bytesFromBase64 } from '#core/base64.ts';
import { NUMBERED_PARTS, type NumberedPart, renumberSnapshot } from './snapshot-ids.ts';
import type { Snapshot, SnapshotArtifact } from './snapshot-format.ts';

/** Where a restore puts the snapshot: its own session id, name and times unless told otherwise (a copy is made now), and the catalog persona it wears. */
export type RestoreTarget = {
  sessionId?: string;
  name?: string;
  madeAt?: number;
  personaId?: number;
  activate?: boolean;
};

/** The tables of the snapshot's numbered parts. */
const numberedTables = (db: AnimaDatabase): Record<NumberedPart, StoreTable<{ id?: number }, number>> =>
  ({
    provenance: db.provenance,
    goals: db.goals,
    workingMemory: db.workingMemory,
    episodes: db.episodes,
    approvals: db.approvals,
    questions: db.questions,
    documents: db.documents,
    artifacts: db.artifacts,
    plans: db.plans,
    reflections: db.reflections,
    jobs: db.jobs,
  }) as never;

/** The highest id each numbered table holds (0 when empty): a restore numbers its rows after it. */
async function highestIds(db: AnimaDatabase): Promise<Record<NumberedPart, number>> {
  const tables = numberedTables(db);
  const highest = await Promise.all(
    NUMBERED_PARTS.map(async (part) => [part, Number((await tables[part].toCollection().lastKey()) ?? 0)] as const),
  );
  return Object.fromEntries(highest) as Record<NumberedPart, number>;
}

/**
 * Writes a checked snapshot as a session of the database, in one transaction: the rows get ids
 * after those the database holds (so it never collides with another session), and a session
 * with the same id is replaced whole. Returns the session's id.
 */
export async function restoreSnapshot(
  db: AnimaDatabase,
  snapshot: Snapshot,
  target: RestoreTarget = {},
): Promise<string> {
  const sessionId = target.sessionId ?? snapshot.session.id;
  // Renumbering may hash (an approval's digest), which cannot happen inside an IndexedDB
  // transaction: the ids are taken first, and the write checks that nobody took them since.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const bases = await highestIds(db);
    const renumbered = await renumberSnapshot(snapshot, (part, ordinal) => bases[part] + ordinal);
    const { symbolChunks, tripleChunks } = chunksOfGraph(
      KnowledgeGraph.from(renumbered.symbols, renumbered.triples),
      sessionId,
    );
    const isWritten = await db.transaction('rw', [...sessionTables(db), db.settings], async () => {
      const now = await highestIds(db);
      if (NUMBERED_PARTS.some((part) => now[part] !== bases[part])) return false;
      await deleteSessionRows(db, sessionId);
      const inSession = <T extends object>(rows: readonly T[]) => rows.map((row) => ({ ...row, sessionId }));
      await db.sessions.put({
        ...renumbered.session,
        id: sessionId,
        ...(target.name !== undefined ? { name: target.name } : {}),
        ...(target.madeAt !== undefined ? { createdAt: target.madeAt, updatedAt: target.madeAt } : {}),
        ...(target.personaId !== undefined ? { personaId: target.personaId } : {}),
      });
      await db.symbolChunks.bulkAdd(symbolChunks);
      await db.tripleChunks.bulkAdd(tripleChunks);
      await db.provenance.bulkAdd(inSession(renumbered.provenance));
      await db.goals.bulkAdd(inSession(renumbered.goals));
      await db.workingMemory.bulkAdd(inSession(renumbered.workingMemory));
      await db.cycles.bulkAdd(inSession(renumbered.cycles));
      await db.episodes.bulkAdd(inSession(renumbered.episodes));
      await db.psyches.bulkAdd(inSession(renumbered.psyches));
      await db.approvals.bulkAdd(inSession(renumbered.approvals));
      await db.questions.bulkAdd(inSession(renumbered.questions));
      await db.documents.bulkAdd(inSession(renumbered.documents));
      const artifacts = renumbered.artifacts.map((artifact) => storedArtifactOf(artifact, sessionId));
      await db.artifacts.bulkAdd(artifacts.map(({ artifact }) => artifact));
      await db.artifactBytes.bulkAdd(artifacts.map(({ bytes }) => bytes));
      await db.plans.bulkAdd(inSession(renumbered.plans));
      await db.reflections.bulkAdd(inSession(renumbered.reflections));
      await db.jobs.bulkAdd(inSession(renumbered.jobs));
      if (target.activate ?? true) await db.settings.put({ key: ACTIVE_SESSION_KEY, value: sessionId });
      return true;
    });
    if (isWritten) return sessionId;
  }
  throw new Error('the database kept changing while the snapshot was being written; try again');
}

/** A snapshot's artifact as the store keeps it: what it is (with its size), and its bytes apart. */
function storedArtifactOf(
  { text, base64, ...artifact }: SnapshotArtifact,
  sessionId: string,
): { artifact: Artifact; bytes: ArtifactBytesRecord } {
  // The snapshot's schema has checked that the one it has decodes.
  const bytes = text !== undefined ? new TextEncoder().encode(text) : bytesFromBase64(base64 ?? '')!;
  return {
    artifact: { ...artifact, sessionId, size: bytes.byteLength },
    bytes: { id: artifact.id, sessionId, bytes },
  };
}
