import { z } from 'zod';
import { symbolKey } from '#core/kg/symbol.ts';
import { type Problem, problemsFromZod, type Result } from '#core/result.ts';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import {
  ACTIVE_SESSION_KEY,
  type AnimaDatabase,
  deleteSessionRows,
  sessionTables,
  type StoreTable,
} from '#core/store/database.ts';
import { relabelNumberedNames } from '#core/kg/numbered-names.ts';
import { chunksOfGraph } from '#core/store/graph-chunks.ts';
import { readGraphRows } from '#core/store/kg-repository.ts';
import { psycheHistory } from '#core/psyche/psyche-store.ts';
import { NUMBERED_PARTS, type NumberedPart, renumberSnapshot } from './snapshot-ids.ts';
import { personaBundleOf } from '#core/personas/persona-catalog-read.ts';
import {
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type Snapshot,
  type SnapshotArtifact,
  snapshotSchema,
} from './snapshot-format.ts';
import type { Artifact, ArtifactBytesRecord } from '#core/records/artifact.ts';
import { base64FromBytes, bytesFromBase64 } from '#core/base64.ts';

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

/**
 * Checks a snapshot completely (shape, then references between its parts) before anything is
 * written. Problems name the place: `symbols.3.label: ...`, `triples.10: subject 99 is not a symbol`.
 */
