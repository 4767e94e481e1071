import { describe, expect, it } from 'vitest';
import { consolidate, type Episode, recallEpisodes } from './episodes.ts';
import type { MemoryEntry } from './working-memory.ts';

const entry = (overrides: Partial<MemoryEntry>): MemoryEntry => ({
  sessionId: 's',
  content: 'x',
  symbols: [],
  kind: 'action',
  timestamp: 1,
  relevance: 0.8,
  sourceCycle: 1,
  referenceCount: 0,
  ...overrides,
});

describe('episodic memory', () => {
  it('consolidates the relevant entries into one episode per goal, remembering symbols and tools', () => {
    const { episodes, consolidated } = consolidate(
      [
        entry({ goalId: 1, content: 'derived 10 facts', symbols: [5, 6], tool: 'infer_rules' }),
        entry({ goalId: 1, content: 'found Mars facts', symbols: [6, 7], tool: 'kg_query' }),
        entry({ goalId: 2, content: 'nearest to Dog: Wolf', symbols: [8], tool: 'similarity_search' }),
        entry({ goalId: 1, content: 'observed', relevance: 0.3 }),
      ],
      { sessionId: 's', cycle: 9, now: 100 },
    );
    expect(consolidated).toHaveLength(3);
    expect(episodes).toEqual([
      { sessionId: 's', goalId: 1, summary: 'derived 10 facts | found Mars facts', learnings: [5, 6, 7], tools: ['infer_rules', 'kg_query'], timestamp: 100, cycle: 9 },
      { sessionId: 's', goalId: 2, summary: 'nearest to Dog: Wolf', learnings: [8], tools: ['similarity_search'], timestamp: 100, cycle: 9 },
    ]);
  });

  it('recalls by shared symbols and by text, best first', () => {
    const episode = (id: number, summary: string, learnings: number[]): Episode => ({ id, sessionId: 's', summary, learnings, tools: [], timestamp: id, cycle: id });
    const episodes = [episode(1, 'derived facts about mammals and dogs', [1, 2]), episode(2, 'nearest to Mars: Venus, Mercury', [3, 4]), episode(3, 'Mars has two moons', [3])];
    expect(recallEpisodes(episodes, { symbols: [3, 4] }).map((recall) => [recall.episode.id, recall.score])).toEqual([
      [2, 1],
      [3, 0.5],
    ]);
    expect(recallEpisodes(episodes, { text: 'mammals and dogs' })[0]!.episode.id).toBe(1);
    expect(recallEpisodes(episodes, { symbols: [99] })).toEqual([]);
  });
});
