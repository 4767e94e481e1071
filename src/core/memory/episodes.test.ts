import { describe, expect, it } from 'vitest';
import { consolidate, episodicEvidence, recallEpisodes } from './episodes.ts';
import type { Episode } from '#core/records/episode.ts';
import type { MemoryEntry } from '#core/records/memory-entry.ts';

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
  it('consolidates every earlier entry into one episode per goal: what each tool tried, on which symbols, and how it went', () => {
    const labels: Record<number, string> = { 5: 'Mars', 6: 'Volcano', 8: 'Dog' };
    const { episodes, consolidated } = consolidate(
      [
        entry({
          goalId: 1,
          content: 'derived 10 facts',
          symbols: [5, 6],
          tool: 'infer_rules',
          succeeded: true,
          sourceCycle: 1,
        }),
        entry({
          goalId: 1,
          content: 'gap_analysis found nothing',
          symbols: [5],
          tool: 'gap_analysis',
          succeeded: false,
          relevance: 0.4,
          sourceCycle: 2,
        }),
        entry({
          goalId: 1,
          content: 'gap_analysis found nothing',
          symbols: [5],
          tool: 'gap_analysis',
          succeeded: false,
          relevance: 0.4,
          sourceCycle: 3,
        }),
        entry({ goalId: 1, kind: 'observation', content: 'observed', symbols: [5], relevance: 0.3, sourceCycle: 3 }),
        entry({
          goalId: 2,
          content: 'nearest to Dog: Wolf',
          symbols: [8],
          tool: 'similarity_search',
          succeeded: true,
          sourceCycle: 2,
        }),
        // Made in the cycle that consolidates: it stays for the next decision.
        entry({ goalId: 1, content: 'this cycle', tool: 'kg_query', sourceCycle: 4 }),
      ],
      { sessionId: 's', cycle: 4, now: 100, before: 4, label: (id) => labels[id] ?? `#${id}` },
    );
    expect(consolidated).toHaveLength(5);
    expect(episodes).toEqual([
      {
        sessionId: 's',
        goalId: 1,
        summary:
          'goal 1, cycles 1-3: tried infer_rules on Mars, Volcano: 1 worked, 0 did not; gap_analysis on Mars: 0 worked, 2 did not | derived 10 facts',
        learnings: [5, 6],
        tools: ['infer_rules', 'gap_analysis'],
        toolResults: [
          { tool: 'infer_rules', successes: 1, failures: 0, symbols: [5, 6] },
          { tool: 'gap_analysis', successes: 0, failures: 2, symbols: [5] },
        ],
        timestamp: 100,
        cycle: 4,
      },
      {
        sessionId: 's',
        goalId: 2,
        summary: 'goal 2, cycle 2: tried similarity_search on Dog: 1 worked, 0 did not | nearest to Dog: Wolf',
        learnings: [8],
        tools: ['similarity_search'],
        toolResults: [{ tool: 'similarity_search', successes: 1, failures: 0, symbols: [8] }],
        timestamp: 100,
        cycle: 4,
      },
    ]);
  });

  it('says from recalled episodes which tools worked on the asked symbols and which did not; a mixed record says nothing', () => {
    const episode: Episode = {
      id: 7,
      sessionId: 's',
      summary: '',
      learnings: [5],
      tools: [],
      toolResults: [
        { tool: 'infer_rules', successes: 2, failures: 0, symbols: [5] },
        { tool: 'gap_analysis', successes: 0, failures: 3, symbols: [5] },
        { tool: 'kg_query', successes: 1, failures: 1, symbols: [5] },
        { tool: 'reason', successes: 0, failures: 1, symbols: [9] },
      ],
      timestamp: 1,
      cycle: 3,
    };
    const evidence = episodicEvidence([{ episode, score: 1 }], [5]);
    expect(Object.fromEntries(evidence)).toEqual({
      infer_rules: { verdict: 'worked', episodeId: 7, on: [5] },
      gap_analysis: { verdict: 'failed', episodeId: 7, on: [5] },
    });
  });

  it('ranks an episode recalled more often first among equal matches', () => {
    const episode = (id: number, recalls: number): Episode => ({
      id,
      sessionId: 's',
      summary: '',
      learnings: [1],
      tools: [],
      timestamp: id,
      cycle: id,
      recalls,
    });
    expect(recallEpisodes([episode(1, 4), episode(2, 0)], { symbols: [1] }).map((recall) => recall.episode.id)).toEqual(
      [1, 2],
    );
  });

  it('recalls by shared symbols and by text, best first', () => {
    const episode = (id: number, summary: string, learnings: number[]): Episode => ({
      id,
      sessionId: 's',
      summary,
      learnings,
      tools: [],
      timestamp: id,
      cycle: id,
    });
    const episodes = [
      episode(1, 'derived facts about mammals and dogs', [1, 2]),
      episode(2, 'nearest to Mars: Venus, Mercury', [3, 4]),
      episode(3, 'Mars has two moons', [3]),
    ];
    expect(recallEpisodes(episodes, { symbols: [3, 4] }).map((recall) => [recall.episode.id, recall.score])).toEqual([
      [2, 1],
      [3, 0.5],
    ]);
    expect(recallEpisodes(episodes, { text: 'mammals and dogs' })[0]!.episode.id).toBe(1);
    expect(recallEpisodes(episodes, { symbols: [99] })).toEqual([]);
  });
});