export function parseSnapshot(value: unknown): Result<Snapshot> {
  const parsed = snapshotSchema.safeParse(migrateSnapshot(value));
  if (!parsed.success) return { ok: false, error: problemsFromZod(parsed.error) };
  const snapshot = parsed.data;
  const problems: Problem[] = [];
  const symbolIds = new Set<number>();
  const symbolKeys = new Set<string>();
  const iris = new Set<string>();
  for (const [index, symbol] of snapshot.symbols.entries()) {
    if (symbolIds.has(symbol.id))
      problems.push({ path: `symbols.${index}.id`, message: `symbol id ${symbol.id} appears twice` });
    symbolIds.add(symbol.id);
    if (symbol.kind !== 'literal' && symbol.label === '')
      problems.push({ path: `symbols.${index}.label`, message: 'only a literal may have an empty label' });
    const key = symbolKey(symbol);
    if (symbolKeys.has(key))
      problems.push({
        path: `symbols.${index}.label`,
        message: `another symbol is already labelled "${symbol.label}" (labels are unique, ignoring case)`,
      });
    symbolKeys.add(key);
    if (symbol.iri !== undefined && iris.has(symbol.iri))
      problems.push({ path: `symbols.${index}.iri`, message: `another symbol already has the IRI ${symbol.iri}` });
    if (symbol.iri !== undefined) iris.add(symbol.iri);
  }
  const provenanceIds = new Set<number>();
  for (const [index, record] of snapshot.provenance.entries()) {
    if (provenanceIds.has(record.id))
      problems.push({ path: `provenance.${index}.id`, message: `provenance id ${record.id} appears twice` });
    provenanceIds.add(record.id);
  }
  const tripleKeys = new Set<string>();
  for (const [index, triple] of snapshot.triples.entries()) {
    for (const position of ['subject', 'predicate', 'object'] as const) {
      if (!symbolIds.has(triple[position]))
        problems.push({
          path: `triples.${index}.${position}`,
          message: `${triple[position]} is not a symbol of this snapshot`,
        });
    }
    const key = `${triple.subject} ${triple.predicate} ${triple.object}`;
    if (tripleKeys.has(key)) problems.push({ path: `triples.${index}`, message: 'this triple appears twice' });
    tripleKeys.add(key);
    if (triple.provenanceId !== undefined && !provenanceIds.has(triple.provenanceId))
      problems.push({
        path: `triples.${index}.provenanceId`,
        message: `${triple.provenanceId} is not a provenance record of this snapshot`,
      });
    if (problems.length >= 20) break;
  }
  const goalIds = new Set(snapshot.goals.map((goal) => goal.id));
  for (const [index, goal] of snapshot.goals.entries()) {
    if (goal.parentId !== undefined && !goalIds.has(goal.parentId))
      problems.push({ path: `goals.${index}.parentId`, message: `${goal.parentId} is not a goal of this snapshot` });
    for (const [findingIndex, finding] of goal.findings.entries())
      if (finding.some((id) => !symbolIds.has(id)))
        problems.push({
          path: `goals.${index}.findings.${findingIndex}`,
          message: 'names a symbol that is not in this snapshot',
        });
    for (const [entityIndex, entity] of (goal.answer?.entities ?? []).entries())
      if (!symbolIds.has(entity.symbol))
        problems.push({
          path: `goals.${index}.answer.entities.${entityIndex}`,
          message: `${entity.symbol} is not a symbol of this snapshot`,
        });
    for (const [proofIndex, fact] of (goal.answer?.proof ?? []).entries())
      if (fact.some((id) => !symbolIds.has(id)))
        problems.push({
          path: `goals.${index}.answer.proof.${proofIndex}`,
          message: 'names a symbol that is not in this snapshot',
        });
    if (problems.length >= 20) break;
  }
  for (const [index, record] of snapshot.cycles.entries())
    if (!goalIds.has(record.goalId))
      problems.push({ path: `cycles.${index}.goalId`, message: `${record.goalId} is not a goal of this snapshot` });
  const versions = new Set<number>();
  for (const [index, version] of snapshot.psyches.entries()) {
    if (versions.has(version.version))
      problems.push({ path: `psyches.${index}.version`, message: `psyche version ${version.version} appears twice` });
    versions.add(version.version);
  }
  for (const [index, approval] of snapshot.approvals.entries())
    if (!goalIds.has(approval.goalId))
      problems.push({
        path: `approvals.${index}.goalId`,
        message: `${approval.goalId} is not a goal of this snapshot`,
      });
  for (const [index, question] of snapshot.questions.entries())
    if (!goalIds.has(question.goalId))
      problems.push({
        path: `questions.${index}.goalId`,
        message: `${question.goalId} is not a goal of this snapshot`,
      });
  for (const [index, artifact] of snapshot.artifacts.entries())
    if (!goalIds.has(artifact.goalId))
      problems.push({
        path: `artifacts.${index}.goalId`,
        message: `${artifact.goalId} is not a goal of this snapshot`,
      });
  for (const [index, plan] of snapshot.plans.entries())
    if (!goalIds.has(plan.goalId))
      problems.push({ path: `plans.${index}.goalId`, message: `${plan.goalId} is not a goal of this snapshot` });
  // Row ids are primary keys: a repeat would make the restore fail half way (it is one transaction, but say why).
  const rows = {
    goals: snapshot.goals,
    workingMemory: snapshot.workingMemory,
    episodes: snapshot.episodes,
    approvals: snapshot.approvals,
    questions: snapshot.questions,
    documents: snapshot.documents,
    artifacts: snapshot.artifacts,
    plans: snapshot.plans,
    reflections: snapshot.reflections,
  };
  for (const [table, records] of Object.entries(rows)) {
    const seen = new Set<number>();
    for (const [index, record] of records.entries()) {
      if (seen.has(record.id))
        problems.push({ path: `${table}.${index}.id`, message: `id ${record.id} appears twice` });
      seen.add(record.id);
    }
  }
  const approvalIds = new Set(snapshot.approvals.map((approval) => approval.id));
  for (const [index, record] of snapshot.cycles.entries())
    if (record.shadow?.approvalId !== undefined && !approvalIds.has(record.shadow.approvalId))
      problems.push({
        path: `cycles.${index}.shadow.approvalId`,
        message: `${record.shadow.approvalId} is not an approval of this snapshot`,
      });
  return problems.length > 0
    ? { ok: false, error: problems.slice(0, 20) }
    : { ok: true, value: withNamedSymbols(snapshot) };
}

