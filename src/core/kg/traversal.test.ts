import { describe, expect, it } from 'vitest';
import { graphOf } from '#core/testing/graph-of.ts';
import { type PathStep, shortestPath, spreadActivation, transitiveChains } from './traversal.ts';

const graph = graphOf([
  ['Dog', 'is-a', 'Canine'],
  ['Canine', 'is-a', 'Mammal', 0.8],
  ['Mammal', 'is-a', 'Animal', 0.5],
  ['Wolf', 'is-a', 'Canine'],
  ['Earth', 'orbits', 'Sun'],
  ['Dog', 'agent:seen-in', 'goal-1'],
]);
const id = (label: string) => graph.symbolByLabel(label)!.id;
const label = (symbolId: number) => graph.symbol(symbolId)!.label;
const describePath = (path: PathStep[] | undefined) =>
  path?.map(
    (step) =>
      `${label(step.isForward ? step.triple.subject : step.triple.object)} -${label(step.triple.predicate)}${step.isForward ? '->' : '<-'} ${label(step.isForward ? step.triple.object : step.triple.subject)}`,
  );

describe('spreading activation', () => {
  it('spreads along confidence in both directions, strongest first, never into metadata', () => {
    const reached = spreadActivation(graph, [id('Dog')], { depth: 3 }).map((entry) => [
      label(entry.symbolId),
      entry.activation,
    ]);
    expect(reached).toEqual([
      ['Canine', 1],
      ['Wolf', 1],
      ['Mammal', 0.8],
      ['Animal', 0.4],
    ]);
    expect(spreadActivation(graph, [id('Dog')], { depth: 2 }).map((entry) => label(entry.symbolId))).toEqual([
      'Canine',
      'Wolf',
      'Mammal',
    ]);
  });

  it('respects the threshold and top-k', () => {
    expect(
      spreadActivation(graph, [id('Dog')], { depth: 4, threshold: 0.5 }).map((entry) => label(entry.symbolId)),
    ).toEqual(['Canine', 'Wolf', 'Mammal']);
    expect(
      spreadActivation(graph, [id('Dog')], { depth: 4, threshold: 0.1 }).map((entry) => label(entry.symbolId)),
    ).toContain('Animal');
    expect(spreadActivation(graph, [id('Dog')], { topK: 1 })).toHaveLength(1);
  });
});

describe('shortest path', () => {
  it('walks triples forwards and backwards', () => {
    expect(describePath(shortestPath(graph, id('Dog'), id('Mammal')))).toEqual([
      'Dog -is-a-> Canine',
      'Canine -is-a-> Mammal',
    ]);
    expect(describePath(shortestPath(graph, id('Wolf'), id('Dog')))).toEqual([
      'Wolf -is-a-> Canine',
      'Canine -is-a<- Dog',
    ]);
  });

  it('finds nothing between unconnected symbols, or past the length limit', () => {
    expect(shortestPath(graph, id('Dog'), id('Sun'))).toBeUndefined();
    expect(shortestPath(graph, id('Dog'), id('Animal'), { maxLength: 2 })).toBeUndefined();
    expect(shortestPath(graph, id('Dog'), id('Dog'))).toEqual([]);
  });

  it('does not travel through the agent metadata', () => {
    expect(shortestPath(graph, id('Dog'), id('goal-1'))).toBeUndefined();
  });
});

describe('transitive closure', () => {
  it('finds everything that reaches a class through a predicate, nearest first, through cycles', () => {
    const taxonomy = graphOf([
      ['Dog', 'is-a', 'Canine'],
      ['Wolf', 'is-a', 'Canine'],
      ['Canine', 'is-a', 'Mammal'],
      ['Cat', 'is-a', 'Mammal'],
      ['Mammal', 'is-a', 'Animal'],
      ['Animal', 'is-a', 'Mammal'],
      ['Dog', 'lives-in', 'Mammal'],
    ]);
    const at = (label: string) => taxonomy.symbolByLabel(label)!.id;
    const chains = transitiveChains(taxonomy, at('is-a'), at('Mammal'));
    const label = (symbolId: number) => taxonomy.symbol(symbolId)!.label;
    expect(chains.map((proof) => label(proof.subject))).toEqual(['Canine', 'Cat', 'Animal', 'Dog', 'Wolf']);
    // Each with its proof: the chain of is-a facts from it up to Mammal.
    expect(
      chains
        .find((proof) => label(proof.subject) === 'Wolf')!
        .chain.map((triple) => `${label(triple.subject)} ${label(triple.object)}`),
    ).toEqual(expect.arrayContaining(['Canine Mammal']));
    expect(chains.find((proof) => label(proof.subject) === 'Wolf')!.chain.at(-1)!.object).toBe(at('Mammal'));
  });
});

describe('spreading activation on hubs', () => {
  it('takes at most fanOut neighbours of a symbol each way', () => {
    const hub = graphOf(
      Array.from({ length: 50 }, (_, index) => [`Thing${index}`, 'is-a', 'Hub'] as [string, string, string]),
    );
    const reached = spreadActivation(hub, [hub.symbolByLabel('Hub')!.id], { depth: 1, topK: 100, fanOut: 10 });
    expect(reached.map((entry) => hub.symbol(entry.symbolId)!.label)).toEqual(
      Array.from({ length: 10 }, (_, index) => `Thing${index}`),
    );
  });
});
