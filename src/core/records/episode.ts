import { z } from 'zod';

/** What one tool did for a goal over the cycles an episode covers: how often it got the goal anywhere, how often not, and on which symbols. */
export const toolResultSchema = z.object({
  tool: z.string(),
  successes: z.number().int().nonnegative(),
  failures: z.number().int().nonnegative(),
  symbols: z.array(z.number().int()),
});
export type ToolResult = z.infer<typeof toolResultSchema>;

/** Long-term memory: what the agent learned while working on a goal, consolidated from working memory. */
export const episodeSchema = z.object({
  id: z.number().int().optional(),
  sessionId: z.string(),
  goalId: z.number().int().optional(),
  summary: z.string(),
  /** The symbols found relevant. */
  learnings: z.array(z.number().int()),
  /** The tools whose results the episode remembers. */
  tools: z.array(z.string()),
  /** What each tool tried came to (absent in episodes made before it was kept: their tools count as having worked). */
  toolResults: z.array(toolResultSchema).optional(),
  /** How many cycles recalled the episode: recall favours what was used. */
  recalls: z.number().int().nonnegative().optional(),
  timestamp: z.number(),
  cycle: z.number().int().nonnegative(),
});
export type Episode = z.infer<typeof episodeSchema>;
