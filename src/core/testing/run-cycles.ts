import type { CycleRecord } from '#core/records/cycle.ts';
import { runCycle } from '#core/agent/run-cycle.ts';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import { loadGraph } from '#core/store/kg-repository.ts';
import { TOOLS } from '#core/tools/registry.ts';
import type { AgentTool } from '#core/tools/tool.ts';

/** Runs cycles the way the service does, with the tools given, until no goal is active or `count` ran. */
export async function runCycles(
  db: AnimaDatabase,
  sessionId: string,
  count: number,
  tools: readonly AgentTool[] = TOOLS,
): Promise<CycleRecord[]> {
  const graph = await loadGraph(db, sessionId);
  const similarity = new SimilarityIndex(graph);
  const records: CycleRecord[] = [];
  for (let at = 0; at < count; at++) {
    const record = await runCycle({ db, sessionId, graph, similarity, now: () => 1, documents: [], tools });
    if (!record) break;
    records.push(record);
  }
  return records;
}
