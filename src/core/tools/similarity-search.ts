import { z } from 'zod';
import type { Tool } from './tool.ts';

/** Finds the symbols nearest to the goal's first symbol by hypervector similarity. */
export const similaritySearch: Tool<{ symbol: number; k: number }> = {
  name: 'similarity_search',
  description: 'nearest symbols by hypervector similarity',
  archetype: 'guardian',
  danger: 'safe',
  capabilities: ['readKg', 'similarity'],
  input: z.object({ symbol: z.number().int().nonnegative(), k: z.number().int().min(1).max(50) }),
  unavailableBecause: (state) =>
    state.goalSymbols.length === 0 ? 'the goal names no symbol the graph knows' : undefined,
  baseScore: () => 0.3,
  proposeInput: (state) => ({ symbol: state.goalSymbols[0]!, k: 5 }),
  run(input, state) {
    const hits = state.similarity.nearest(input.symbol, { k: input.k });
    const label = (id: number) => state.graph.symbol(id)?.label ?? `#${id}`;
    return {
      ok: true,
      summary: `nearest to ${label(input.symbol)}: ${hits.map((hit) => `${label(hit.symbolId)} (${hit.similarity.toFixed(2)})`).join(', ') || 'none'}`,
      facts: [],
      symbols: hits.map((hit) => hit.symbolId),
    };
  },
};
