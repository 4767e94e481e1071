import { cosineSimilarity } from '#core/llm/embedder.ts';
import type { EmbeddingAccess } from '#core/llm/embedding-cache.ts';
import type { Episode } from '#core/records/episode.ts';

/** New texts a recall embeds at most: a cycle stays fast, and the rest are embedded in the cycles after. */
export const EMBEDDINGS_PER_RECALL = 32;

/** The newest episodes a recall compares by embeddings; older ones are compared by hypervectors. */
export const MAX_EMBEDDED_EPISODES = 1_000;

/**
 * How a recall compared texts: by the bound embedder (each embedded summary's score, and how many
 * of the episodes were embedded so far), or by hypervectors (none bound, or it failed: why).
 */
export type RecallBasis =
  | { by: 'embeddings'; embedder: string; scores: Map<string, number>; embedded: number; episodes: number }
  | { by: 'hypervectors'; because?: string };

/**
 * The episodes' text scores against a text by the bound embedder: cosine similarity of the
 * summary's embedding and the text's (below 0 counts as 0). Without an embedder, or when it
 * fails, recall uses hypervectors, and the basis says why.
 */
export async function recallBasis(
  access: EmbeddingAccess | undefined,
  episodes: readonly Episode[],
  text: string,
  signal?: AbortSignal,
): Promise<RecallBasis> {
  if (!access) return { by: 'hypervectors' };
  if (episodes.length === 0 || text.trim() === '')
    return { by: 'hypervectors', because: 'there is nothing to compare' };
  const newest = episodes.slice(-MAX_EMBEDDED_EPISODES);
  try {
    const { vectors } = await access.vectorsOf([text, ...newest.map((episode) => episode.summary)], {
      maxNew: EMBEDDINGS_PER_RECALL,
      ...(signal ? { signal } : {}),
    });
    const query = vectors.get(text);
    if (!query) return { by: 'hypervectors', because: 'the text was not embedded yet' };
    const scores = new Map<string, number>();
    for (const episode of newest) {
      const vector = vectors.get(episode.summary);
      if (vector) scores.set(episode.summary, Math.min(1, Math.max(0, cosineSimilarity(query, vector))));
    }
    const embedded = newest.filter((episode) => scores.has(episode.summary)).length;
    return { by: 'embeddings', embedder: access.embedder.model, scores, embedded, episodes: episodes.length };
  } catch (error) {
    if (signal?.aborted) throw error;
    return {
      by: 'hypervectors',
      because: `the embedder failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** How a recall compared texts, in words for the cycle log: "by embeddings of nomic-embed (12 of 40 episodes embedded)". */
export function describeRecallBasis(basis: RecallBasis): string {
  if (basis.by === 'hypervectors') return `by hypervectors${basis.because ? ` (${basis.because})` : ''}`;
  const all = basis.embedded === basis.episodes;
  return `by embeddings of ${basis.embedder}${all ? '' : ` (${basis.embedded} of ${basis.episodes} episodes embedded so far)`}`;
}

/** The background work that embeds the episodes a recall could not embed in its cycle. */
export const EMBED_EPISODES_JOB = 'embed-episodes';

/** Embeds every summary of the newest episodes not embedded yet (kept in the device's cache): the work of an `embed-episodes` job. */
export async function embedEpisodeSummaries(
  access: EmbeddingAccess,
  episodes: readonly Episode[],
  signal?: AbortSignal,
): Promise<{ embedded: number }> {
  const { embeddedNow } = await access.vectorsOf(
    episodes.slice(-MAX_EMBEDDED_EPISODES).map((episode) => episode.summary),
    signal ? { signal } : {},
  );
  return { embedded: embeddedNow };
}
