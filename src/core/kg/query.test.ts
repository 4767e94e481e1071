import { describe, expect, it } from 'vitest';
import { KnowledgeGraph } from './graph.ts';
import { parseQuery, runQuery } from './query.ts';

function graphOf(facts: [string, string, string][]): KnowledgeGraph {
  const graph = new KnowledgeGraph();
  const batch = graph.batch({ now: 1 });
  for (const [subject, predicate, object] of facts) {
    batch.assert(
      batch.resolve({ type: 'iri', value: `http://example.org/${subject}` }, 'subject'),
      batch.resolve({ type: 'iri', value: `http://example.org/${predicate}` }, 'predicate'),
      batch.resolve({ type: 'iri', value: `http://example.org/${object}` }, 'object'),
      1,
    );
  }
  graph.apply(batch.delta);
  return graph;
}

const graph = graphOf([
  ['Dog', 'is-a', 'Canine'],
  ['Wolf', 'is-a', 'Canine'],
  ['Canine', 'is-a', 'Mammal'],
  ['Cat', 'is-a', 'Mammal'],
  ['Dog', 'lives-in', 'House'],
]);

const answer = (query: string, limit = 100) => {
  const parsed = parseQuery(query);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  const result = runQuery(graph, parsed.value, limit);
  return {
    ...result,
    labels: result.rows.map((row) =>
      Object.fromEntries(Object.entries(row).map(([name, id]) => [name, graph.symbol(id)?.label])),
    ),
  };
};

describe('pattern queries', () => {
  it('matches IRI symbols by label, case-insensitively', () => {
    expect(answer('?x is-a mammal').labels).toEqual([{ x: 'Canine' }, { x: 'Cat' }]);
  });

  it('joins patterns on shared variables', () => {
    expect(answer('?x is-a ?y . ?y is-a Mammal').labels).toEqual([
      { x: 'Dog', y: 'Canine' },
      { x: 'Wolf', y: 'Canine' },
    ]);
    expect(answer('?x is-a Canine . ?x lives-in ?where').labels).toEqual([{ x: 'Dog', where: 'House' }]);
  });

  it('accepts IRIs and reports unknown labels instead of failing silently', () => {
    expect(answer('?x <http://example.org/is-a> <http://example.org/Canine>').rows).toHaveLength(2);
    expect(answer('?x is-a Unicorn').unknownTerms).toEqual(['Unicorn']);
  });

  it('stops at the limit and says so', () => {
    const limited = answer('?x ?p ?o', 2);
    expect(limited.rows).toHaveLength(2);
    expect(limited.isTruncated).toBe(true);
  });

  it('reads a final dot as the end of a pattern, not part of a label', () => {
    expect(answer('?x is-a mammal.').labels).toEqual([{ x: 'Canine' }, { x: 'Cat' }]);
    expect(answer('?x is-a ?y. ?y is-a Mammal .').labels).toHaveLength(2);
  });

  it('explains a malformed query', () => {
    expect(parseQuery('?x is-a')).toEqual({
      ok: false,
      error: [{ path: 'pattern 1', message: 'needs 3 terms (subject predicate object), has 2' }],
    });
    expect(parseQuery('   ').ok).toBe(false);
  });
});

describe('names shared by several symbols', () => {
  it('matches every symbol of a name, so imported IRIs are not hidden behind the starter graph', () => {
    const mixed = new KnowledgeGraph();
    const batch = mixed.batch({ now: 1 });
    const fact = (subject: string, predicate: string, object: string) =>
      batch.assert(
        batch.resolve({ type: 'iri', value: subject }, 'subject'),
        batch.resolve({ type: 'iri', value: predicate }, 'predicate'),
        batch.resolve({ type: 'iri', value: object }, 'object'),
        1,
      );
    fact('urn:anima:kg#Dog', 'urn:anima:kg#is-a', 'urn:anima:kg#Mammal');
    fact('http://e.org/Rex', 'http://e.org/is-a', 'http://e.org/Mammal');
    mixed.apply(batch.delta);
    expect(mixed.symbolByIri('http://e.org/Mammal')?.label).toBe('Mammal · e.org');
    const parsed = parseQuery('?x is-a mammal');
    if (!parsed.ok) throw new Error('unreadable');
    const rows = runQuery(mixed, parsed.value, 10).rows.map((row) => mixed.symbol(row.x!)!.label);
    expect(rows).toEqual(['Dog', 'Rex']);
    // A label with where it came from names exactly that symbol.
    const exact = parseQuery('?x is-a "Mammal · e.org"');
    if (!exact.ok) throw new Error('unreadable');
    expect(runQuery(mixed, exact.value, 10).rows.map((row) => mixed.symbol(row.x!)!.label)).toEqual(['Rex']);
  });
});

describe('large joins', () => {
  // Building 300,000 triples takes 4 s on an idle 2-core machine, up to 18 s on a loaded one: a
  // smaller graph would no longer hold the candidate lists that overflowed the stack.
  it('joins over hundreds of thousands of candidate triples without running out of stack', { timeout: 60_000 }, () => {
    const big = new KnowledgeGraph(300_000);
    const batch = big.batch({ now: 1 });
    const isA = batch.resolve({ type: 'label', value: 'is-a' }, 'predicate');
    const classes = Array.from({ length: 1000 }, (_, index) =>
      batch.resolve({ type: 'label', value: `Class${index}` }, 'object'),
    );
    const root = batch.resolve({ type: 'label', value: 'Root' }, 'object');
    for (const [index, symbol] of classes.entries()) if (index < 10) batch.assert(symbol, isA, root, 1);
    for (let index = 0; index < 300_000; index++)
      batch.assert(batch.resolve({ type: 'label', value: `Thing${index}` }, 'subject'), isA, classes[index % 1000]!, 1);
    big.apply(batch.delta);
    const parsed = parseQuery('?x is-a ?y . ?y is-a Root');
    if (!parsed.ok) throw new Error('unreadable');
    const answer = runQuery(big, parsed.value, 100_000);
    expect(answer.rows).toHaveLength(3000);
    expect(answer.isTruncated).toBe(false);
  });
});
