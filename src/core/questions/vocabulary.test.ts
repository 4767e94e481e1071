import { describe, expect, it } from 'vitest';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { RDFS_LABEL } from '#core/kg/standard-terms.ts';
import { prepareVocabulary, vocabularyOf } from './vocabulary.ts';

/** Things "Thing N" is-a "Kind N % 5"; every third also has an rdfs:label "Item N". */
function namedThings(count: number, from = 0, graph = new KnowledgeGraph()): KnowledgeGraph {
  const batch = graph.batch({ now: 1 });
  const isA = batch.resolve({ type: 'label', value: 'is-a' }, 'predicate');
  const label = batch.resolve({ type: 'iri', value: RDFS_LABEL }, 'predicate');
  for (let index = from; index < from + count; index++) {
    const thing = batch.resolve({ type: 'label', value: `Thing ${index}` }, 'subject');
    batch.assert(thing, isA, batch.resolve({ type: 'label', value: `Kind ${index % 5}` }, 'object'), 1);
    if (index % 3 === 0)
      batch.assert(thing, label, batch.resolve({ type: 'literal', value: `Item ${index}` }, 'object'), 1);
  }
  graph.apply(batch.delta);
  return graph;
}

/** A limit that stops a slice at its first look at the clock. */
const stopAtOnce = { shouldStop: () => true };

describe('the question vocabulary in slices', () => {
  it('is built a slice at a time, name facts included, and ends as one built at once', () => {
    const graph = namedThings(3_000);
    let slices = 0;
    while (!prepareVocabulary(graph, stopAtOnce)) slices++;
    expect(slices).toBeGreaterThan(2);
    const sliced = vocabularyOf(graph);
    expect(sliced.entities.get('item 2997')).toEqual([graph.symbolByLabel('Thing 2997')!.id]);
    expect(sliced).toEqual(vocabularyOf(namedThings(3_000)));
  });

  it('takes in the things and names added between its slices', () => {
    const graph = namedThings(2_000);
    prepareVocabulary(graph, stopAtOnce);
    namedThings(400, 2_000, graph);
    while (!prepareVocabulary(graph, stopAtOnce));
    expect(vocabularyOf(graph).entities.get('item 2397')).toEqual([graph.symbolByLabel('Thing 2397')!.id]);
    expect(vocabularyOf(graph)).toEqual(vocabularyOf(namedThings(2_400)));
  });

  it('is finished by a question read before the slices are done', () => {
    const graph = namedThings(3_000);
    expect(prepareVocabulary(graph, stopAtOnce)).toBe(false);
    expect(vocabularyOf(graph).entities.get('thing 2999')).toEqual([graph.symbolByLabel('Thing 2999')!.id]);
    expect(prepareVocabulary(graph, stopAtOnce)).toBe(true);
  });
});
