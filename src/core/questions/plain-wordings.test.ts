import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { readGraphFile } from '#core/kg/import/read-graph-file.ts';
import { answerReading } from './answer.ts';
import { readQuestion } from './reading.ts';
import { lemmaVariants } from './words.ts';

// Wordings a person uses that the first reader misread: the passive, "-ing" forms, names with an adjective.

async function graphFrom(path: string): Promise<KnowledgeGraph> {
  const graph = new KnowledgeGraph();
  const batch = graph.batch({ now: 1 });
  await readGraphFile({ source: readFileSync(path, 'utf8'), format: 'turtle', batch });
  graph.apply(batch.delta);
  return graph;
}

let starter: KnowledgeGraph;
let countries: KnowledgeGraph;
beforeAll(async () => {
  starter = await graphFrom('public/starter-graph.ttl');
  countries = await graphFrom('tests/fixtures/public/countries.ttl');
});

function ask(graph: KnowledgeGraph, question: string) {
  const reading = readQuestion(graph, question);
  if (!reading.ok) throw new Error(reading.error[0]!.message);
  return { reading: reading.value, answer: answerReading(graph, reading.value) };
}

describe('plain wordings of questions over real graphs', () => {
  it('takes an "-ing" form as its verb, and "Count the ..." as counting', () => {
    expect(lemmaVariants('using')).toContain('use');
    expect(lemmaVariants('running')).toContain('run');
    const { reading, answer } = ask(countries, 'Count the countries using the euro');
    expect(reading.text).toBe('how many ?x with ?x is-a Country . ?x has-currency Euro (following is-a chains)');
    expect(answer).toMatchObject({ kind: 'count', value: 34 });
  });
});
