import { KnowledgeGraph, type GraphDelta } from '../kg/graph.ts';
import type { KgSymbol } from '../kg/symbol.ts';
import type { Triple } from '../kg/triple.ts';
import { type AnimaDatabase, type StoredSymbol, type StoredTriple, symbolsOfSession, triplesOfSession } from './database.ts';
import type { ProvenanceRecord } from './provenance.ts';

/** Loads a session's knowledge graph into memory. */
export async function loadGraph(db: AnimaDatabase, sessionId: string): Promise<KnowledgeGraph> {
  const [symbols, triples] = await db.transaction('r', db.symbols, db.triples, () =>
    Promise.all([symbolsOfSession(db, sessionId).toArray(), triplesOfSession(db, sessionId).toArray()]),
  );
  return KnowledgeGraph.from(symbols.map(withoutSession), triples.map(withoutSession));
}

/**
 * Stores a graph delta with the provenance record that explains it, in one transaction: all of
 * it, or (on any failure) none of it. Returns the delta with its triples stamped with that
 * provenance, ready to apply to the in-memory graph.
 */
export async function storeGraphDelta(
  db: AnimaDatabase,
  delta: GraphDelta,
  provenance: Omit<ProvenanceRecord, 'id'>,
): Promise<GraphDelta> {
  const { sessionId } = provenance;
  return db.transaction('rw', [db.symbols, db.triples, db.sessions, db.provenance], async () => {
    const provenanceId = (await db.provenance.add(provenance)) as number;
    const stamped: GraphDelta = {
      symbols: delta.symbols,
      addedTriples: delta.addedTriples.map((triple) => ({ ...triple, provenanceId })),
      updatedTriples: delta.updatedTriples.map((triple) => ({ ...triple, provenanceId })),
    };
    await db.symbols.bulkAdd(stamped.symbols.map((symbol): StoredSymbol => ({ ...symbol, sessionId })));
    await db.triples.bulkPut([...stamped.addedTriples, ...stamped.updatedTriples].map((triple): StoredTriple => ({ ...triple, sessionId })));
    await db.sessions.update(sessionId, { updatedAt: provenance.createdAt });
    return stamped;
  });
}

function withoutSession<T extends KgSymbol | Triple>(record: T & { sessionId: string }): T {
  const { sessionId: _sessionId, ...rest } = record;
  return rest as unknown as T;
}
