import { describe, expect, it } from 'vitest';
import { KnowledgeGraph } from './graph.ts';
import { similarity, textSimilarity } from './hypervector.ts';
import { symbolsTouchedBy } from './graph-delta.ts';
import type { SimilarityHit } from './similarity-options.ts';
import { SimilarityIndex } from './similarity.ts';
import { RDFS_LABEL } from './standard-terms.ts';

type Fact = [subject: string, predicate: string, object: string, confidence?: number];

/** Adds facts by label (objects written "quoted" become literals) and returns the stored delta. */
function assertFacts(graph: KnowledgeGraph, facts: Fact[]) {
  const batch = graph.batch({ now: 1 });
  for (const [subject, predicate, object, confidence = 1] of facts) {
    const objectId = object.startsWith('"')
      ? batch.resolve({ type: 'literal', value: object.slice(1, -1) }, 'object')
      : batch.resolve({ type: 'label', value: object }, 'object');
    const predicateId = predicate.startsWith('http')
      ? batch.resolve({ type: 'iri', value: predicate }, 'predicate')
      : batch.resolve({ type: 'label', value: predicate }, 'predicate');
    batch.assert(batch.resolve({ type: 'label', value: subject }, 'subject'), predicateId, objectId, confidence);
  }
  const delta = batch.delta;
  graph.apply(delta);
  return delta;
}

const animals: Fact[] = [
  ['Dog', 'is-a', 'Canine'],
  ['Dog', 'has-part', 'Fur'],
  ['Dog', 'has-part', 'Tail'],
  ['Dog', 'eats', 'Meat'],
  ['Dog', 'lives-in', 'House'],
  ['Wolf', 'is-a', 'Canine'],
  ['Wolf', 'has-part', 'Fur'],
  ['Wolf', 'has-part', 'Tail'],
  ['Wolf', 'eats', 'Meat'],
  ['Cat', 'is-a', 'Feline'],
  ['Cat', 'has-part', 'Fur'],
  ['Cat', 'has-part', 'Tail'],
  ['Cat', 'eats', 'Fish'],
  ['Mars', 'is-a', 'Planet'],
  ['Mars', 'orbits', 'Sun'],
];

function animalGraph(): { graph: KnowledgeGraph; index: SimilarityIndex; id: (label: string) => number } {
  const graph = new KnowledgeGraph();
  assertFacts(graph, animals);
  const id = (label: string) => {
    const symbol = graph.symbolByLabel(label);
    if (symbol === undefined) throw new Error(`no symbol ${label}`);
    return symbol.id;
  };
  return { graph, index: new SimilarityIndex(graph), id };
}

const labelsOf = (graph: KnowledgeGraph, hits: SimilarityHit[]) => hits.map((hit) => graph.symbol(hit.symbolId)?.label);

