import { type Hypervector, textVector, textVectorSimilarity } from '#core/kg/hypervector.ts';
import type { MemoryEntry } from '#core/records/memory-entry.ts';
import type { Episode, ToolResult } from '#core/records/episode.ts';

/** Entries at least this relevant are what an episode's summary quotes. */
export const CONSOLIDATION_RELEVANCE = 0.6;

/** What a consolidation needs: where and when, and (when it has the graph) how to name a symbol. */
export type ConsolidationContext = {
  sessionId: string;
  cycle: number;
  now: number;
  label?: (symbolId: number) => string;
};

/**
 * Consolidates working memory into one episode per goal: every entry made before `before` (a
 * cycle number) leaves working memory, which is what relieves its pressure. An episode says what
 * was tried (each tool, how often it worked or not, on which symbols) and quotes what mattered
 * most (the relevant entries); low-relevance entries are counted in it, not quoted.
 */
export function consolidate(
  entries: readonly MemoryEntry[],
  context: ConsolidationContext & { before: number },
): { episodes: Episode[]; consolidated: MemoryEntry[] } {
  const taken = entries.filter((entry) => entry.sourceCycle < context.before);
  const byGoal = new Map<number | undefined, MemoryEntry[]>();
  for (const entry of taken) byGoal.set(entry.goalId, [...(byGoal.get(entry.goalId) ?? []), entry]);
  const label = context.label ?? ((id: number) => `#${id}`);
  const episodes = [...byGoal].map(([goalId, group]): Episode => {
    const toolResults = resultsOf(group);
    const cycles = group.map((entry) => entry.sourceCycle);
    const span =
      Math.min(...cycles) === Math.max(...cycles)
        ? `cycle ${Math.min(...cycles)}`
        : `cycles ${Math.min(...cycles)}-${Math.max(...cycles)}`;
    const tried = toolResults.map((result) => {
      const on = result.symbols.length > 0 ? ` on ${result.symbols.slice(0, 5).map(label).join(', ')}` : '';
      return `${result.tool}${on}: ${result.successes} worked, ${result.failures} did not`;
    });
    const quoted = group.filter((entry) => entry.relevance >= CONSOLIDATION_RELEVANCE).map((entry) => entry.content);
    const summary = [
      `${goalId === undefined ? 'no goal' : `goal ${goalId}`}, ${span}: tried ${tried.join('; ') || 'nothing'}`,
      ...quoted,
    ]
      .join(' | ')
      .slice(0, 2000);
    return {
      sessionId: context.sessionId,
      ...(goalId !== undefined ? { goalId } : {}),
      summary,
      learnings: [
        ...new Set(
          group
            .filter((entry) => entry.relevance >= CONSOLIDATION_RELEVANCE || entry.kind === 'observation')
            .flatMap((entry) => entry.symbols),
        ),
      ].slice(0, 200),
      tools: toolResults.map((result) => result.tool),
      toolResults,
      timestamp: context.now,
      cycle: context.cycle,
    };
  });
  return { episodes, consolidated: taken };
}

/** Each tool's actions in a group of entries: how many got the goal anywhere, how many not, and the symbols they were about. */
function resultsOf(group: readonly MemoryEntry[]): ToolResult[] {
  const results = new Map<string, ToolResult>();
  for (const entry of group) {
    if (entry.kind !== 'action' || !entry.tool) continue;
    const result = results.get(entry.tool) ?? { tool: entry.tool, successes: 0, failures: 0, symbols: [] };
    // Entries stored before `succeeded` was kept: an action was relevant (0.8) when it got its goal anywhere.
    if (entry.succeeded ?? entry.relevance >= CONSOLIDATION_RELEVANCE) result.successes++;
    else result.failures++;
    result.symbols = [...new Set([...result.symbols, ...entry.symbols])].slice(0, 50);
    results.set(entry.tool, result);
  }
  return [...results.values()];
}

/** What recalled episodes say of a tool on the goal's symbols: it worked there before, it did not, or they do not say. */
export type EpisodicEvidence = { verdict: 'worked' | 'failed'; episodeId: number | undefined; on: number[] };

/**
 * What the recalled episodes learned about each tool on these symbols: a tool that got a goal
 * somewhere more often than not worked; one that never did failed; a mixed record says nothing.
 * The newest episode that tried the tool on any of the symbols says. Episodes made before
 * results were kept count their tools as worked.
 */
