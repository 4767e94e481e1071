import initOxigraph, { type InitOutput, Store } from 'oxigraph/web.js';
import wasmUrl from 'oxigraph/web_bg.wasm?url';
import type { BenchEngine, QueryName } from '../engine.ts';
import { type GeneratedGraph, type QueryPlan, XSD_INTEGER } from '../generate-graph.ts';

/** Lines of N-Triples handed to one `store.load` call. */
const LINES_PER_LOAD = 100_000;

/**
 * Oxigraph (Rust compiled to WebAssembly), in memory: the graph written as N-Triples text and
 * loaded with `store.load` in pieces of 100k lines; all three queries in
 * SPARQL, the closure as the property path `?x <is-a>+ <C>`. Its data lives in WebAssembly
 * memory, which the JavaScript heap figures miss, so the engine reports that memory's size.
 */
export function createEngine(): BenchEngine {
  let wasm: InitOutput | undefined;
  let store: Store | undefined;

  const openStore = (): Store => {
    if (!store) throw new Error('oxigraph: no store is held');
    return store;
  };
  const select = (current: Store, sparql: string): number => {
    const answer = current.query(sparql);
    if (!Array.isArray(answer)) throw new Error(`oxigraph: expected solutions for ${sparql}`);
    return answer.length;
  };

  return {
    name: 'oxigraph',
    isPersistent: false,

    async importGraph(generated: GeneratedGraph): Promise<undefined> {
      wasm ??= await initOxigraph({ module_or_path: wasmUrl });
      const { terms, isLiteral, subjects, predicates, objects, count } = generated;
      const building = new Store();
      const termText = (index: number) =>
        isLiteral[index] === 1 ? `"${terms[index]!}"^^<${XSD_INTEGER}>` : `<${terms[index]!}>`;
      for (let start = 0; start < count; start += LINES_PER_LOAD) {
        const end = Math.min(count, start + LINES_PER_LOAD);
        const lines: string[] = [];
        for (let position = start; position < end; position++) {
          lines.push(
            `${termText(subjects[position]!)} ${termText(predicates[position]!)} ${termText(objects[position]!)} .\n`,
          );
        }
        // The default, transactional load: `no_transaction: true` (the bulk loader) was no faster
        // here and grows WebAssembly memory by ~160 MB that is never given back.
        building.load(lines.join(''), { format: 'application/n-triples' });
      }
      if (building.size !== count) throw new Error(`oxigraph holds ${building.size} quads of ${count}`);
      store = building;
      return undefined;
    },

    async deleteStore(): Promise<void> {
      // wasm-bindgen gives Store a free() that web.d.ts does not declare; without it the memory waits for a finalizer.
      const free: unknown = store ? Reflect.get(store, 'free') : undefined;
      if (typeof free === 'function') Reflect.apply(free, store, []);
      store = undefined;
    },

    async run(query: QueryName, plan: QueryPlan): Promise<number> {
      const current = openStore();
      // RDFS says is-a with two predicates: a path of either.
      const isA = plan.instanceOf === plan.isA ? `<${plan.isA}>` : `(<${plan.isA}>|<${plan.instanceOf}>)`;
      switch (query) {
        case 'query1':
          return select(current, `SELECT ?x WHERE { ?x ${isA} <${plan.leafClass}> }`);
        case 'query2':
          return select(current, `SELECT ?x ?y WHERE { ?x ${isA} ?y . ?y ${isA} <${plan.middleClass}> }`);
        case 'closure':
          return plan.instanceOf === plan.isA
            ? select(current, `SELECT ?x WHERE { ?x <${plan.isA}>+ <${plan.closureClass}> }`)
            : select(
                current,
                `SELECT ?x WHERE { { ?x <${plan.isA}>+ <${plan.closureClass}> } UNION { ?x <${plan.instanceOf}>/<${plan.isA}>* <${plan.closureClass}> } }`,
              );
      }
    },

    outsideHeapBytes: () => wasm?.memory.buffer.byteLength ?? 0,
  };
}
