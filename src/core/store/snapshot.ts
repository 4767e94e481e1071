import { z } from 'zod';
import { symbolKey, symbolSchema } from '../kg/symbol.ts';
import { tripleSchema } from '../kg/triple.ts';
import { type Problem, problemsFromZod, type Result } from '../result.ts';
import { KnowledgeGraph } from '../kg/graph.ts';
import { ACTIVE_SESSION_KEY, type AnimaDatabase, chunksOfSession } from './database.ts';
import { chunksOfGraph } from './graph-chunks.ts';
import { loadGraph } from './kg-repository.ts';
import { provenanceRecordSchema } from './provenance.ts';
import { sessionRecordSchema } from './session.ts';

/**
 * A session snapshot: one JSON document holding a whole session. This first version holds the
 * session and its knowledge graph with provenance; the sessions issue adds the rest (and a hash).
 */
export const SNAPSHOT_FORMAT = 'anima-snapshot';
export const SNAPSHOT_VERSION = 1;

export const snapshotSchema = z
  .object({
    format: z.literal(SNAPSHOT_FORMAT),
    version: z.literal(SNAPSHOT_VERSION),
    session: sessionRecordSchema,
    symbols: z.array(symbolSchema.strict()),
    triples: z.array(tripleSchema.strict()),
    provenance: z.array(provenanceRecordSchema.omit({ sessionId: true }).extend({ id: z.number().int() }).strict()),
  })
  .strict();
export type Snapshot = z.infer<typeof snapshotSchema>;

/**
 * Reads a session out of the database as a snapshot, in a stable order; passing it through the
 * schema also fixes the key order, so the same data always gives the same JSON bytes.
 */
export async function exportSnapshot(db: AnimaDatabase, sessionId: string): Promise<Snapshot> {
  const session = await db.sessions.get(sessionId);
  if (!session) throw new Error(`no session with id ${sessionId}`);
  const [graph, provenance] = await Promise.all([loadGraph(db, sessionId), db.provenance.where('sessionId').equals(sessionId).sortBy('id')]);
  return snapshotSchema.parse({
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    session,
    symbols: [...graph.symbols()].sort((a, b) => a.id - b.id),
    // In the order they were added, which a restore keeps.
    triples: [...graph.triples()],
    provenance: provenance.map(({ sessionId: _sessionId, ...record }) => record),
  });
}

/**
 * Checks a snapshot completely (shape, then references between its parts) before anything is
 * written. Problems name the place: `symbols.3.label: ...`, `triples.10: subject 99 is not a symbol`.
 */
export function parseSnapshot(value: unknown): Result<Snapshot> {
  const parsed = snapshotSchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: problemsFromZod(parsed.error) };
  const snapshot = parsed.data;
  const problems: Problem[] = [];
  const symbolIds = new Set<number>();
  const symbolKeys = new Set<string>();
  const iris = new Set<string>();
  for (const [index, symbol] of snapshot.symbols.entries()) {
    if (symbolIds.has(symbol.id)) problems.push({ path: `symbols.${index}.id`, message: `symbol id ${symbol.id} appears twice` });
    symbolIds.add(symbol.id);
    if (symbol.kind !== 'literal' && symbol.label === '') problems.push({ path: `symbols.${index}.label`, message: 'only a literal may have an empty label' });
    const key = symbolKey(symbol);
    if (symbolKeys.has(key)) problems.push({ path: `symbols.${index}.label`, message: `another symbol is already labelled "${symbol.label}" (labels are unique, ignoring case)` });
    symbolKeys.add(key);
    if (symbol.iri !== undefined && iris.has(symbol.iri)) problems.push({ path: `symbols.${index}.iri`, message: `another symbol already has the IRI ${symbol.iri}` });
    if (symbol.iri !== undefined) iris.add(symbol.iri);
  }
  const provenanceIds = new Set<number>();
  for (const [index, record] of snapshot.provenance.entries()) {
    if (provenanceIds.has(record.id)) problems.push({ path: `provenance.${index}.id`, message: `provenance id ${record.id} appears twice` });
    provenanceIds.add(record.id);
  }
  const tripleKeys = new Set<string>();
  for (const [index, triple] of snapshot.triples.entries()) {
    for (const position of ['subject', 'predicate', 'object'] as const) {
      if (!symbolIds.has(triple[position])) problems.push({ path: `triples.${index}.${position}`, message: `${triple[position]} is not a symbol of this snapshot` });
    }
    const key = `${triple.subject} ${triple.predicate} ${triple.object}`;
    if (tripleKeys.has(key)) problems.push({ path: `triples.${index}`, message: 'this triple appears twice' });
    tripleKeys.add(key);
    if (triple.provenanceId !== undefined && !provenanceIds.has(triple.provenanceId))
      problems.push({ path: `triples.${index}.provenanceId`, message: `${triple.provenanceId} is not a provenance record of this snapshot` });
    if (problems.length >= 20) break;
  }
  return problems.length > 0 ? { ok: false, error: problems } : { ok: true, value: snapshot };
}

/**
 * Writes a checked snapshot as a session of the database, in one transaction, and makes it the
 * active session. A session with the same id is replaced whole.
 */
export async function restoreSnapshot(db: AnimaDatabase, snapshot: Snapshot): Promise<void> {
  const sessionId = snapshot.session.id;
  const { symbolChunks, tripleChunks } = chunksOfGraph(KnowledgeGraph.from(snapshot.symbols, snapshot.triples), sessionId);
  await db.transaction('rw', [db.sessions, db.symbolChunks, db.tripleChunks, db.provenance, db.settings], async () => {
    await chunksOfSession(db.symbolChunks, sessionId).delete();
    await chunksOfSession(db.tripleChunks, sessionId).delete();
    await db.provenance.where('sessionId').equals(sessionId).delete();
    await db.sessions.put(snapshot.session);
    await db.symbolChunks.bulkAdd(symbolChunks);
    await db.tripleChunks.bulkAdd(tripleChunks);
    await db.provenance.bulkAdd(snapshot.provenance.map((record) => ({ ...record, sessionId })));
    await db.settings.put({ key: ACTIVE_SESSION_KEY, value: sessionId });
  });
}
