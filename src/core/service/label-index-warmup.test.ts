import { describe, expect, it } from 'vitest';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import { prepareVocabulary } from '#core/questions/vocabulary.ts';
import { warmLabelIndexes } from './label-index-warmup.ts';

function thingsGraph(count: number): KnowledgeGraph {
  const graph = new KnowledgeGraph();
  const batch = graph.batch({ now: 1 });
  const isA = batch.resolve({ type: 'label', value: 'is-a' }, 'predicate');
  for (let index = 0; index < count; index++)
    batch.assert(
      batch.resolve({ type: 'label', value: `Thing ${index}` }, 'subject'),
      isA,
      batch.resolve({ type: 'label', value: `Kind ${index % 7}` }, 'object'),
      1,
    );
  graph.apply(batch.delta);
  return graph;
}

const stopAtOnce = { shouldStop: () => true };

describe('warming the label indexes of a loaded graph', () => {
  it('builds both, so the first search by name or question read finds them ready', async () => {
    const graph = thingsGraph(20_000);
    const similarity = new SimilarityIndex(graph);
    await warmLabelIndexes(graph, similarity, { isCurrent: () => true });
    expect(similarity.prepareLabelIndex(stopAtOnce)).toBe(true);
    expect(prepareVocabulary(graph, stopAtOnce)).toBe(true);
  });

  it('stops once the graph is put aside', async () => {
    const graph = thingsGraph(20_000);
    const similarity = new SimilarityIndex(graph);
    await warmLabelIndexes(graph, similarity, { isCurrent: () => false });
    expect(similarity.prepareLabelIndex(stopAtOnce)).toBe(false);
  });
});
