import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { readGraphFile } from '#core/kg/import/read-graph-file.ts';
import { graphOf } from '#core/testing/graph-of.ts';
import { answerReading } from './answer.ts';
import { answerText } from './answer-view.ts';
import { exampleQuestions } from './example-questions.ts';
import { readQuestion } from './reading.ts';

async function starterGraph(): Promise<KnowledgeGraph> {
  const graph = new KnowledgeGraph();
  const batch = graph.batch({ now: 1 });
  await readGraphFile({ source: readFileSync('public/starter-graph.ttl', 'utf8'), format: 'turtle', batch });
  graph.apply(batch.delta);
  return graph;
}

function answerOf(graph: KnowledgeGraph, question: string): string {
  const reading = readQuestion(graph, question);
  if (!reading.ok) throw new Error(reading.error[0]!.message);
  return answerText(graph, answerReading(graph, reading.value));
}

describe('example questions for the start screen', () => {
  it('offers three questions the starter graph answers: a list, a proof by a chain, common ground', async () => {
    const graph = await starterGraph();
    const questions = exampleQuestions(graph);
    // The biggest class over its whole tree, not the one with the most direct members.
    expect(questions).toEqual(['Find every Animal', 'Is Horse an Animal?', 'What do Pluto and Ceres have in common?']);
    // The proof needs more than one fact: the example shows what inference adds.
    expect(answerOf(graph, questions[1]!)).toMatch(/^Yes: .+; .+\.$/);
    for (const question of questions) expect(answerOf(graph, question)).not.toMatch(/^(No|None)\b/);
  });

  it("asks in the graph's own names, for any graph", () => {
    const countries = graphOf([
      ['Germany', 'is-a', 'Country'],
      ['France', 'is-a', 'Country'],
      ['Japan', 'is-a', 'Country'],
      ['Country', 'is-a', 'Place'],
      ['Berlin', 'is-a', 'City'],
      ['Paris', 'is-a', 'City'],
      ['City', 'is-a', 'Place'],
    ]);
    const questions = exampleQuestions(countries);
    expect(questions).toEqual(['Find every Place', 'Is Germany a Place?', 'What do Berlin and Paris have in common?']);
    expect(answerOf(countries, questions[0]!)).toContain('Berlin');
  });

  it('offers none for an empty graph or one without "is a" facts', () => {
    expect(exampleQuestions(new KnowledgeGraph())).toEqual([]);
    expect(exampleQuestions(graphOf([['Dog', 'chases', 'Cat']]))).toEqual([]);
  });
});
