import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import type { CycleRecord } from '#core/records/cycle.ts';
import type { Goal } from '#core/records/goal.ts';

/** What the writes of one cycle's commit share: the storage, the session, the cycle and its clock. */
export type CommitContext = {
  db: AnimaDatabase;
  sessionId: string;
  cycle: number;
  startedAt: number;
  /** Names symbols in the episodes a consolidation writes. */ graph?: KnowledgeGraph;
};
/** How a cycle's action settled: its record, and the goals it changed (the goal worked on first). */
export type Settled = { record: CycleRecord; updatedGoals: Goal[] };

/** How a consolidation names symbols, when the graph is at hand. */
export function labelOf(context: CommitContext): ((symbolId: number) => string) | undefined {
  const { graph } = context;
  return graph ? (symbolId) => graph.symbol(symbolId)?.label ?? `#${symbolId}` : undefined;
}