describe('meaning vectors', () => {
  it('ranks symbols by how much of their neighbourhood they share: Dog-Wolf > Dog-Cat > Dog-Mars', () => {
    const { index, id } = animalGraph();
    const wolf = index.similarityOf(id('Dog'), id('Wolf'));
    const cat = index.similarityOf(id('Dog'), id('Cat'));
    const mars = index.similarityOf(id('Dog'), id('Mars'));
    expect(wolf).toBeGreaterThan(cat);
    expect(cat).toBeGreaterThan(mars);
    expect(wolf).toBeGreaterThan(0.8);
    expect(mars).toBeGreaterThan(0.45);
    expect(mars).toBeLessThan(0.55);
  });

  it('gives symbols with the same parents and properties the same meaning', () => {
    const { graph, index, id } = animalGraph();
    assertFacts(graph, [
      ['Coyote', 'is-a', 'Canine'],
      ['Coyote', 'has-part', 'Fur'],
      ['Coyote', 'has-part', 'Tail'],
      ['Coyote', 'eats', 'Meat'],
    ]);
    expect(index.similarityOf(id('Wolf'), id('Coyote'))).toBe(1);
    expect(index.similarityOf(id('Wolf'), id('Wolf'))).toBe(1);
  });

  it('tells the direction of a relation apart: being eaten is not eating', () => {
    const { graph, index, id } = animalGraph();
    assertFacts(graph, [
      ['Lion', 'eats', 'Meat'],
      ['Meat', 'eats', 'Lion'],
      ['Tiger', 'eats', 'Meat'],
      ['Gazelle', 'eats', 'Grass'],
      ['Lion', 'eats', 'Gazelle'],
    ]);
    // Tiger eats Meat like Lion; Gazelle is eaten by Lion, as Meat is.
    expect(index.similarityOf(id('Tiger'), id('Lion'))).toBeGreaterThan(index.similarityOf(id('Tiger'), id('Gazelle')));
  });

  it('is the base vector for a symbol without domain triples', () => {
    const { graph, index, id } = animalGraph();
    assertFacts(graph, [['Pluto', 'agent:note', 'Remember this']]);
    expect(index.meaningVector(id('Pluto')).words).toEqual(index.baseVector(id('Pluto')).words);
    expect(index.meaningVector(id('Dog')).words).not.toEqual(index.baseVector(id('Dog')).words);
  });

  it('gives every symbol an unrelated base vector', () => {
    const { index, id } = animalGraph();
    const score = similarity(index.baseVector(id('Dog')), index.baseVector(id('Wolf')));
    expect(score).toBeGreaterThan(0.45);
    expect(score).toBeLessThan(0.55);
    expect(new SimilarityIndex(new KnowledgeGraph()).baseVector(id('Dog')).words).toEqual(
      index.baseVector(id('Dog')).words,
    );
  });

  it("leaves the agent's bookkeeping and names (rdfs:label, schema:name, label) out of a meaning", () => {
    const { graph, index, id } = animalGraph();
    const before = index.similarityOf(id('Dog'), id('Mars'));
    const dogMeaning = index.meaningVector(id('Dog'));
    assertFacts(graph, [
      ['Dog', 'agent:status', 'Active'],
      ['Mars', 'agent:status', 'Active'],
      ['Dog', RDFS_LABEL, '"dog"'],
      ['Mars', RDFS_LABEL, '"dog"'],
      ['Dog', 'http://schema.org/name', '"Rex"'],
      ['Mars', 'http://schema.org/name', '"Rex"'],
      ['Dog', 'label', 'canine'],
      ['Mars', 'label', 'canine'],
    ]);
    expect(index.meaningVector(id('Dog')).words).toEqual(dogMeaning.words);
    expect(index.similarityOf(id('Dog'), id('Mars'))).toBe(before);
    expect(labelsOf(graph, index.nearest(id('Dog'), { k: 100 }))).not.toContain('Mars');
  });

  it('counts a shared literal value as a shared property', () => {
    const { graph, index, id } = animalGraph();
    assertFacts(graph, [
      ['Mars', 'colour', '"red"'],
      ['Rose', 'colour', '"red"'],
      ['Rose', 'is-a', 'Flower'],
    ]);
    expect(labelsOf(graph, index.nearest(id('Rose')))).toEqual(['Mars', 'Flower']);
    expect(index.similarityOf(id('Rose'), id('Mars'))).toBeGreaterThan(0.6);
  });

  it('weighs triples by confidence', () => {
    const { graph, index, id } = animalGraph();
    assertFacts(graph, [
      ['Lynx', 'is-a', 'Feline'],
      ['Lynx', 'eats', 'Fish'],
      ['Lynx', 'has-part', 'Fur', 0.2],
      ['Lynx', 'has-part', 'Tail', 0.2],
      ['Fox', 'is-a', 'Vulpine'],
      ['Fox', 'eats', 'Fish'],
      ['Fox', 'has-part', 'Fur'],
      ['Fox', 'has-part', 'Tail'],
    ]);
    // Same shape, but Lynx's fur and tail are doubtful, so it resembles Dog less than Fox does.
    expect(index.similarityOf(id('Dog'), id('Fox'))).toBeGreaterThan(index.similarityOf(id('Dog'), id('Lynx')));
  });
});

