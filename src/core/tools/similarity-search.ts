import { z } from 'zod';
import { cosineSimilarity } from '#core/llm/embedder.ts';
import type { EmbeddingAccess } from '#core/llm/embedding-cache.ts';
import type { SimilarityHit } from '#core/kg/similarity-options.ts';
import type { Tool, ToolState } from './tool.ts';

/** Candidates an embedder ranks at most: found by the graph's structure and by label words, so a search never embeds the whole graph. */
export const EMBEDDING_CANDIDATES = 48;

/**
 * Finds the symbols nearest to the goal's first symbol: by hypervector similarity of their
 * meanings in the graph, or, with an embedder bound, by the embeddings of their labels, among the
 * candidates the graph's structure and their label words offer.
 */
export const similaritySearch: Tool<{ symbol: number; k: number }> = {
  name: 'similarity_search',
  description: 'nearest symbols by embeddings when an embedder is bound, else by hypervector similarity',
  archetype: 'guardian',
  danger: 'safe',
  capabilities: ['readKg', 'similarity'],
  input: z.object({ symbol: z.number().int().nonnegative(), k: z.number().int().min(1).max(50) }),
  unavailableBecause: (state) =>
    state.goalSymbols.length === 0 ? 'the goal names no symbol the graph knows' : undefined,
  baseScore: () => 0.3,
  proposeInput: (state) => ({ symbol: state.goalSymbols[0]!, k: 5 }),
  async run(input, state) {
    const label = (id: number) => state.graph.symbol(id)?.label ?? `#${id}`;
    let hits: SimilarityHit[];
    let by = 'by hypervectors';
    try {
      hits = state.embeddings
        ? await nearestByEmbeddings(state, state.embeddings, input.symbol, input.k)
        : state.similarity.nearest(input.symbol, { k: input.k });
      if (state.embeddings) by = `by embeddings of ${state.embeddings.embedder.model}`;
    } catch (error) {
      if (state.model?.signal?.aborted) throw error;
      hits = state.similarity.nearest(input.symbol, { k: input.k });
      by = `by hypervectors (the embedder failed: ${error instanceof Error ? error.message : String(error)})`;
    }
    return {
      ok: true,
      summary: `nearest to ${label(input.symbol)} ${by}: ${hits.map((hit) => `${label(hit.symbolId)} (${hit.similarity.toFixed(2)})`).join(', ') || 'none'}`,
      facts: [],
      symbols: hits.map((hit) => hit.symbolId),
    };
  },
};

/** The candidates ranked by the cosine similarity of their labels' embeddings to the symbol's (ties by label). */
async function nearestByEmbeddings(
  state: ToolState,
  access: EmbeddingAccess,
  symbol: number,
  k: number,
): Promise<SimilarityHit[]> {
  const label = (id: number) => state.graph.symbol(id)?.label ?? '';
  const own = label(symbol);
  if (own === '') return [];
  const candidates = new Set(
    [
      ...state.similarity.nearest(symbol, { k: EMBEDDING_CANDIDATES }),
      ...state.similarity.nearestToText(own, EMBEDDING_CANDIDATES),
    ]
      .map((hit) => hit.symbolId)
      .filter((id) => id !== symbol && label(id) !== ''),
  );
  const chosen = [...candidates].slice(0, EMBEDDING_CANDIDATES);
  const { vectors } = await access.vectorsOf([own, ...chosen.map(label)], {
    ...(state.model?.signal ? { signal: state.model.signal } : {}),
  });
  const query = vectors.get(own)!;
  return chosen
    .map((id) => ({ symbolId: id, similarity: cosineSimilarity(query, vectors.get(label(id))!) }))
    .sort((a, b) => b.similarity - a.similarity || label(a.symbolId).localeCompare(label(b.symbolId)))
    .slice(0, k);
}
