import type { GeneratedGraph, QueryPlan } from './generate-graph.ts';

/** The engines the benchmark compares, Anima first. */
export const ENGINE_NAMES = ['anima', 'n3', 'oxigraph', 'quadstore'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** The three timed queries; each returns its number of answers (rows or symbols). */
export type QueryName = 'query1' | 'query2' | 'closure';

/**
 * One engine under test, driven the same way as the others. A persistent engine stores under a
 * name and can be reopened in a fresh page; an in-memory one keeps its last import in the page.
 */
export type BenchEngine = {
  name: EngineName;
  isPersistent: boolean;
  /**
   * Imports the whole generated graph into a new store named `storeName` (persisted and closed, or
   * held in memory). May return a line on where the time went, for the report's notes.
   */
  importGraph(graph: GeneratedGraph, options: { storeName: string; batchSize: number }): Promise<string | undefined>;
  /** Deletes a stored graph (persistent engines), or drops the one held in memory. */
  deleteStore(storeName: string): Promise<void>;
  /** Opens a stored graph and answers query 1 (the cold start); persistent engines only. */
  reopen?(storeName: string, plan: QueryPlan): Promise<number>;
  /** Answers one query on the open (or held) store. */
  run(query: QueryName, plan: QueryPlan): Promise<number>;
  /** Extra, untimed measurements that explain the timed ones (lines for the report's notes). */
  diagnose?(plan: QueryPlan): Promise<string[]>;
  /** Memory the engine holds outside the JavaScript heap that the heap figures miss (oxigraph's WebAssembly memory). */
  outsideHeapBytes(): number;
};

/** Every measured engine module exports a `createEngine` with this shape (loaded on demand, one per page). */
export type EngineModule = { createEngine(): BenchEngine };
