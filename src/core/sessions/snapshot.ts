import { z } from 'zod';
import { problemsFromZod, type Result } from '#core/result.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import { readGraphRows } from '#core/store/kg-repository.ts';
import { psycheHistory } from '#core/psyche/psyche-store.ts';
import { renumberSnapshot } from './snapshot-ids.ts';
import { personaBundleOf } from '#core/personas/persona-catalog-read.ts';
import {
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type Snapshot,
  type SnapshotArtifact,
  snapshotSchema,
} from './snapshot-format.ts';
import type { Artifact } from '#core/records/artifact.ts';
import { base64FromBytes } from '#core/base64.ts';

/**
 * Reads a session out of the database as a snapshot, in a stable order, each part's rows numbered
 * from 1; passing it through the schema also fixes the key order, so the same data always gives
 * the same JSON bytes.
 */
export async function exportSnapshot(db: AnimaDatabase, sessionId: string): Promise<Snapshot> {
  // Parsed again: renumbering rebuilds rows, and the schema puts their keys back in order.
  return snapshotSchema.parse(await renumberSnapshot(await readSession(db, sessionId), (_part, ordinal) => ordinal));
}

/**
 * {@link exportSnapshot} for a file about to be written: a row that breaks a rule the reader
 * checks (a field longer than it takes, say) is a problem at the place the reader would name,
 * instead of an error, and nothing is written.
 */
export async function exportCheckedSnapshot(db: AnimaDatabase, sessionId: string): Promise<Result<Snapshot>> {
  try {
    return { ok: true, value: await exportSnapshot(db, sessionId) };
  } catch (error) {
    if (error instanceof z.ZodError) return { ok: false, error: problemsFromZod(error) };
    throw error;
  }
}

/** A session as it is stored (rows keep their database ids), in the snapshot's shape; unchecked beyond each row's schema. */
export async function readSession(db: AnimaDatabase, sessionId: string): Promise<Snapshot> {
  // One read transaction: a cycle committing meanwhile is either wholly in the snapshot or not at all.
  const read = await db.transaction('r', db.tables, async () => {
    const session = await db.sessions.get(sessionId);
    if (!session) throw new Error(`no session with id ${sessionId}`);
    const stored = await Promise.all([
      readGraphRows(db, sessionId),
      db.provenance.where('sessionId').equals(sessionId).sortBy('id'),
      db.goals.where('sessionId').equals(sessionId).sortBy('id'),
      db.workingMemory.where('sessionId').equals(sessionId).sortBy('id'),
      db.cycles.where('[sessionId+cycle]').between([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER]).toArray(),
      db.episodes.where('sessionId').equals(sessionId).sortBy('id'),
      psycheHistory(db, sessionId),
      db.approvals.where('sessionId').equals(sessionId).sortBy('id'),
      db.questions.where('sessionId').equals(sessionId).sortBy('id'),
      db.documents.where('sessionId').equals(sessionId).sortBy('id'),
      db.artifacts.where('sessionId').equals(sessionId).sortBy('id'),
      db.artifactBytes.where('sessionId').equals(sessionId).toArray(),
      db.plans.where('sessionId').equals(sessionId).sortBy('id'),
      db.reflections
        .where('[sessionId+cycle]')
        .between([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER])
        .sortBy('id'),
      db.jobs.where('sessionId').equals(sessionId).sortBy('id'),
    ]);
    const persona = session.personaId !== undefined ? await db.personas.get(session.personaId) : undefined;
    return { session, stored, personaBundle: persona ? await personaBundleOf(db, persona) : undefined };
  });
  const [
    graph,
    provenance,
    goals,
    workingMemory,
    cycles,
    episodes,
    psyches,
    approvals,
    questions,
    documents,
    artifacts,
    artifactBytes,
    plans,
    reflections,
    jobs,
  ] = read.stored;
  const bytesById = new Map(artifactBytes.map((row) => [row.id, row.bytes]));
  const withoutSession = <T extends { sessionId: string }>({ sessionId: _sessionId, ...rest }: T) => rest;
  const { personaId: _personaId, ...sessionFields } = read.session;
  return snapshotSchema.parse({
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    session: sessionFields,
    ...(read.personaBundle ? { persona: read.personaBundle } : {}),
    symbols: graph.symbols,
    // In the order they were added, which a restore keeps.
    triples: graph.triples,
    provenance: provenance.map(withoutSession),
    goals: goals.map(withoutSession),
    workingMemory: workingMemory.map(withoutSession),
    cycles: cycles.map(withoutSession),
    episodes: episodes.map(withoutSession),
    // Row ids are local to a database: a version is known by its number.
    psyches: psyches.map(({ id: _id, ...version }) => withoutSession(version)),
    approvals: approvals.map(withoutSession),
    questions: questions.map(withoutSession),
    documents: documents.map(withoutSession),
    artifacts: artifacts.map((artifact) => {
      const bytes = bytesById.get(artifact.id!);
      if (!bytes) throw new Error(`the bytes of artifact ${artifact.id} (${artifact.name}) are missing`);
      return snapshotArtifactOf(artifact, bytes);
    }),
    plans: plans.map(withoutSession),
    reflections: reflections.map(withoutSession),
    // A taken job's result (a batch of embeddings, say) was given to its tool in that cycle: only what it did is kept.
    jobs: jobs.map(({ result, ...job }) => withoutSession(job.status === 'taken' ? job : { ...job, result })),
  });
}

/** An artifact as a snapshot carries it: text and JSON as text, other bytes as base64 (see snapshotArtifactSchema). */
function snapshotArtifactOf(
  { sessionId: _sessionId, size: _size, ...artifact }: Artifact,
  bytes: Uint8Array,
): SnapshotArtifact {
  const isText = artifact.kind === 'text' || artifact.kind === 'json';
  return {
    ...artifact,
    id: artifact.id!,
    ...(isText ? { text: new TextDecoder().decode(bytes) } : { base64: base64FromBytes(bytes) }),
  };
}
