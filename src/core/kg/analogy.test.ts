import { describe, expect, it } from 'vitest';
import { graphOf } from '#core/testing/graph-of.ts';
import { contradicted, proposeByAnalogy, uncopyableBecause } from './analogy.ts';
import { fitting } from './analogy-fit.ts';
import { KnowledgeGraph } from './graph.ts';
import { SimilarityIndex } from './similarity.ts';
import { RDFS_LABEL } from './standard-terms.ts';
import type { Term } from './term.ts';

type Fact = readonly [Term | string, Term | string, Term | string];
const term = (value: Term | string): Term => (typeof value === 'string' ? { type: 'label', value } : value);
const literal = (value: string): Term => ({ type: 'literal', value });

/** A graph from facts whose terms may be IRIs or literals (graphOf takes labels only). */
function graphWith(facts: readonly Fact[]): KnowledgeGraph {
  const graph = new KnowledgeGraph();
  const batch = graph.batch({ now: 1 });
  for (const [subject, predicate, object] of facts)
    batch.assert(
      batch.resolve(term(subject), 'subject'),
      batch.resolve(term(predicate), 'predicate'),
      batch.resolve(term(object), 'object'),
      1,
    );
  graph.apply(batch.delta);
  return graph;
}

/** The proposals for a symbol, as `predicate object (support)` in their order. */
function proposalsFor(graph: KnowledgeGraph, subject: string): string[] {
  const label = (id: number) => graph.symbol(id)!.label;
  const { proposals } = proposeByAnalogy(graph, new SimilarityIndex(graph), graph.symbolByLabel(subject)!.id);
  return proposals.map((proposal) => `${label(proposal.predicate)} ${label(proposal.object)} (${proposal.support})`);
}

const CANIDS: Fact[] = [
  ['Dog', 'is-a', 'Canine'],
  ['Dog', 'has-part', 'Tail'],
  ['Dog', 'has-part', 'Fur'],
  ['Wolf', 'is-a', 'Canine'],
  ['Wolf', 'has-part', 'Tail'],
  ['Wolf', 'has-part', 'Fur'],
  ['Wolf', 'eats', 'Meat'],
  ['Fox', 'is-a', 'Canine'],
  ['Fox', 'has-part', 'Tail'],
  ['Fox', 'has-part', 'Fur'],
  ['Fox', 'eats', 'Meat'],
  ['Fox', 'lives-in', 'Burrow'],
];