describe('nearest', () => {
  it('finds Wolf first and then Cat for Dog, with Mars not above them', () => {
    const { graph, index, id } = animalGraph();
    const hits = index.nearest(id('Dog'));
    const labels = labelsOf(graph, hits);
    expect(labels.slice(0, 2)).toEqual(['Wolf', 'Cat']);
    expect(labels).not.toContain('Mars');
    expect(labels).not.toContain('Dog');
    for (const [position, hit] of hits.entries()) {
      expect(hit.similarity).toBe(index.similarityOf(id('Dog'), hit.symbolId));
      if (position > 0) expect(hit.similarity).toBeLessThanOrEqual(hits[position - 1]!.similarity);
    }
  });

  it('returns the k best, above the minimum similarity asked for', () => {
    const { graph, index, id } = animalGraph();
    expect(labelsOf(graph, index.nearest(id('Dog'), { k: 1 }))).toEqual(['Wolf']);
    const close = index.nearest(id('Dog'), { minSimilarity: 0.6 });
    expect(labelsOf(graph, close)).toEqual(['Wolf', 'Cat']);
    expect(index.nearest(id('Dog'), { k: 0 })).toEqual([]);
  });

  it('orders equally similar symbols by label', () => {
    const { graph, index, id } = animalGraph();
    assertFacts(graph, [
      ['Jackal', 'is-a', 'Canine'],
      ['Jackal', 'has-part', 'Fur'],
      ['Jackal', 'has-part', 'Tail'],
      ['Jackal', 'eats', 'Meat'],
    ]);
    expect(labelsOf(graph, index.nearest(id('Dog'), { k: 2 }))).toEqual(['Jackal', 'Wolf']);
  });

  it('returns entities only, unless other kinds are asked for', () => {
    const { graph, index, id } = animalGraph();
    assertFacts(graph, [
      ['Dog', 'colour', '"brown"'],
      ['Wolf', 'colour', '"brown"'],
      ['Fur', 'colour', '"brown"'],
    ]);
    const kinds = (hits: SimilarityHit[]) => new Set(hits.map((hit) => graph.symbol(hit.symbolId)?.kind));
    expect(kinds(index.nearest(id('Dog'), { k: 100 }))).toEqual(new Set(['entity']));
    expect(kinds(index.nearest(id('Dog'), { k: 100, kinds: ['entity', 'literal'] }))).toEqual(
      new Set(['entity', 'literal']),
    );
  });

  it('finds nothing for an unknown symbol or one without domain triples', () => {
    const { graph, index, id } = animalGraph();
    assertFacts(graph, [['Pluto', 'agent:note', 'Remember this']]);
    expect(index.nearest(id('Pluto'))).toEqual([]);
    expect(index.nearest(9_999)).toEqual([]);
  });

  it('takes at most the first few symbols from one common feature, and rarer features first', () => {
    const graph = new KnowledgeGraph();
    const crowd: Fact[] = Array.from({ length: 30 }, (_, number) => [`Rose ${number}`, 'colour', 'Red']);
    assertFacts(graph, [
      ...crowd,
      ['Poppy', 'colour', 'Red'],
      ['Poppy', 'grows-in', 'Field'],
      ['Cornflower', 'grows-in', 'Field'],
    ]);
    const poppy = graph.symbolByLabel('Poppy')!.id;
    const few = new SimilarityIndex(graph, { candidatesPerFeature: 5 });
    const labels = labelsOf(graph, few.nearest(poppy, { k: 100 }));
    // Field and Red are neighbours; Cornflower shares the rare feature; five roses share the common one.
    expect(labels).toHaveLength(2 + 1 + 5);
    expect(labels.filter((label) => label?.startsWith('Rose')).sort()).toEqual([
      'Rose 0',
      'Rose 1',
      'Rose 2',
      'Rose 3',
      'Rose 4',
    ]);
    const tight = new SimilarityIndex(graph, { candidateLimit: 2 });
    expect(labelsOf(graph, tight.nearest(poppy, { k: 100 })).sort()).toEqual(['Cornflower', 'Field']);
  });
});

