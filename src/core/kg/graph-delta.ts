import type { KgSymbol } from './symbol.ts';
import { type Triple, tripleKey } from './triple.ts';

/**
 * What a batch adds to, changes in or removes from the graph; written to storage before it is
 * applied in memory. Applied in this order: added triples are appended, updated ones changed in
 * place, then each removed triple's place is taken by the last triple (see {@link layoutAfter}).
 */
export type GraphDelta = {
  symbols: KgSymbol[];
  addedTriples: Triple[];
  updatedTriples: Triple[];
  removedTriples: Triple[];
};

/** Where a term stands in a triple: a predicate becomes a relation symbol, anything else an entity. */
export type TermRole = 'subject' | 'predicate' | 'object';

/**
 * What a batch and {@link layoutAfter} read of the graph they stage changes for: KnowledgeGraph
 * (graph.ts) has it all. An interface here, so that the graph can make batches without a cycle.
 */
export interface GraphLookup {
  readonly nextSymbolId: number;
  readonly tripleCount: number;
  symbol(id: number): KgSymbol | undefined;
  symbolByKey(key: string): KgSymbol | undefined;
  symbolByIri(iri: string): KgSymbol | undefined;
  symbolsNamed(name: string): KgSymbol[];
  triple(subject: number, predicate: number, object: number): Triple | undefined;
  tripleAt(position: number): Triple;
  positionOf(subject: number, predicate: number, object: number): number;
}

/**
 * Where triples will sit once a delta is applied to a graph (which it is not yet): the positions
 * whose content changes, with their new triple, and the new count. Storage rewrites only the
 * chunks of these positions.
 */
export function layoutAfter(graph: GraphLookup, delta: GraphDelta): { writes: Map<number, Triple>; count: number } {
  const writes = new Map<number, Triple>();
  let count = graph.tripleCount;
  for (const triple of delta.addedTriples) writes.set(count++, triple);
  for (const triple of delta.updatedTriples) {
    const position = graph.positionOf(triple.subject, triple.predicate, triple.object);
    if (position === -1)
      throw new Error(
        `update of a triple the graph does not hold: ${triple.subject} ${triple.predicate} ${triple.object}`,
      );
    writes.set(position, triple);
  }
  if (delta.removedTriples.length === 0) return { writes, count };
  // Where a triple sits when the graph's own index no longer says (it was added or moved in this
  // delta); only removals need it, so a pure addition (an import, a pull) skips its keys.
  const moved = new Map<string, number>();
  for (const [position, triple] of writes)
    if (position >= graph.tripleCount) moved.set(tripleKey(triple.subject, triple.predicate, triple.object), position);
  for (const triple of delta.removedTriples) {
    const key = tripleKey(triple.subject, triple.predicate, triple.object);
    const position = moved.get(key) ?? graph.positionOf(triple.subject, triple.predicate, triple.object);
    if (position === -1)
      throw new Error(
        `removal of a triple the graph does not hold: ${triple.subject} ${triple.predicate} ${triple.object}`,
      );
    const last = count - 1;
    if (position !== last) {
      const lastTriple = writes.get(last) ?? graph.tripleAt(last);
      writes.set(position, lastTriple);
      moved.set(tripleKey(lastTriple.subject, lastTriple.predicate, lastTriple.object), position);
    }
    writes.delete(last);
    moved.set(key, -1);
    count--;
  }
  return { writes, count };
}

/**
 * The symbols whose meaning vectors a stored delta changes: the subjects and objects of its added,
 * updated and removed triples. Added triples are noticed without help; pass these to
 * `SimilarityIndex.invalidate` (similarity.ts) when a delta raised confidences or removed triples.
 */
export function symbolsTouchedBy(delta: GraphDelta): Set<number> {
  const touched = new Set<number>();
  for (const triple of [...delta.addedTriples, ...delta.updatedTriples, ...delta.removedTriples]) {
    touched.add(triple.subject);
    touched.add(triple.object);
  }
  return touched;
}
