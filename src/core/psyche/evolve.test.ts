import { describe, expect, it } from 'vitest';
import { evolvePsyche, type ToolUse } from './evolve.ts';
import { defaultPsyche } from '#core/records/psyche.ts';

const uses = (tool: string, archetype: ToolUse['archetype'], outcomes: boolean[]): ToolUse[] =>
  outcomes.map((hasSucceeded) => ({ tool, archetype, result: hasSucceeded ? 'succeeded' : 'failed' }));

describe('psyche evolution', () => {
  it('raises the archetype of a tool that succeeds and lowers that of one that fails', () => {
    const { psyche, changes } = evolvePsyche(
      defaultPsyche(),
      [...uses('kg_query', 'sage', [true, true, true]), ...uses('memory_recall', 'guardian', [false, false])],
      10,
    );
    expect(psyche.archetypes).toEqual({ sage: 0.72, healer: 0.5, explorer: 0.5, guardian: 0.38 });
    expect(changes).toEqual([
      'sage 0.70 -> 0.72 (kg_query succeeded 3 of 3)',
      'guardian 0.40 -> 0.38 (memory_recall succeeded 0 of 2)',
    ]);
    expect(psyche.selfIntegration).toMatchObject({
      rebalanceCount: 1,
      lastEvolutionCycle: 10,
      dominantArchetype: 'sage',
    });
  });

  it('counts a use credited for what it contributed later, and says so in the change', () => {
    const credited: ToolUse[] = [
      {
        tool: 'similarity_search',
        archetype: 'guardian',
        result: 'no-change',
        credit: 'a similarity that led to a finding',
      },
      {
        tool: 'similarity_search',
        archetype: 'guardian',
        result: 'no-change',
        credit: 'a similarity that led to a finding',
      },
      { tool: 'similarity_search', archetype: 'guardian', result: 'succeeded' },
      { tool: 'similarity_search', archetype: 'guardian', result: 'no-change' },
    ];
    const { psyche, changes } = evolvePsyche(defaultPsyche(), credited, 10);
    expect(psyche.archetypes.guardian).toBe(0.42);
    expect(changes).toEqual([
      'guardian 0.40 -> 0.42 (similarity_search succeeded 1 of 3; 2 more contributed later: a similarity that led to a finding; 1 more changed nothing)',
    ]);
  });

  it('moves no archetype for uses that changed nothing and prepared nothing: no evidence either way', () => {
    const idle: ToolUse[] = Array.from({ length: 6 }, () => ({
      tool: 'kg_query',
      archetype: 'sage',
      result: 'no-change',
    }));
    expect(evolvePsyche(defaultPsyche(), idle, 10).changes).toEqual([]);
  });

  it('leaves tools alone with fewer than two uses or a middling rate', () => {
    const { psyche, changes } = evolvePsyche(
      defaultPsyche(),
      [...uses('kg_query', 'sage', [true]), ...uses('gap_analysis', 'healer', [true, false])],
      5,
    );
    expect(psyche.archetypes).toEqual(defaultPsyche().archetypes);
    expect(changes).toEqual([]);
    expect(psyche.selfIntegration.rebalanceCount).toBe(0);
  });

  it('clamps weights to [0.1, 0.95] and recomputes the dominant archetype', () => {
    const start = defaultPsyche();
    start.archetypes = { sage: 0.11, healer: 0.5, explorer: 0.94, guardian: 0.4 };
    const { psyche } = evolvePsyche(
      start,
      [...uses('kg_query', 'sage', [false, false]), ...uses('http_fetch', 'explorer', [true, true])],
      5,
    );
    expect(psyche.archetypes).toMatchObject({ sage: 0.1, explorer: 0.95 });
    expect(psyche.selfIntegration.dominantArchetype).toBe('explorer');
    const again = evolvePsyche(psyche, [...uses('kg_query', 'sage', [false, false])], 10);
    expect(again.changes).toEqual([]);
  });

  it('grows individuation by 0.01 per new shadow encounter, at most five at a time, up to 1', () => {
    const start = defaultPsyche();
    start.selfIntegration = { ...start.selfIntegration, shadowEncounters: 9, encountersAtLastEvolution: 2 };
    const { psyche, changes } = evolvePsyche(start, [], 20);
    expect(psyche.selfIntegration.individuationLevel).toBe(0.15);
    expect(psyche.selfIntegration.encountersAtLastEvolution).toBe(9);
    expect(changes).toEqual(['individuation 0.10 -> 0.15 (7 shadow encounters)']);
    expect(evolvePsyche(psyche, [], 25).changes).toEqual([]);
    const nearlyWhole = {
      ...psyche,
      selfIntegration: { ...psyche.selfIntegration, individuationLevel: 0.995, shadowEncounters: 12 },
    };
    expect(evolvePsyche(nearlyWhole, [], 30).psyche.selfIntegration.individuationLevel).toBe(1);
  });

  it('never moves a weight set outside [0.1, 0.95] against the evidence', () => {
    const start = defaultPsyche();
    start.archetypes = { sage: 1, healer: 0.5, explorer: 0.5, guardian: 0.05 };
    const { psyche, changes } = evolvePsyche(
      start,
      [...uses('kg_query', 'sage', [true, true]), ...uses('memory_recall', 'guardian', [false, false])],
      5,
    );
    expect(psyche.archetypes).toMatchObject({ sage: 1, guardian: 0.05 });
    expect(changes).toEqual([]);
    expect(psyche.selfIntegration.rebalanceCount).toBe(0);
  });
});
