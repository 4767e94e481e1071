import type { BenchEngine, EngineModule, EngineName, QueryName } from './engine.ts';
import { type BenchVocabulary, type GeneratedGraph, generateGraph, type QueryPlan } from './generate-graph.ts';

/** Timings of one query: each timed run after one warm-up, and the answer count (the same every run); or why it failed. */
export type QueryTimings = { runsMs: number[]; count: number } | { error: string };

/**
 * What the Node driver (scripts/bench-kg.mjs) calls in the page through `page.evaluate`. Each
 * engine gets its own page (its own browser, even), so heaps never mix; the page loads only the
 * engine it measures.
 */
export type KgBenchApi = {
  /** Generates the graph (untimed) and keeps it in the page for the imports. */
  prepare(options: {
    triples: number;
    seed: number;
    vocabulary: BenchVocabulary;
  }): Promise<{ plan: QueryPlan; generateMs: number; isCrossOriginIsolated: boolean }>;
  /** Imports the graph `runs` times, each into a new store (the previous one deleted first, untimed); the last store stays. */
  importRuns(options: {
    engine: EngineName;
    runs: number;
    batchSize: number;
    storePrefix: string;
  }): Promise<{ runsMs: number[]; storeName: string; details: string[] }>;
  /** Drops the generated graph, so that the heap holds only what the engine keeps. */
  releaseGenerated(): void;
  /** Opens a stored graph and answers query 1 (a cold start in a fresh page). */
  reopen(options: { engine: EngineName; storeName: string; plan: QueryPlan }): Promise<{ ms: number; count: number }>;
  /** Times each query `runs` times after one warm-up. */
  runQueries(options: { engine: EngineName; plan: QueryPlan; runs: number }): Promise<Record<QueryName, QueryTimings>>;
  /** The engine's extra, untimed measurements (see BenchEngine.diagnose). */
  diagnose(options: { engine: EngineName; plan: QueryPlan }): Promise<string[]>;
  /** Memory the engine holds outside the JavaScript heap (oxigraph's WebAssembly memory). */
  outsideHeapBytes(options: { engine: EngineName }): Promise<number>;
  /** Deletes a stored graph (the driver cleans up with it). */
  deleteStore(options: { engine: EngineName; storeName: string }): Promise<void>;
};

declare global {
  interface Window {
    kgBench: KgBenchApi;
    /** Present when Chromium runs with --js-flags=--expose-gc: settles the heap between timed runs. */
    gc?: () => void;
  }
}

const ENGINE_LOADERS: Record<EngineName, () => Promise<EngineModule>> = {
  anima: () => import('./engines/anima-engine.ts'),
  n3: () => import('./engines/n3-engine.ts'),
  oxigraph: () => import('./engines/oxigraph-engine.ts'),
  quadstore: () => import('./engines/quadstore-engine.ts'),
};

const engines = new Map<EngineName, BenchEngine>();
let generated: GeneratedGraph | undefined;

async function engineNamed(name: EngineName): Promise<BenchEngine> {
  const known = engines.get(name);
  if (known) return known;
  const engine = (await ENGINE_LOADERS[name]()).createEngine();
  engines.set(name, engine);
  return engine;
}

function settle(): void {
  window.gc?.();
}

window.kgBench = {
  async prepare({ triples, seed, vocabulary }) {
    const start = performance.now();
    generated = generateGraph(triples, seed, vocabulary);
    // Cross-origin isolated pages get a microsecond clock; others 0.1 ms steps.
    return {
      plan: generated.plan,
      generateMs: performance.now() - start,
      isCrossOriginIsolated: window.crossOriginIsolated,
    };
  },

  async importRuns({ engine: name, runs, batchSize, storePrefix }) {
    if (!generated) throw new Error('prepare the graph before importing it');
    const engine = await engineNamed(name);
    const runsMs: number[] = [];
    const details: string[] = [];
    let storeName = '';
    for (let run = 0; run < runs; run++) {
      if (storeName) await engine.deleteStore(storeName);
      storeName = `${storePrefix}-${run}`;
      settle();
      const start = performance.now();
      const detail = await engine.importGraph(generated, { storeName, batchSize });
      runsMs.push(performance.now() - start);
      if (detail) details.push(detail);
      console.log(
        `${name}: import run ${run + 1} of ${runs}: ${Math.round(runsMs[runsMs.length - 1]!)} ms${detail ? ` (${detail})` : ''}`,
      );
    }
    return { runsMs, storeName, details };
  },

  releaseGenerated() {
    generated = undefined;
  },

  async reopen({ engine: name, storeName, plan }) {
    const engine = await engineNamed(name);
    if (!engine.reopen) throw new Error(`${name} keeps nothing to reopen`);
    settle();
    const start = performance.now();
    const count = await engine.reopen(storeName, plan);
    return { ms: performance.now() - start, count };
  },

  async runQueries({ engine: name, plan, runs }) {
    const engine = await engineNamed(name);
    const timeQuery = async (query: QueryName): Promise<QueryTimings> => {
      try {
        // One collection before the warm-up, none between runs: a forced GC right before a short
        // query leaves the heap to sweep lazily, which the query would then pay for.
        settle();
        const count = await engine.run(query, plan);
        const runsMs: number[] = [];
        for (let run = 0; run < runs; run++) {
          const start = performance.now();
          const again = await engine.run(query, plan);
          runsMs.push(performance.now() - start);
          if (again !== count) throw new Error(`${count} answers, then ${again}`);
        }
        return { runsMs, count };
      } catch (error) {
        // One failing query must not hide the others' results: the driver reports it and fails the run.
        return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
      }
    };
    return {
      query1: await timeQuery('query1'),
      query2: await timeQuery('query2'),
      closure: await timeQuery('closure'),
    };
  },

  async diagnose({ engine: name, plan }) {
    const engine = await engineNamed(name);
    return engine.diagnose ? engine.diagnose(plan) : [];
  },

  async outsideHeapBytes({ engine: name }) {
    return (await engineNamed(name)).outsideHeapBytes();
  },

  async deleteStore({ engine: name, storeName }) {
    await (await engineNamed(name)).deleteStore(storeName);
  },
};

document.body.dataset['ready'] = 'true';
