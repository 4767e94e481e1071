import { z } from 'zod';
import { recallEpisodes } from '#core/memory/episodes.ts';
import {
  describeRecallBasis,
  EMBED_EPISODES_JOB,
  MAX_EMBEDDED_EPISODES,
  recallBasis,
} from '#core/memory/embedded-recall.ts';
import type { Tool, ToolOutcome, ToolState } from './tool.ts';

type RecallInput = { text: string; symbols: number[]; k: number };

/**
 * Recalls the episodes relevant to the goal: what earlier work on these symbols taught. With an
 * embedder bound, by embeddings; when more episodes are new than a cycle embeds, it recalls what
 * it can and defers the rest to a background job, and its goal waits for it.
 */
export const memoryRecall: Tool<RecallInput> = {
  name: 'memory_recall',
  description: 'recall episodes relevant to the goal',
  archetype: 'guardian',
  danger: 'safe',
  capabilities: ['memory'],
  input: z.object({ text: z.string(), symbols: z.array(z.number().int()), k: z.number().int().min(1).max(20) }),
  unavailableBecause: (state) => (state.episodes.length === 0 ? 'there are no episodes yet' : undefined),
  baseScore: (state) => (recallEpisodes(state.episodes, { symbols: state.goalSymbols }, 1).length > 0 ? 0.5 : 0.1),
  proposeInput: (state) => ({ text: state.goal.description, symbols: [...state.goalSymbols], k: 3 }),
  async run(input, state) {
    const { outcome, notEmbedded } = await recall(input, state);
    if (notEmbedded === 0) return outcome;
    return {
      ...outcome,
      deferred: { kind: EMBED_EPISODES_JOB, work: {}, what: `embedding ${notEmbedded} more episode summaries` },
    };
  },
  async resume(job, input, state) {
    const { outcome } = await recall(input, state);
    const before = job.ok
      ? `the background job embedded ${(job.result as { embedded?: number } | undefined)?.embedded ?? 0} episode summaries`
      : `the background embedding failed (${job.error})`;
    return { ...outcome, summary: `${before}; ${outcome.summary}` };
  },
};

/** The recall, and how many of the episodes a recall compares by embeddings have none yet. */
async function recall(input: RecallInput, state: ToolState): Promise<{ outcome: ToolOutcome; notEmbedded: number }> {
  const basis = await recallBasis(state.embeddings, state.episodes, input.text, state.model?.signal);
  const recalled = recallEpisodes(
    state.episodes,
    { text: input.text, symbols: input.symbols },
    input.k,
    basis.by === 'embeddings' ? basis.scores : undefined,
  );
  return {
    outcome: {
      ok: true,
      summary:
        (recalled.length === 0
          ? 'no episode is about this goal'
          : `recalled ${recalled.map((recall) => `"${recall.episode.summary.slice(0, 80)}" (${recall.score.toFixed(2)})`).join('; ')}`) +
        ` ${describeRecallBasis(basis)}`,
      facts: [],
      symbols: [...new Set(recalled.flatMap((recall) => recall.episode.learnings))].slice(0, 50),
    },
    notEmbedded:
      basis.by === 'embeddings' ? Math.min(state.episodes.length, MAX_EMBEDDED_EPISODES) - basis.embedded : 0,
  };
}
