import { DataFactory, type Quad, Store, type Term } from 'n3';
import type { BenchEngine, QueryName } from '../engine.ts';
import { type GeneratedGraph, type QueryPlan, XSD_INTEGER } from '../generate-graph.ts';

/**
 * N3.js `Store`, in memory: quads added one by one with DataFactory terms; query 1 and the join
 * with getQuads (a nested-loop join, the way N3 users write it); the closure breadth-first with
 * getSubjects.
 */
export function createEngine(): BenchEngine {
  let store: Store | undefined;
  const { namedNode, literal } = DataFactory;
  const integer = namedNode(XSD_INTEGER);

  const openStore = (): Store => {
    if (!store) throw new Error('n3: no store is held');
    return store;
  };

  return {
    name: 'n3',
    isPersistent: false,

    async importGraph(generated: GeneratedGraph): Promise<undefined> {
      const { terms, isLiteral, subjects, predicates, objects, count } = generated;
      const building = new Store();
      for (let position = 0; position < count; position++) {
        const object = objects[position]!;
        building.addQuad(
          namedNode(terms[subjects[position]!]!),
          namedNode(terms[predicates[position]!]!),
          isLiteral[object] === 1 ? literal(terms[object]!, integer) : namedNode(terms[object]!),
        );
      }
      if (building.size !== count) throw new Error(`n3 holds ${building.size} quads of ${count}`);
      store = building;
      return undefined;
    },

    async deleteStore(): Promise<void> {
      store = undefined;
    },

    async run(query: QueryName, plan: QueryPlan): Promise<number> {
      const current = openStore();
      const isA = namedNode(plan.isA);
      // RDFS says is-a with two predicates: each pattern asks both.
      const isAs = plan.instanceOf === plan.isA ? [isA] : [isA, namedNode(plan.instanceOf)];
      const isAQuads = (object: Term) => isAs.flatMap((predicate) => current.getQuads(null, predicate, object, null));
      switch (query) {
        case 'query1':
          return isAQuads(namedNode(plan.leafClass)).map((quad: Quad) => ({ x: quad.subject })).length;
        case 'query2': {
          const rows: { x: Term; y: Term }[] = [];
          for (const outer of isAQuads(namedNode(plan.middleClass))) {
            for (const inner of isAQuads(outer.subject)) rows.push({ x: inner.subject, y: outer.subject });
          }
          return rows.length;
        }
        case 'closure': {
          const target = namedNode(plan.closureClass);
          const reached = new Set<string>([target.value]);
          const order: Term[] = [];
          let frontier: Term[] = [target];
          while (frontier.length > 0) {
            const next: Term[] = [];
            for (const object of frontier) {
              for (const subject of current.getSubjects(isA, object, null)) {
                if (reached.has(subject.value)) continue;
                reached.add(subject.value);
                order.push(subject);
                next.push(subject);
              }
              // RDFS: an instance (rdf:type) is reached, and nothing is reached through it.
              if (isAs.length > 1)
                for (const subject of current.getSubjects(isAs[1]!, object, null)) {
                  if (reached.has(subject.value)) continue;
                  reached.add(subject.value);
                  order.push(subject);
                }
            }
            frontier = next;
          }
          return order.length;
        }
      }
    },

    outsideHeapBytes: () => 0,
  };
}
