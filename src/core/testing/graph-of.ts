import { KnowledgeGraph } from '#core/kg/graph.ts';

/** A graph from facts written as labels, `[subject, predicate, object, confidence = 1]`, for tests. */
export function graphOf(facts: readonly (readonly [string, string, string, number?])[]): KnowledgeGraph {
  const graph = new KnowledgeGraph();
  const batch = graph.batch({ now: 1 });
  for (const [subject, predicate, object, confidence = 1] of facts)
    batch.assert(
      batch.resolve({ type: 'label', value: subject }, 'subject'),
      batch.resolve({ type: 'label', value: predicate }, 'predicate'),
      batch.resolve({ type: 'label', value: object }, 'object'),
      confidence,
    );
  graph.apply(batch.delta);
  return graph;
}
