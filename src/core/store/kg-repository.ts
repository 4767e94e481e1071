import type { GraphDelta } from '#core/kg/graph-delta.ts';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import type { KgSymbol } from '#core/kg/symbol.ts';
import type { Triple } from '#core/kg/triple.ts';
import { tripleAt } from '#core/kg/triple-columns.ts';
import { type AnimaDatabase, chunksOfSession } from './database.ts';
import { chunksForDelta, joinTripleChunks, type TripleChunkRecord } from './graph-chunks.ts';
import { type ChangeProvenance, DERIVATIONS_PER_RECORD } from '#core/kg/provenance.ts';

/** How far a graph load has got, in chunks of triples. */
export type GraphLoadProgress = { chunksRead: number; totalChunks: number };

const CHUNKS_PER_READ = 16;

/** Loads a session's knowledge graph into memory, reporting progress as its triple chunks arrive. */
export async function loadGraph(
  db: AnimaDatabase,
  sessionId: string,
  onProgress?: (progress: GraphLoadProgress) => void,
): Promise<KnowledgeGraph> {
  const { symbolChunks, tripleChunks } = await db.transaction('r', [db.symbolChunks, db.tripleChunks], async () => {
    const symbolChunks = await chunksOfSession(db.symbolChunks, sessionId).toArray();
    const keys = await chunksOfSession(db.tripleChunks, sessionId).primaryKeys();
    const tripleChunks: TripleChunkRecord[] = [];
    onProgress?.({ chunksRead: 0, totalChunks: keys.length });
    for (let start = 0; start < keys.length; start += CHUNKS_PER_READ) {
      const read = await db.tripleChunks.bulkGet(keys.slice(start, start + CHUNKS_PER_READ));
      for (const chunk of read) if (chunk) tripleChunks.push(chunk);
      onProgress?.({ chunksRead: tripleChunks.length, totalChunks: keys.length });
    }
    return { symbolChunks, tripleChunks };
  });
  const { columns, count } = joinTripleChunks(tripleChunks);
  return KnowledgeGraph.fromColumns(
    symbolChunks.flatMap((chunk) => chunk.symbols),
    columns,
    count,
  );
}

/**
 * A session's symbols (by id) and triples (in the order they were added) as records, read from
 * its chunks without building the graph and its indexes: what an export needs, at a fraction of
 * the memory. Call it inside a read transaction over the chunk tables.
 */
export async function readGraphRows(
  db: AnimaDatabase,
  sessionId: string,
): Promise<{ symbols: KgSymbol[]; triples: Triple[] }> {
  const [symbolChunks, tripleChunks] = await Promise.all([
    chunksOfSession(db.symbolChunks, sessionId).toArray(),
    chunksOfSession(db.tripleChunks, sessionId).toArray(),
  ]);
  const symbols = symbolChunks.flatMap((chunk) => chunk.symbols).sort((left, right) => left.id - right.id);
  const { columns, count } = joinTripleChunks(tripleChunks);
  return { symbols, triples: Array.from({ length: count }, (_, position) => tripleAt(columns, position)) };
}

/**
 * Stores a graph delta with the provenance that explains it, in one transaction: all of it, or
 * (on any failure) none of it. One record for the whole delta (an import), one per triple (a
 * removal with its reason), or one per batch (derivations, see ChangeProvenance). Only the chunks the delta touches are rewritten.
 * Returns the delta with its triples stamped with their provenance ids, ready to apply to the
 * graph (which must not change between this call and that apply).
 */
export async function storeGraphDelta(
  db: AnimaDatabase,
  change: GraphChangeToStore & {
    /** When it is stored: the session's updatedAt. */
    now: number;
    /** The session's prefixes, when the change declares new ones (an imported Turtle file's). */
    prefixes?: Record<string, string>;
  },
): Promise<GraphDelta> {
  const { sessionId, now, prefixes } = change;
  return db.transaction('rw', [db.symbolChunks, db.tripleChunks, db.sessions, db.provenance], async () => {
    const stamped = await writeGraphDelta(db, change);
    await db.sessions.update(sessionId, { updatedAt: now, ...(prefixes !== undefined ? { prefixes } : {}) });
    return stamped;
  });
}

/** A graph delta to store, with what explains it. */
export type GraphChangeToStore = {
  graph: KnowledgeGraph;
  sessionId: string;
  delta: GraphDelta;
  provenance: ChangeProvenance;
};

/**
 * The chunks and provenance of storeGraphDelta, inside a transaction the caller opened over the
 * symbol and triple chunks and the provenance (a cycle's, which writes its session once at its
 * end): a transaction nested in it costs a zone and a wait of its own.
 */
export async function writeGraphDelta(db: AnimaDatabase, change: GraphChangeToStore): Promise<GraphDelta> {
  const { graph, sessionId, delta, provenance } = change;
  // Removed triples get a record too: what took them out, and why.
  const changed = [...delta.addedTriples, ...delta.updatedTriples, ...delta.removedTriples];
  let idOf: (index: number) => number;
  if (typeof provenance === 'function') {
    const ids = (await db.provenance.bulkAdd(changed.map(provenance), { allKeys: true })) as number[];
    idOf = (index) => ids[index]!;
  } else if ('perBatch' in provenance) {
    const batches = Array.from({ length: Math.ceil(changed.length / DERIVATIONS_PER_RECORD) }, (_, batch) =>
      changed.slice(batch * DERIVATIONS_PER_RECORD, (batch + 1) * DERIVATIONS_PER_RECORD),
    );
    const ids = (await db.provenance.bulkAdd(batches.map(provenance.perBatch), { allKeys: true })) as number[];
    idOf = (index) => ids[Math.floor(index / DERIVATIONS_PER_RECORD)]!;
  } else {
    const id = (await db.provenance.add(provenance)) as number;
    idOf = () => id;
  }
  // Written out field by field: a spread of ten thousand triples is a hot path of a pull.
  const stampedTriples = changed.map(({ subject, predicate, object, confidence, createdAt }, index): Triple => ({
    subject,
    predicate,
    object,
    confidence,
    createdAt,
    provenanceId: idOf(index),
  }));
  const stamped: GraphDelta = {
    symbols: delta.symbols,
    addedTriples: stampedTriples.slice(0, delta.addedTriples.length),
    updatedTriples: stampedTriples.slice(
      delta.addedTriples.length,
      delta.addedTriples.length + delta.updatedTriples.length,
    ),
    removedTriples: delta.removedTriples,
  };
  const { symbolChunks, tripleChunks, emptiedChunkIndexes } = chunksForDelta(graph, sessionId, stamped);
  // A write of nothing is still a request: most cycles add no symbols.
  if (symbolChunks.length > 0) await db.symbolChunks.bulkPut(symbolChunks);
  if (tripleChunks.length > 0) await db.tripleChunks.bulkPut(tripleChunks);
  if (emptiedChunkIndexes.length > 0)
    await db.tripleChunks.bulkDelete(emptiedChunkIndexes.map((index): [string, number] => [sessionId, index]));
  return stamped;
}
