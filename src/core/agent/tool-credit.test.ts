import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/records/cycle.ts';
import { creditsOf } from './tool-credit.ts';

const record = (
  cycle: number,
  goalId: number,
  tool: string,
  outcome: CycleRecord['outcome'],
  candidates: CycleRecord['candidates'] = [],
): CycleRecord => ({
  sessionId: 's',
  cycle,
  goalId,
  startedAt: cycle,
  observe: '',
  orient: '',
  decide: '',
  act: '',
  candidates,
  tool,
  input: {},
  outcome,
});

describe('credit for what a tool prepared', () => {
  it("credits a similarity and a gap whose goal advanced within its next three cycles, not another goal's advance", () => {
    const window = [
      record(1, 1, 'similarity_search', 'no-change'),
      record(2, 2, 'kg_query', 'advanced'),
      record(3, 1, 'gap_analysis', 'no-change'),
      record(4, 1, 'synthesize_triple', 'advanced'),
      record(5, 2, 'gap_analysis', 'no-change'),
      record(6, 2, 'kg_query', 'no-change'),
    ];
    expect(creditsOf(window)).toEqual([
      'a similarity that led to a finding',
      undefined,
      'a gap a later cycle filled',
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("does not credit beyond three of the goal's cycles, nor a tool that finds by itself", () => {
    const window = [
      record(1, 1, 'similarity_search', 'no-change'),
      record(2, 1, 'kg_query', 'no-change'),
      record(3, 1, 'kg_query', 'no-change'),
      record(4, 1, 'kg_query', 'no-change'),
      record(5, 1, 'reason', 'advanced'),
    ];
    expect(creditsOf(window)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('credits a recall after which the goal passed over a tool an episode says failed on its symbols', () => {
    const window = [
      record(1, 1, 'memory_recall', 'no-change'),
      record(2, 1, 'kg_query', 'no-change', [
        {
          tool: 'gap_analysis',
          score: 0.2,
          breakdown: '[score=0.20: ... episodic=-0.20 ...] recalled: it did not work on Mars before (episode 1)',
        },
        { tool: 'kg_query', score: 0.6, breakdown: '[score=0.60: ...]' },
      ]),
      record(3, 1, 'memory_recall', 'no-change'),
      record(4, 1, 'gap_analysis', 'no-change', [
        { tool: 'gap_analysis', score: 0.2, breakdown: 'recalled: it did not work on Mars before (episode 1)' },
      ]),
    ];
    expect(creditsOf(window)).toEqual(['a recall that avoided a failed tool', undefined, undefined, undefined]);
  });
});
