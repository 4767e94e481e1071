import { BrowserLevel } from 'browser-level';
import { DataFactory } from 'n3';
import { Quadstore } from 'quadstore';
import type { BenchEngine, QueryName } from '../engine.ts';
import { type GeneratedGraph, type QueryPlan, XSD_INTEGER } from '../generate-graph.ts';

/** quadstore's RDF/JS quads (its @rdfjs/types dependency, named without importing it). */
type StoredQuad = Parameters<Quadstore['multiPut']>[0][number];
type Subject = StoredQuad['subject'];

/**
 * quadstore on browser-level (persistent, one IndexedDB record per index key; its six default
 * indexes), with N3's DataFactory: each batch written with `multiPut` (one level batch, one
 * IndexedDB transaction); queries with `get` on a pattern, the join and the closure as lookups
 * per bound value, issued together for each step.
 */
export function createEngine(): BenchEngine {
  let store: Quadstore | undefined;
  const { namedNode, literal, quad } = DataFactory;
  const integer = namedNode(XSD_INTEGER);

  const openStore = async (storeName: string): Promise<Quadstore> => {
    const opened = new Quadstore({ backend: new BrowserLevel(storeName), dataFactory: DataFactory });
    await opened.open();
    return opened;
  };
  const current = (): Quadstore => {
    if (!store) throw new Error('quadstore: no store is open');
    return store;
  };
  // RDFS says is-a with two predicates (subclasses, then instances): each lookup asks both.
  const isAsOf = (plan: QueryPlan) => (plan.instanceOf === plan.isA ? [plan.isA] : [plan.isA, plan.instanceOf]);
  const subjectsThrough = async (predicate: string, object: Subject): Promise<Subject[]> => {
    const { items } = await current().get({ predicate: namedNode(predicate), object });
    return items.map((item) => item.subject);
  };
  const subjectsOf = async (plan: QueryPlan, object: Subject): Promise<Subject[]> =>
    (await Promise.all(isAsOf(plan).map((predicate) => subjectsThrough(predicate, object)))).flat();
  const query1 = async (plan: QueryPlan): Promise<number> =>
    (await subjectsOf(plan, namedNode(plan.leafClass))).map((x) => ({ x })).length;

  return {
    name: 'quadstore',
    isPersistent: true,

    async importGraph(
      generated: GeneratedGraph,
      options: { storeName: string; batchSize: number },
    ): Promise<undefined> {
      const { terms, isLiteral, subjects, predicates, objects, count } = generated;
      const building = await openStore(options.storeName);
      for (let start = 0; start < count; start += options.batchSize) {
        const end = Math.min(count, start + options.batchSize);
        const quads: StoredQuad[] = [];
        for (let position = start; position < end; position++) {
          const object = objects[position]!;
          quads.push(
            quad(
              namedNode(terms[subjects[position]!]!),
              namedNode(terms[predicates[position]!]!),
              isLiteral[object] === 1 ? literal(terms[object]!, integer) : namedNode(terms[object]!),
            ),
          );
        }
        await building.multiPut(quads);
      }
      await building.close();
      return undefined;
    },

    async deleteStore(storeName: string): Promise<void> {
      await store?.close();
      store = undefined;
      await new Promise<void>((resolve, reject) => {
        // browser-level prefixes its IndexedDB databases with 'level-js-'.
        const request = indexedDB.deleteDatabase(`level-js-${storeName}`);
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error ?? new Error(`cannot delete ${storeName}`));
      });
    },

    async reopen(storeName: string, plan: QueryPlan): Promise<number> {
      store = await openStore(storeName);
      return query1(plan);
    },

    async run(query: QueryName, plan: QueryPlan): Promise<number> {
      switch (query) {
        case 'query1':
          return query1(plan);
        case 'query2': {
          const middle = await subjectsOf(plan, namedNode(plan.middleClass));
          const inner = await Promise.all(middle.map(async (y) => (await subjectsOf(plan, y)).map((x) => ({ x, y }))));
          return inner.flat().length;
        }
        case 'closure': {
          const target = namedNode(plan.closureClass);
          const reached = new Set<string>([target.value]);
          const order: Subject[] = [];
          let frontier: Subject[] = [target];
          while (frontier.length > 0) {
            const found = await Promise.all(frontier.map((object) => subjectsThrough(plan.isA, object)));
            const next: Subject[] = [];
            for (const subject of found.flat()) {
              if (reached.has(subject.value)) continue;
              reached.add(subject.value);
              order.push(subject);
              next.push(subject);
            }
            // RDFS: an instance (rdf:type) is reached, and nothing is reached through it.
            if (plan.instanceOf !== plan.isA)
              for (const subject of (
                await Promise.all(frontier.map((object) => subjectsThrough(plan.instanceOf, object)))
              ).flat()) {
                if (reached.has(subject.value)) continue;
                reached.add(subject.value);
                order.push(subject);
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
