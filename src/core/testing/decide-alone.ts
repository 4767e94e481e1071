import { type Decision, decide, type NoToolAvailable } from '#core/agent/cycle.ts';
import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import type { Goal } from '#core/records/goal.ts';
import { defaultPsyche, type Psyche } from '#core/records/psyche.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { DEFAULT_WEB_ACCESS } from '#core/tools/web-access.ts';

/** What deciding for one goal alone (tests) is given: the cycle, and the psyche (the default when absent). */
type AloneOptions = { cycle: number; psyche?: Psyche };

/**
 * Decides for one goal alone (tests): nothing in memory, no episode, no document, every tool,
 * online. Gives the choice, or why no tool could be chosen.
 */
export function decideFor(
  graph: KnowledgeGraph,
  goal: Goal,
  { cycle, psyche = defaultPsyche() }: AloneOptions,
): Decision | NoToolAvailable {
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
  if (!decision) throw new Error('the goal is not active');
  return decision;
}

/** {@link decideFor}, where a tool must be chosen. */
export function decideAlone(graph: KnowledgeGraph, goal: Goal, options: AloneOptions): Decision {
  const decision = decideFor(graph, goal, options);
  if (!('tool' in decision)) throw new Error('no decision');
  return decision;
}
