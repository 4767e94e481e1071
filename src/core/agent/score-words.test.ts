import { describe, expect, it } from 'vitest';
import { formatBreakdown, readBreakdown, scoreTool, type ScoreInput } from './score.ts';
import { choiceInWords, scoreInWords } from './score-words.ts';

const input = (changes: Partial<ScoreInput> = {}): ScoreInput => ({
  base: 0.8,
  recentTools: [],
  tool: 'kg_query',
  isNovel: true,
  isConsolidation: false,
  memoryPressure: 0,
  archetypeWeight: 0.5,
  biasSeverity: 0,
  isPlanStep: true,
  priority: 255,
  ...changes,
});
const breakdownOf = (changes: Partial<ScoreInput> = {}) => formatBreakdown(scoreTool(input(changes)));

describe('scores in words', () => {
  it('reads back every part of a stored breakdown, with what the cycle added after it', () => {
    const stored = `${breakdownOf({ biasSeverity: 0.5 })} recalled: it worked on Dog before (episode 3) biased by careful (slow down)`;
    expect(readBreakdown(stored)).toMatchObject({
      total: 1.15,
      base: 0.8,
      novelty: 0.15,
      plan: 0.25,
      bias: 0.05,
      recalled: 'it worked on Dog before (episode 3)',
      biasedBy: 'careful (slow down)',
    });
    expect(readBreakdown('score 3')).toBeUndefined();
  });

  it('says what raised a score and what lowered it, each with its number', () => {
    expect(scoreInWords(breakdownOf())).toBe(
      '1.20: fits this goal 0.80; raised because it has not been tried on this goal yet (+0.15) and the plan asks for it next (+0.25)',
    );
    const again = breakdownOf({ isNovel: false, isPlanStep: false, recentTools: ['kg_query'], archetypeWeight: 0.9 });
    expect(scoreInWords(again)).toBe(
      "0.46: fits this goal 0.80; raised because the psyche's archetypes favour it (+0.06); lowered because it ran in the last cycle (−0.40)",
    );
    expect(scoreInWords(breakdownOf({ recentTools: ['infer_rules', 'reason', 'kg_query'] }))).toContain(
      'it ran three cycles ago (−0.10)',
    );
    // A goal of priority 0 halves the sum.
    expect(scoreInWords(breakdownOf({ priority: 0 }))).toMatch(/^0\.60: .*; times 0\.50 for the goal's priority$/);
    // Nothing internal is left: no "recency=", no "-0.00".
    expect(scoreInWords(breakdownOf())).not.toMatch(/=|-0\.00/);
  });

  it('says why a cycle chose its tool in a sentence, naming the tool in words and by name', () => {
    const candidates = [
      { tool: 'kg_query', score: 1.2, breakdown: breakdownOf() },
      {
        tool: 'infer_rules',
        score: 0.3,
        breakdown: breakdownOf({ tool: 'infer_rules', isPlanStep: false, base: 0.2 }),
      },
      { tool: 'http_fetch', skippedBecause: 'no web address is allowed' },
    ];
    expect(choiceInWords({ tool: 'kg_query', candidates })).toBe(
      'Query the knowledge graph (kg_query), chosen because it has not been tried on this goal yet and the plan asks for it next.',
    );
    expect(choiceInWords({ tool: 'kg_query', candidates: candidates.slice(0, 1) })).toBe(
      'Query the knowledge graph (kg_query), the only tool that could work on this goal now.',
    );
    const tried = [{ tool: 'kg_query', score: 0.8, breakdown: breakdownOf({ isNovel: false, isPlanStep: false }) }];
    expect(choiceInWords({ tool: 'kg_query', candidates: [...tried, candidates[1]!] })).toBe(
      'Query the knowledge graph (kg_query), chosen because it fits this goal best of the 2 tools scored.',
    );
  });
});
