import { z } from 'zod';
import { textSimilarity } from '#core/kg/hypervector.ts';
import type { MemoryEntry } from './working-memory.ts';

/** Long-term memory: what the agent learned while working on a goal, consolidated from working memory. */
export const episodeSchema = z.object({
  id: z.number().int().optional(),
  sessionId: z.string(),
  goalId: z.number().int().optional(),
  summary: z.string(),
  /** The symbols found relevant. */
  learnings: z.array(z.number().int()),
  /** The tools whose results the episode remembers (an episode naming a tool earns it the episodic bonus). */
  tools: z.array(z.string()),
  timestamp: z.number(),
  cycle: z.number().int().nonnegative(),
});
export type Episode = z.infer<typeof episodeSchema>;

/** Entries at least this relevant are worth remembering. */
export const CONSOLIDATION_RELEVANCE = 0.6;

/**
 * Consolidates the high-relevance entries of working memory into one episode per goal; the
 * consolidated entries leave working memory (that is what relieves its pressure).
 */
export function consolidate(entries: readonly MemoryEntry[], context: { sessionId: string; cycle: number; now: number }): { episodes: Episode[]; consolidated: MemoryEntry[] } {
  const worth = entries.filter((entry) => entry.relevance >= CONSOLIDATION_RELEVANCE);
  const byGoal = new Map<number | undefined, MemoryEntry[]>();
  for (const entry of worth) byGoal.set(entry.goalId, [...(byGoal.get(entry.goalId) ?? []), entry]);
  const episodes = [...byGoal].map(([goalId, group]): Episode => {
    const tools = [...new Set(group.flatMap((entry) => (entry.tool ? [entry.tool] : [])))];
    return {
      sessionId: context.sessionId,
      ...(goalId !== undefined ? { goalId } : {}),
      summary: group.map((entry) => entry.content).join(' | ').slice(0, 2000),
      learnings: [...new Set(group.flatMap((entry) => entry.symbols))].slice(0, 200),
      tools,
      timestamp: context.now,
      cycle: context.cycle,
    };
  });
  return { episodes, consolidated: worth };
}

/** An episode recalled, and how well it matches (0..1). */
export type Recall = { episode: Episode; score: number };

/**
 * Recalls episodes by symbols (the share of the asked symbols an episode learned about) and by
 * text (hypervector similarity of the summary's words, counted above chance); best first, ties
 * by recency.
 */
export function recallEpisodes(episodes: readonly Episode[], query: { symbols?: readonly number[]; text?: string }, k = 3): Recall[] {
  const asked = new Set(query.symbols ?? []);
  const scored = episodes.map((episode) => {
    const symbolScore = asked.size === 0 ? 0 : episode.learnings.filter((symbol) => asked.has(symbol)).length / asked.size;
    // Unrelated texts score about 0.5: only what is above chance counts.
    const textScore = query.text ? Math.max(0, textSimilarity(query.text, episode.summary) - 0.5) * 2 : 0;
    return { episode, score: Math.min(1, Math.max(symbolScore, textScore)) };
  });
  return scored
    .filter((recall) => recall.score > 0)
    .sort((a, b) => b.score - a.score || b.episode.timestamp - a.episode.timestamp || (b.episode.id ?? 0) - (a.episode.id ?? 0))
    .slice(0, k);
}
