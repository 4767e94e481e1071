import { z } from 'zod';
import { recallEpisodes } from '#core/memory/episodes.ts';
import { describeRecallBasis, recallBasis } from '#core/memory/embedded-recall.ts';
import type { Tool } from './tool.ts';

/** Recalls the episodes relevant to the goal: what earlier work on these symbols taught (by embeddings when an embedder is bound). */
export const memoryRecall: Tool<{ text: string; symbols: number[]; k: number }> = {
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
    const basis = await recallBasis(state.embeddings, state.episodes, input.text, state.model?.signal);
    const recalled = recallEpisodes(
      state.episodes,
      { text: input.text, symbols: input.symbols },
      input.k,
      basis.by === 'embeddings' ? basis.scores : undefined,
    );
    return {
      ok: true,
      summary:
        (recalled.length === 0
          ? 'no episode is about this goal'
          : `recalled ${recalled.map((recall) => `"${recall.episode.summary.slice(0, 80)}" (${recall.score.toFixed(2)})`).join('; ')}`) +
        ` ${describeRecallBasis(basis)}`,
      facts: [],
      symbols: [...new Set(recalled.flatMap((recall) => recall.episode.learnings))].slice(0, 50),
    };
  },
};