describe('keeping up with the graph', () => {
  it('sees added triples without being told', () => {
    const { graph, index, id } = animalGraph();
    expect(labelsOf(graph, index.nearest(id('Dog'))).slice(0, 2)).toEqual(['Wolf', 'Cat']);
    assertFacts(graph, [
      ['Cat', 'is-a', 'Canine'],
      ['Cat', 'eats', 'Meat'],
      ['Cat', 'lives-in', 'House'],
    ]);
    expect(labelsOf(graph, index.nearest(id('Dog'))).slice(0, 2)).toEqual(['Cat', 'Wolf']);
  });

  it('keeps up with a large import after its first answer', () => {
    const { graph, index, id } = animalGraph();
    expect(labelsOf(graph, index.nearest(id('Dog'), { k: 1 }))).toEqual(['Wolf']);
    const breeds: Fact[] = Array.from({ length: 1_500 }, (_, number) => [
      `Breed ${number}`,
      'is-a',
      `Group ${number % 10}`,
    ]);
    assertFacts(graph, [
      ...breeds,
      ['Dingo', 'is-a', 'Canine'],
      ['Dingo', 'has-part', 'Fur'],
      ['Dingo', 'has-part', 'Tail'],
      ['Dingo', 'eats', 'Meat'],
      ['Dingo', 'lives-in', 'House'],
    ]);
    expect(labelsOf(graph, index.nearest(id('Dog'), { k: 2 }))).toEqual(['Dingo', 'Wolf']);
    expect(index.similarityOf(id('Dog'), id('Dingo'))).toBe(1);
    // A few more triples after that are kept aside from the rebuilt index, and still seen.
    assertFacts(graph, [['Breed 7', 'eats', 'Meat']]);
    expect(index.similarityOf(id('Breed 17'), id('Breed 27'))).toBe(1);
    expect(index.similarityOf(id('Breed 17'), id('Breed 7'))).toBeLessThan(1);
    expect(labelsOf(graph, index.nearest(id('Dog'), { k: 100 }))).toContain('Breed 7');
  });

  it('changes its answer after a changed confidence is invalidated', () => {
    const graph = new KnowledgeGraph();
    assertFacts(graph, [
      ...animals.filter(([subject]) => subject !== 'Cat'),
      ['Cat', 'is-a', 'Feline'],
      ['Cat', 'has-part', 'Fur', 0.1],
      ['Cat', 'has-part', 'Tail', 0.1],
      ['Cat', 'eats', 'Fish'],
    ]);
    const index = new SimilarityIndex(graph);
    const dog = graph.symbolByLabel('Dog')!.id;
    const cat = graph.symbolByLabel('Cat')!.id;
    const before = index.similarityOf(dog, cat);
    const delta = assertFacts(graph, [
      ['Cat', 'has-part', 'Fur', 1],
      ['Cat', 'has-part', 'Tail', 1],
    ]);
    expect(delta.updatedTriples).toHaveLength(2);
    // A confidence change keeps the number of triples, so the cache holds until told.
    expect(index.similarityOf(dog, cat)).toBe(before);
    index.invalidate(symbolsTouchedBy(delta));
    expect(index.similarityOf(dog, cat)).toBeGreaterThan(before);
  });

  it('forgets everything on invalidateAll', () => {
    const graph = new KnowledgeGraph();
    assertFacts(graph, [
      ['Cat', 'has-part', 'Fur', 0.1],
      ['Cat', 'is-a', 'Feline'],
      ['Dog', 'has-part', 'Fur'],
      ['Dog', 'is-a', 'Canine'],
    ]);
    const index = new SimilarityIndex(graph);
    const dog = graph.symbolByLabel('Dog')!.id;
    const cat = graph.symbolByLabel('Cat')!.id;
    const before = index.similarityOf(dog, cat);
    assertFacts(graph, [['Cat', 'has-part', 'Fur', 1]]);
    index.invalidateAll();
    expect(index.similarityOf(dog, cat)).toBeGreaterThan(before);
  });

  it('lists the subjects and objects a delta touched', () => {
    const graph = new KnowledgeGraph();
    const delta = assertFacts(graph, [['Dog', 'is-a', 'Canine']]);
    expect(symbolsTouchedBy(delta)).toEqual(
      new Set([graph.symbolByLabel('Dog')!.id, graph.symbolByLabel('Canine')!.id]),
    );
  });

  it('keeps at most the cache size of meaning vectors, recomputing evicted ones the same', () => {
    const graph = new KnowledgeGraph();
    assertFacts(graph, animals);
    const small = new SimilarityIndex(graph, { cacheSize: 2 });
    const large = new SimilarityIndex(graph);
    for (const symbol of graph.symbols()) {
      expect(small.meaningVector(symbol.id).words).toEqual(large.meaningVector(symbol.id).words);
    }
    const dog = graph.symbolByLabel('Dog')!.id;
    expect(small.nearest(dog)).toEqual(large.nearest(dog));
  });
});

describe('nearestToText', () => {
  function placesGraph() {
    const graph = new KnowledgeGraph();
    assertFacts(graph, [
      ['Red Planet', 'is-a', 'Planet'],
      ['Red Dwarf', 'is-a', 'Star'],
      ['Golden Retriever', 'is-a', 'Dog'],
      ['planet of the apes', 'is-a', 'Film'],
    ]);
    return graph;
  }

  it('finds the labels sharing a word with the text, the same words first', () => {
    const graph = placesGraph();
    const index = new SimilarityIndex(graph);
    const hits = index.nearestToText('RED-planet');
    expect(labelsOf(graph, hits.slice(0, 1))).toEqual(['Red Planet']);
    expect(hits[0]?.similarity).toBe(1);
    expect(labelsOf(graph, hits).sort()).toEqual(['Planet', 'Red Dwarf', 'Red Planet', 'planet of the apes']);
    for (const hit of hits)
      expect(hit.similarity).toBe(textSimilarity('RED-planet', graph.symbol(hit.symbolId)!.label));
    expect(labelsOf(graph, index.nearestToText('the red planet', 2, { minSimilarity: 0.7 }))).toContain('Red Planet');
  });

  it('finds nothing for a text without known words', () => {
    const index = new SimilarityIndex(placesGraph());
    expect(index.nearestToText('zebra')).toEqual([]);
    expect(index.nearestToText('  ')).toEqual([]);
  });

  it('finds symbols added after its first search', () => {
    const graph = placesGraph();
    const index = new SimilarityIndex(graph);
    expect(labelsOf(graph, index.nearestToText('blue planet', 1))).toEqual(['Planet']);
    assertFacts(graph, [['Blue Planet', 'is-a', 'Planet']]);
    expect(labelsOf(graph, index.nearestToText('blue planet', 1))).toEqual(['Blue Planet']);
  });

  it('returns relations only when asked', () => {
    const graph = placesGraph();
    const index = new SimilarityIndex(graph);
    expect(index.nearestToText('is a')).toEqual([]);
    expect(labelsOf(graph, index.nearestToText('is a', 10, { kinds: ['relation'] }))).toEqual(['is-a']);
  });
});