describe('proposeByAnalogy', () => {
  it('orders proposals by how many similar symbols share them', () => {
    // Each neighbour's lone fact comes first in the graph, so only the ordering puts the shared one first.
    const graph = graphWith([['Wolf', 'howls-at', 'Moon'], ['Fox', 'lives-in', 'Burrow'], ...CANIDS]);
    expect(proposalsFor(graph, 'Dog')).toEqual(['eats Meat (2)', 'howls-at Moon (1)', 'lives-in Burrow (1)']);
  });

  it('consults symbols with similar names that the graph has not connected yet', () => {
    const graph = graphWith([
      ['cactus wren', 'is-a', 'Wren'],
      ['rock wren', 'is-a', 'Wren'],
      ['cactus wren', 'eats', 'Insect'],
      ['marsh wren', 'nests-in', 'Reed'],
    ]);
    expect(proposalsFor(graph, 'marsh wren')).toEqual(['is-a Wren (2)', 'eats Insect (1)']);
  });

  it('takes name kin only when the last word, which names the kind, is the same', () => {
    // "Carolina parakeet" shares a word with "Carolina wren", but a parakeet is no wren.
    const graph = graphWith([
      ['Carolina wren', 'is-a', 'Wren'],
      ['Carolina chickadee', 'is-a', 'Chickadee'],
      ['ring-necked parakeet', 'is-a', 'Parrot'],
      ['Carolina parakeet', 'lives-in', 'Forest'],
    ]);
    expect(proposalsFor(graph, 'Carolina parakeet')).toEqual(['is-a Parrot (1)']);
    // Words are split as the name search splits them: at hyphens and underscores too.
    const joined = graphWith([
      ['cactus-wren', 'is-a', 'Wren'],
      ['wren-tit', 'is-a', 'Babbler'],
      ['marsh_wren', 'nests-in', 'Reed'],
    ]);
    expect(proposalsFor(joined, 'marsh_wren')).toEqual(['is-a Wren (1)']);
  });

  it('never copies a name: label, rdfs:label, schema:name or skos:altLabel', () => {
    const graph = graphWith([
      ...CANIDS,
      ['Wolf', 'label', 'canine'],
      ['Fox', 'label', 'canine'],
      ['Wolf', { type: 'iri', value: RDFS_LABEL }, literal('grey wolf')],
      ['Fox', { type: 'iri', value: 'http://schema.org/name' }, literal('red fox')],
      ['Fox', { type: 'iri', value: 'http://www.w3.org/2004/02/skos/core#altLabel' }, literal('tod')],
    ]);
    expect(proposalsFor(graph, 'Dog')).toEqual(['eats Meat (2)', 'lives-in Burrow (1)']);
  });

  it('never copies a code: a predicate named as one, or one whose values read as identifiers', () => {
    const graph = graphWith([
      ...CANIDS,
      ['Wolf', 'alpha-code', 'CAN'],
      ['Fox', 'taxon-id', literal('9627')],
      ['Wolf', 'ref', literal('Q18498')],
      ['Fox', 'ref', literal('Q8332')],
    ]);
    expect(proposalsFor(graph, 'Dog')).toEqual(['eats Meat (2)', 'lives-in Burrow (1)']);
  });

  it('never copies a predicate functional in the graph, such as a capital', () => {
    const countries: Fact[] = ['France', 'Germany', 'Italy', 'Spain'].flatMap((country): Fact[] => [
      [country, 'is-a', 'Country'],
      [country, 'in', 'Europe'],
      [country, 'uses', 'Euro'],
    ]);
    const capitals: Fact[] = [
      ['France', 'capital', 'Paris'],
      ['Germany', 'capital', 'Berlin'],
      ['Italy', 'capital', 'Rome'],
      ['France', 'member-of', 'NATO'],
      ['Germany', 'member-of', 'NATO'],
    ];
    const graph = graphWith([...countries, ...capitals]);
    expect(uncopyableBecause(graph, graph.symbolByLabel('capital')!.id)).toBe('functional');
    expect(proposalsFor(graph, 'Spain')).toEqual(['member-of NATO (2)']);
  });

  it('calls a predicate functional only once 3 subjects have it, and not when one has two objects', () => {
    const two = graphOf([
      ['France', 'capital', 'Paris'],
      ['Germany', 'capital', 'Berlin'],
    ]);
    expect(uncopyableBecause(two, two.symbolByLabel('capital')!.id)).toBeUndefined();
    const graph = graphOf([
      ['France', 'capital', 'Paris'],
      ['Germany', 'capital', 'Berlin'],
      ['Italy', 'capital', 'Rome'],
    ]);
    const capital = graph.symbolByLabel('capital')!.id;
    expect(uncopyableBecause(graph, capital)).toBe('functional');
    // A second capital for one country: the judgement, cached, is renewed once the graph changes.
    const batch = graph.batch({ now: 2 });
    batch.assert(
      graph.symbolByLabel('Germany')!.id,
      capital,
      batch.resolve({ type: 'label', value: 'Bonn' }, 'object'),
      1,
    );
    graph.apply(batch.delta);
    expect(uncopyableBecause(graph, capital)).toBeUndefined();
  });

  it('copies is-a even where each thing has one class, as taxonomies do', () => {
    const graph = graphWith([
      ['Rex', 'is-a', 'Dog'],
      ['Fido', 'is-a', 'Dog'],
      ['Tom', 'is-a', 'Cat'],
      ...['Rex', 'Fido', 'Lassie'].flatMap((dog): Fact[] => [
        [dog, 'eats', 'Kibble'],
        [dog, 'barks-at', 'Postman'],
      ]),
    ]);
    expect(uncopyableBecause(graph, graph.symbolByLabel('is-a')!.id)).toBeUndefined();
    expect(proposalsFor(graph, 'Lassie')).toEqual(['is-a Dog (2)']);
  });

  it('keeps the most specific classes, and no more objects of a predicate than similar symbols have', () => {
    const graph = graphWith([
      ['Terrier', 'is-a', 'Dog'],
      ['Bullterrier', 'is-a', 'Terrier'],
      ['Rex', 'is-a', 'Bullterrier'],
      ['Rex', 'member-of', 'Pack'],
      ['Fido', 'is-a', 'Terrier'],
      ['Fido', 'member-of', 'Kennel'],
      ['Tom', 'is-a', 'Cat'],
      ['Tom', 'is-a', 'Pet'],
      ['Rex', 'eats', 'Kibble'],
      ['Spot', 'is-a', 'Dog'],
      ['Spot', 'member-of', 'Club'],
      ['Rosy', 'lives-in', 'House'],
    ]);
    const id = (label: string) => graph.symbolByLabel(label)!.id;
    const proposal = (fact: string) => {
      const [predicate, object] = fact.split(' ') as [string, string];
      return { predicate: id(predicate), object: id(object) };
    };
    const kept = (subject: string, facts: string[], neighbours: string[]) =>
      fitting(
        graph,
        id(subject),
        facts.map(proposal),
        neighbours.map((symbol) => ({ symbolId: id(symbol), similarity: 0.8 })),
      ).map((fact) => `${graph.symbol(fact.predicate)!.label} ${graph.symbol(fact.object)!.label}`);
    // Terrier and Dog are above Bullterrier: the rules give them once Bullterrier is taken.
    expect(kept('Rosy', ['is-a Terrier', 'eats Kibble', 'is-a Bullterrier', 'is-a Dog'], ['Rex', 'Fido'])).toEqual([
      'eats Kibble',
      'is-a Bullterrier',
    ]);
    // Spot is a dog already: Dog is no new fact, and Terrier refines it; Cat would be a second class.
    expect(kept('Spot', ['is-a Dog', 'is-a Terrier'], ['Fido'])).toEqual(['is-a Terrier']);
    expect(kept('Spot', ['is-a Cat', 'is-a Terrier'], ['Fido'])).toEqual(['is-a Terrier']);
    expect(kept('Spot', ['is-a Cat'], ['Fido'])).toEqual([]);
    // Similar symbols with one class each allow one; Tom's two allow two.
    expect(kept('Rosy', ['is-a Terrier', 'is-a Cat'], ['Fido'])).toEqual(['is-a Terrier']);
    expect(kept('Rosy', ['is-a Terrier', 'is-a Cat'], ['Tom'])).toEqual(['is-a Terrier', 'is-a Cat']);
    // Each is a member of one group: Rosy gets the best supported, and Spot, in one already, none.
    expect(kept('Rosy', ['member-of Pack', 'member-of Kennel'], ['Rex', 'Fido'])).toEqual(['member-of Pack']);
    expect(kept('Spot', ['member-of Pack'], ['Rex', 'Fido'])).toEqual([]);
  });

  it('never proposes what the graph states disjoint, nor the inverse of a stated fact', () => {
    const sea: Fact[] = ['Whale', 'Shark', 'Tuna'].flatMap((animal): Fact[] => [
      [animal, 'lives-in', 'Sea'],
      [animal, 'has-part', 'Fin'],
    ]);
    const facts: Fact[] = [...sea, ['Shark', 'is-a', 'Fish'], ['Tuna', 'is-a', 'Fish'], ['Whale', 'is-a', 'Mammal']];
    expect(proposalsFor(graphWith(facts), 'Whale')).toEqual(['is-a Fish (2)']);
    const graph = graphWith([...facts, ['Mammal', 'disjoint-with', 'Fish']]);
    expect(proposalsFor(graph, 'Whale')).toEqual([]);
    const id = (label: string) => graph.symbolByLabel(label)!.id;
    expect(contradicted(graph, id('Fish'), id('is-a'), id('Shark'))).toBe(true);
    expect(contradicted(graph, id('Whale'), id('is-a'), id('Mammal'))).toBe(true);
    expect(contradicted(graph, id('Whale'), id('lives-in'), id('Tuna'))).toBe(false);
  });
});
