import { describe, expect, it } from 'vitest';
import { factsText, matchKeywords, parseCriteria } from './goal.ts';
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

describe('a goal that asks for a number of things', () => {
  it('is read as the question which, needing that many answers', () => {
    const question = (description: string) => {
      const parsed = parseCriteria('', description);
      return parsed.ok && parsed.value.kind === 'question'
        ? [parsed.value.question, parsed.value.minCount]
        : parsed.ok && parsed.value.kind;
    };
    expect(question('Find 400 kinds of bird')).toEqual(['Which kinds of bird?', 400]);
    expect(question('list at least 5 mammals.')).toEqual(['Which mammals?', 5]);
    expect(question('Please name 3 planets that have moons')).toEqual(['Which planets that have moons?', 3]);
    expect(question('Show me 2 birds of prey!')).toEqual(['Which birds of prey?', 2]);
    // No count, or none above 0: read as before.
    expect(question('Find all mammals')).toEqual(['Find all mammals', undefined]);
    expect(question('Find 0 kinds of bird')).toEqual(['Find 0 kinds of bird', undefined]);
    expect(question('Find 7 things about horses')).toEqual(['Find 7 things about horses', undefined]);
  });
});

describe('a goal to learn about one thing', () => {
  it('is read as "Tell me about" it, with "everything about" too, while "Find all mammals" stays a list', () => {
    const question = (description: string) => {
      const parsed = parseCriteria('', description);
      return parsed.ok && parsed.value.kind === 'question' ? parsed.value.question : undefined;
    };
    expect(question('Learn about Mars')).toBe('Tell me about Mars');
    expect(question('Find everything about Germany.')).toBe('Tell me about Germany');
    expect(question('tell me all about whales')).toBe('Tell me about whales');
    expect(question('Find anything you can about the euro')).toBe('Tell me about the euro');
    expect(question('Find all mammals')).toBe('Find all mammals');
  });
});
