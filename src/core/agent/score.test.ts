import { describe, expect, it } from 'vitest';
import { formatBreakdown, scoreTool, type ScoreInput } from './score.ts';

const input = (overrides: Partial<ScoreInput>): ScoreInput => ({
  base: 0.8,
  recentTools: [],
  tool: 'kg_query',
  isNovel: false,
  isConsolidation: false,
  memoryPressure: 0,
  archetypeWeight: 0.5,
  biasSeverity: 0,
  isPlanStep: false,
  priority: 255,
  ...overrides,
});

describe('tool scoring', () => {
  it('gives the breakdown of DESIGN.md for a novel sage tool on the active plan step', () => {
    const score = scoreTool(input({ isNovel: true, archetypeWeight: 0.7, isPlanStep: true }));
    expect(score.total).toBeCloseTo(0.8 + 0.15 + 0.03 + 0.25, 10);
    expect(formatBreakdown(score)).toBe(
      '[score=1.23: base=0.80 recency=-0.00 novelty=+0.15 episodic=+0.00 pressure=+0.00 archetype=+0.030 bias=-0.00 plan=+0.25]',
    );
  });

  it('penalises a tool used 1, 2 or 3 decisions ago by 0.4, 0.2, 0.1', () => {
    const totals = [['kg_query'], ['x', 'kg_query'], ['x', 'y', 'kg_query'], ['x', 'y', 'z', 'kg_query']].map(
      (recentTools) => scoreTool(input({ recentTools })).recency,
    );
    expect(totals).toEqual([0.4, 0.2, 0.1, 0]);
  });

  it('boosts consolidation only above 0.8 memory pressure, applies bias, and scales by priority', () => {
    expect(scoreTool(input({ isConsolidation: true, memoryPressure: 0.81 })).pressure).toBe(0.2);
    expect(scoreTool(input({ isConsolidation: true, memoryPressure: 0.8 })).pressure).toBe(0);
    expect(scoreTool(input({ isConsolidation: true, memoryPressure: 0.61, pressureThreshold: 0.6 })).pressure).toBe(
      0.2,
    );
    expect(scoreTool(input({ biasSeverity: 2 })).total).toBeCloseTo(0.6, 10);
    expect(scoreTool(input({ priority: 0 })).total).toBeCloseTo(0.4, 10);
    expect(scoreTool(input({ base: 0.1, recentTools: ['kg_query'] })).total).toBe(0);
  });

  it('raises a tool recalled episodes say worked on these symbols, and lowers one they say failed', () => {
    expect(scoreTool(input({ episodic: 'worked' })).total).toBeCloseTo(1.0, 10);
    const failed = scoreTool(input({ episodic: 'failed' }));
    expect(failed.total).toBeCloseTo(0.6, 10);
    expect(formatBreakdown(failed)).toContain('episodic=-0.20');
  });
});
