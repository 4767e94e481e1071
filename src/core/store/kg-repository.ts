import { KnowledgeGraph, type GraphDelta } from '../kg/graph.ts';
import type { KgSymbol } from '../kg/symbol.ts';
import type { Triple } from '../kg/triple.ts';
import { type AnimaDatabase, type StoredSymbol, type StoredTriple, symbolsOfSession, triplesOfSession } from './database.ts';
import type { ProvenanceDraft } from './provenance.ts';

/** Loads a session's knowledge graph into memory. */
export async function loadGraph(db: AnimaDatabase, sessionId: string): Promise<KnowledgeGraph> {
  const [symbols, triples] = await db.transaction('r', db.symbols, db.triples, () =>
    Promise.all([symbolsOfSession(db, sessionId).toArray(), triplesOfSession(db, sessionId).toArray()]),
  );
  return KnowledgeGraph.from(symbols.map(withoutSession), triples.map(withoutSession));
}

/**
 * Stores a graph delta with the provenance that explains it, in one transaction: all of it, or
 * (on any failure) none of it. One record for the whole delta (an import), or one per triple (a
 * derivation with its own rule and premises). Returns the delta with its triples stamped with
 * their provenance ids, ready to apply to the in-memory graph.
 */
export async function storeGraphDelta(
  db: AnimaDatabase,
  change: { sessionId: string; delta: GraphDelta; provenance: ProvenanceDraft | ((triple: Triple) => ProvenanceDraft); now: number },
): Promise<GraphDelta> {
  const { sessionId, delta, provenance, now } = change;
  return db.transaction('rw', [db.symbols, db.triples, db.sessions, db.provenance], async () => {
    const changed = [...delta.addedTriples, ...delta.updatedTriples];
    let idOf: (index: number) => number;
    if (typeof provenance === 'function') {
      const ids = (await db.provenance.bulkAdd(changed.map(provenance), { allKeys: true })) as number[];
      idOf = (index) => ids[index]!;
    } else {
      const id = (await db.provenance.add(provenance)) as number;
      idOf = () => id;
    }
    const stamped = changed.map((triple, index) => ({ ...triple, provenanceId: idOf(index) }));
    await db.symbols.bulkAdd(delta.symbols.map((symbol): StoredSymbol => ({ ...symbol, sessionId })));
    await db.triples.bulkPut(stamped.map((triple): StoredTriple => ({ ...triple, sessionId })));
    await db.sessions.update(sessionId, { updatedAt: now });
    return { symbols: delta.symbols, addedTriples: stamped.slice(0, delta.addedTriples.length), updatedTriples: stamped.slice(delta.addedTriples.length) };
  });
}

function withoutSession<T extends KgSymbol | Triple>(record: T & { sessionId: string }): T {
  const { sessionId: _sessionId, ...rest } = record;
  return rest as unknown as T;
}
