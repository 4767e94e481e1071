import { describe, expect, it } from 'vitest';
import { factsAsCsv, factsAsNTriples } from './export-ntriples.ts';
import { KnowledgeGraph } from './graph.ts';
import { readGraphFile } from './import/read-graph-file.ts';

const entity = (label: string) => ({ kind: 'entity' as const, label });
const FACTS = [
  {
    subject: entity('Dog'),
    predicate: { kind: 'relation' as const, label: 'is-a' },
    object: entity('Mammal'),
    confidence: 0.9,
  },
  {
    subject: entity('Golden Retriever, "Goldie"'),
    predicate: { kind: 'relation' as const, label: 'is-a' },
    object: entity('Dog'),
    confidence: 1,
  },
  {
    subject: { kind: 'entity' as const, label: 'Mars', iri: 'http://example.org/Mars' },
    predicate: { kind: 'relation' as const, label: 'name' },
    object: { kind: 'literal' as const, label: 'the red planet' },
    confidence: 1,
  },
];

/** What a file gives when imported into an empty graph: its facts as label triples. */
async function imported(source: string, format: 'csv' | 'n-triples') {
  const graph = new KnowledgeGraph();
  const batch = graph.batch({ now: 1 });
  const read = await readGraphFile({ source, format, batch });
  expect(read.ok).toBe(true);
  graph.apply(batch.delta);
  return [...graph.triples()].map((triple) => [
    graph.symbol(triple.subject)!.label,
    graph.symbol(triple.predicate)!.label,
    graph.symbol(triple.object)!.label,
    triple.confidence,
  ]);
}

describe("a goal's findings exported", () => {
  it('as CSV, quoting what needs it, and read back by the graph import as the same facts', async () => {
    const csv = factsAsCsv(FACTS);
    expect(csv.split('\n')[1]).toBe('"Golden Retriever, ""Goldie""",is-a,Dog,1');
    expect(await imported(csv, 'csv')).toEqual(
      FACTS.map((fact) => [fact.subject.label, fact.predicate.label, fact.object.label, fact.confidence]),
    );
  });

  it("as N-Triples, with IRIs kept and labels under Anima's namespace", async () => {
    const nTriples = factsAsNTriples(FACTS);
    expect(nTriples).toContain('<http://example.org/Mars>');
    expect(nTriples).toContain('"the red planet"');
    expect(
      (await imported(nTriples, 'n-triples')).map(([subject, predicate, object]) => [subject, predicate, object]),
    ).toEqual(FACTS.map((fact) => [fact.subject.label, fact.predicate.label, fact.object.label]));
  });
});
