import { describe, expect, it } from 'vitest';
import { factsText, matchKeywords } from './goal.ts';
import { graphOf } from '#core/testing/graph-of.ts';

/** 100 findings "Rock<n> is-a Stone", as a goal that found many rocks holds them. */
function rockFacts() {
  const graph = graphOf(Array.from({ length: 100 }, (_, index) => [`Rock${index}`, 'is-a', 'Stone'] as const));
  const ids = (label: string) => graph.symbolByLabel(label)!.id;
  const facts = Array.from({ length: 100 }, (_, index): [number, number, number] => [
    ids(`Rock${index}`),
    ids('is-a'),
    ids('Stone'),
  ]);
  return { graph, facts, ids };
}

describe('reading findings for keywords', () => {
  it('reads a long list of findings again when one of them changed', () => {
    const { graph, facts, ids } = rockFacts();
    expect(factsText(graph, facts)).toContain('Rock99');
    const changed = facts.map((fact, index): [number, number, number] =>
      index === 99 ? [ids('Rock0'), fact[1], fact[2]] : fact,
    );
    expect(factsText(graph, changed)).not.toContain('Rock99');
    expect(factsText(graph, facts)).toContain('Rock99');
  });

  it('finds a keyword in any of the texts, in the singular or the plural', () => {
    const { graph, facts } = rockFacts();
    const goal = { description: 'Learn about rocks' };
    const text = factsText(graph, facts);
    expect(matchKeywords(goal, ['stones'], [text]).isMet).toBe(true);
    expect(matchKeywords(goal, ['stone', 'lava'], [text]).matched).toEqual(['stone']);
    expect(matchKeywords(goal, ['stone', 'lava'], [text, 'Lava flows.']).isMet).toBe(true);
  });
});
