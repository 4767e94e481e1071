import { describe, expect, it } from 'vitest';
import { KnowledgeGraph } from './graph.ts';
import { growLabelIndex, syncedLabelIndex } from './label-words.ts';
import { SimilarityIndex } from './similarity.ts';

/** A graph of `count` things, each "Thing N" is-a "Kind N % 7". */
function thingsGraph(count: number, from = 0): KnowledgeGraph {
  const graph = new KnowledgeGraph();
  addThings(graph, count, from);
  return graph;
}

function addThings(graph: KnowledgeGraph, count: number, from: number): void {
  const batch = graph.batch({ now: 1 });
  const isA = batch.resolve({ type: 'label', value: 'is-a' }, 'predicate');
  for (let index = from; index < from + count; index++)
    batch.assert(
      batch.resolve({ type: 'label', value: `Thing ${index}` }, 'subject'),
      isA,
      batch.resolve({ type: 'label', value: `Kind ${index % 7}` }, 'object'),
      1,
    );
  graph.apply(batch.delta);
}

/** A limit that stops a slice at its first look at the clock. */
const stopAtOnce = { shouldStop: () => true };

describe('the label word index in slices', () => {
  it('stops when told, goes on where it stopped, and ends as one built at once', () => {
    const graph = thingsGraph(3_000);
    let grown = growLabelIndex(graph, undefined, stopAtOnce);
    expect(grown.isComplete).toBe(false);
    expect(grown.index.symbolCount).toBeLessThan(graph.symbolCount);
    let slices = 1;
    while (!grown.isComplete) {
      grown = growLabelIndex(graph, grown.index, stopAtOnce);
      slices++;
    }
    expect(slices).toBeGreaterThan(2);
    expect(grown.index).toEqual(syncedLabelIndex(graph, undefined));
  });

  it('takes in symbols added between its slices', () => {
    const graph = thingsGraph(2_000);
    const first = growLabelIndex(graph, undefined, stopAtOnce);
    addThings(graph, 500, 2_000);
    let grown = first;
    while (!grown.isComplete) grown = growLabelIndex(graph, grown.index, stopAtOnce);
    expect(grown.index.symbolsByWord.get('2499')).toEqual([graph.symbolByLabel('Thing 2499')!.id]);
    expect(grown.index).toEqual(syncedLabelIndex(graph, undefined));
  });

  it('lets a search by name before the slices are done finish the index and answer in full', () => {
    const graph = thingsGraph(3_000);
    const index = new SimilarityIndex(graph);
    expect(index.prepareLabelIndex(stopAtOnce)).toBe(false);
    const hits = index.nearestToText('Thing 2999', 1);
    expect(hits.map((hit) => graph.symbol(hit.symbolId)?.label)).toEqual(['Thing 2999']);
    expect(index.prepareLabelIndex(stopAtOnce)).toBe(true);
  });
});