export function episodicEvidence(
  recalled: readonly Recall[],
  symbols: readonly number[],
): Map<string, EpisodicEvidence> {
  const asked = new Set(symbols);
  const evidence = new Map<string, EpisodicEvidence>();
  const newestFirst = [...recalled].sort(
    (a, b) => b.episode.cycle - a.episode.cycle || (b.episode.id ?? 0) - (a.episode.id ?? 0),
  );
  for (const { episode } of newestFirst) {
    const results =
      episode.toolResults ??
      episode.tools.map((tool) => ({ tool, successes: 1, failures: 0, symbols: episode.learnings }));
    for (const result of results) {
      if (evidence.has(result.tool)) continue;
      const on = result.symbols.filter((symbol) => asked.has(symbol));
      if (on.length === 0 && asked.size > 0) continue;
      const verdict = result.successes > result.failures ? 'worked' : result.successes === 0 ? 'failed' : undefined;
      if (verdict) evidence.set(result.tool, { verdict, episodeId: episode.id, on });
    }
  }
  return evidence;
}

/** An episode recalled, and how well it matches (0..1). */
export type Recall = { episode: Episode; score: number };

/** What each earlier recall adds to an episode's rank (up to 10 recalls): what was used is found first among equals. */
const RECALL_WEIGHT = { perRecall: 0.02, maxRecalls: 10 } as const;

/**
 * The words of episode summaries (and of the goals recalling them) as vectors, kept: a summary
 * never changes, and every cycle compares its goal with all of them (bundling the words each time
 * made a long run's cycles slow down as episodes piled up). Cleared whole when it grows past its size.
 */
const keptTextVectors = new Map<string, Hypervector | undefined>();
const MAX_KEPT_TEXT_VECTORS = 5000;

function keptTextVector(text: string): Hypervector | undefined {
  if (!keptTextVectors.has(text)) {
    if (keptTextVectors.size >= MAX_KEPT_TEXT_VECTORS) keptTextVectors.clear();
    keptTextVectors.set(text, textVector(text));
  }
  return keptTextVectors.get(text);
}

/**
 * Each episode's learnings counted by symbol, kept while its list lives: a cycle's episodes are
 * the same rows cycle after cycle (the store's row mirror), and filtering up to 200 learnings of
 * every episode, three times a cycle, made a long run's cycles slower as episodes piled up.
 */
const learningCounts = new WeakMap<readonly number[], ReadonlyMap<number, number>>();

/** How many of an episode's learnings are among the asked symbols (each asked symbol once). */
function learningsAmong(learnings: readonly number[], asked: readonly number[]): number {
  let counts = learningCounts.get(learnings);
  if (!counts) {
    const counted = new Map<number, number>();
    for (const symbol of learnings) counted.set(symbol, (counted.get(symbol) ?? 0) + 1);
    learningCounts.set(learnings, (counts = counted));
  }
  let among = 0;
  for (const symbol of asked) among += counts.get(symbol) ?? 0;
  return among;
}

/**
 * Recalls episodes by symbols (the share of the asked symbols an episode learned about) and by
 * text: the summary's score in `textScores` (its embedding's similarity to the text's, when an
 * embedder is bound: see embedded-recall.ts), else the hypervector similarity of the summary's
 * words, counted above chance. Ranked by that, raised a little by how often each was recalled
 * before; ties by recency.
 */
export function recallEpisodes(
  episodes: readonly Episode[],
  query: { symbols?: readonly number[]; text?: string },
  k = 3,
  textScores?: ReadonlyMap<string, number>,
): Recall[] {
  const asked = [...new Set(query.symbols ?? [])];
  const queryVector = query.text ? keptTextVector(query.text) : undefined;
  const scored = episodes.map((episode) => {
    const symbolScore = asked.length === 0 ? 0 : learningsAmong(episode.learnings, asked) / asked.length;
    const embedded = query.text ? textScores?.get(episode.summary) : undefined;
    // Unrelated texts score about 0.5 by hypervectors: only what is above chance counts.
    const textScore =
      embedded ??
      (queryVector ? Math.max(0, textVectorSimilarity(queryVector, keptTextVector(episode.summary)) - 0.5) * 2 : 0);
    return { episode, score: Math.min(1, Math.max(symbolScore, textScore)) };
  });
  const rank = (recall: Recall) =>
    recall.score + RECALL_WEIGHT.perRecall * Math.min(recall.episode.recalls ?? 0, RECALL_WEIGHT.maxRecalls);
  return scored
    .filter((recall) => recall.score > 0)
    .sort(
      (a, b) =>
        rank(b) - rank(a) || b.episode.timestamp - a.episode.timestamp || (b.episode.id ?? 0) - (a.episode.id ?? 0),
    )
    .slice(0, k);
}