/** A snapshot whose symbols an older Anima numbered (Mammal-2) with them named as imports name them now (see relabelNumberedNames). */
function withNamedSymbols(snapshot: Snapshot): Snapshot {
  if (!snapshot.symbols.some((symbol) => symbol.kind !== 'literal' && /-\d+$/u.test(symbol.label))) return snapshot;
  const relabelled = new Map(
    relabelNumberedNames(KnowledgeGraph.from(snapshot.symbols, snapshot.triples)).map((symbol) => [symbol.id, symbol]),
  );
  return relabelled.size === 0
    ? snapshot
    : { ...snapshot, symbols: snapshot.symbols.map((symbol) => relabelled.get(symbol.id) ?? symbol) };
}

/** Brings an older snapshot to the current version, step by step; anything else passes unchanged (and fails the schema). */
function migrateSnapshot(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || (value as { format?: unknown }).format !== SNAPSHOT_FORMAT)
    return value;
  const snapshot = value as Record<string, unknown>;
  let migrated = snapshot;
  // 1 -> 2: sessions gained goals, working memory and the cycle log; a version 1 session had none.
  if (migrated.version === 1) migrated = { ...migrated, version: 2, goals: [], workingMemory: [], cycles: [] };
  // 2 -> 3: sessions gained episodes; a version 2 session had none.
  if (migrated.version === 2) migrated = { ...migrated, version: 3, episodes: [] };
  // 3 -> 4: sessions gained a psyche history and approvals; a version 3 session wore the default psyche.
  if (migrated.version === 3) migrated = { ...migrated, version: 4, psyches: [], approvals: [] };
  // 4 -> 5: sessions gained the agent's questions; a version 4 session had asked none.
  if (migrated.version === 4) migrated = { ...migrated, version: 5, questions: [] };
  // 5 -> 6: sessions gained imported documents; a version 5 session had none.
  if (migrated.version === 5) migrated = { ...migrated, version: 6, documents: [] };
  // 6 -> 7: sessions gained the agent's scratch notes; a version 6 session had written none.
  if (migrated.version === 6) migrated = { ...migrated, version: 7, notes: [] };
  // 7 -> 8: sessions gained plans and reflections; a version 7 session had made none (its goals plan afresh).
  if (migrated.version === 7) migrated = { ...migrated, version: 8, plans: [], reflections: [] };
  // 8 -> 9: sessions gained the persona they wear; a version 8 file carried none (its rows' ids are renumbered on restore).
  if (migrated.version === 8) migrated = { ...migrated, version: 9 };
  // 9 -> 10: goals gained the answer to the question they ask; a version 9 goal has none yet, and a
  // goal whose description asks a question is read and answered on its next cycle.
  if (migrated.version === 9) migrated = { ...migrated, version: 10 };
  // 10 -> 11: cycle records gained the evidence of a refused action and their child runs, approvals a red
  // team's finding; a version 10 session kept none of them.
  if (migrated.version === 10) migrated = { ...migrated, version: 11 };
  // 11 -> 12: the scratch notes became artifacts of every kind; a note is file_io's text artifact.
  if (migrated.version === 11) {
    const { notes, ...rest } = migrated;
    migrated = {
      ...rest,
      version: 12,
      artifacts: Array.isArray(notes) ? notes.map(artifactOfNote) : notes,
    };
  }
  return migrated;
}

/** A version 11 note as a version 12 artifact; a note that is not an object is left for the schema to refuse. */
function artifactOfNote(note: unknown): unknown {
  if (typeof note !== 'object' || note === null) return note;
  const { findingsNoted: _findingsNoted, text, ...rest } = note as Record<string, unknown>;
  return { ...rest, tool: 'file_io', kind: 'text', text };
}

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
      if (target.activate ?? true) await db.settings.put({ key: ACTIVE_SESSION_KEY, value: sessionId });
      return true;
    });
    if (isWritten) return sessionId;
  }
  throw new Error('the database kept changing while the snapshot was being written; try again');
}
