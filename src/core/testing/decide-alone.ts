import { type Decision, decide } from '#core/agent/cycle.ts';
import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import type { Goal } from '#core/records/goal.ts';
import { defaultPsyche, type Psyche } from '#core/records/psyche.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { DEFAULT_WEB_ACCESS } from '#core/tools/web-access.ts';

/**
 * Decides for one goal alone (tests): nothing in memory, no episode, no document, every tool,
 * online; the cycle and the psyche as given. Throws when no tool is chosen.
 */
export function decideAlone(
  graph: KnowledgeGraph,
  goal: Goal,
  { cycle, psyche = defaultPsyche() }: { cycle: number; psyche?: Psyche },
): Decision {
  const decision = decide({
    sessionId: 's',
    cycle,
    now: 1,
    graph,
    similarity: new SimilarityIndex(graph),
    goals: [goal],
    memoryEntryCount: 0,
    memoryCapacity: 100,
    episodes: [],
    documents: [],
    webAccess: DEFAULT_WEB_ACCESS,
    isOnline: true,
    tools: TOOLS,
    psyche,
  });
  if (!decision || !('tool' in decision)) throw new Error('no decision');
  return decision;
}
