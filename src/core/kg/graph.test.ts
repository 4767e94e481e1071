import { describe, expect, it } from 'vitest';
import { KnowledgeGraph } from './graph.ts';
import { relabelNumberedNames } from './numbered-names.ts';
import { RDFS_LABEL, RDFS_SUBCLASS_OF, SKOS_PREF_LABEL } from './standard-terms.ts';

const applyBatch = (graph: KnowledgeGraph, build: (batch: ReturnType<KnowledgeGraph['batch']>) => void) => {
  const batch = graph.batch({ now: 1 });
  build(batch);
  graph.apply(batch.delta);
  return batch;
};

describe('knowledge graph', () => {
  it('labels an IRI by its local name and keeps the IRI', () => {
    const graph = new KnowledgeGraph();
    applyBatch(graph, (batch) => {
      batch.resolve({ type: 'iri', value: 'http://example.org/zoo/Dog' }, 'subject');
      batch.resolve({ type: 'iri', value: 'http://example.org/terms#is-a' }, 'predicate');
    });
    expect(graph.symbolByLabel('dog')).toMatchObject({
      label: 'Dog',
      kind: 'entity',
      iri: 'http://example.org/zoo/Dog',
    });
    expect(graph.symbolByLabel('IS-A')).toMatchObject({ label: 'is-a', kind: 'relation' });
  });

  it('tells apart two things of one name by where they come from, never by a number', () => {
    const graph = new KnowledgeGraph();
    applyBatch(graph, (batch) => {
      batch.resolve({ type: 'iri', value: 'http://a.example/Dog' }, 'subject');
      batch.resolve({ type: 'iri', value: 'http://b.example/dog' }, 'subject');
    });
    applyBatch(graph, (batch) => batch.resolve({ type: 'iri', value: 'http://c.example/DOG' }, 'object'));
    expect(graph.symbolByLabel('Dog')?.iri).toBe('http://a.example/Dog');
    expect(graph.symbolByLabel('dog · b.example')?.iri).toBe('http://b.example/dog');
    expect(graph.symbolByLabel('DOG · c.example')?.iri).toBe('http://c.example/DOG');
    // Each is still found by its name.
    expect(graph.symbolsNamed('dog').map((symbol) => symbol.iri)).toEqual([
      'http://a.example/Dog',
      'http://b.example/dog',
      'http://c.example/DOG',
    ]);
  });

  it('reads its own namespace back as plain labels', () => {
    const graph = new KnowledgeGraph();
    applyBatch(graph, (batch) => batch.resolve({ type: 'label', value: 'Red Planet' }, 'subject'));
    applyBatch(graph, (batch) => batch.resolve({ type: 'iri', value: 'urn:anima:kg#Red%20Planet' }, 'subject'));
    expect(graph.symbolCount).toBe(1);
  });

  it('keeps literals apart from entities with the same text', () => {
    const graph = new KnowledgeGraph();
    applyBatch(graph, (batch) => {
      batch.resolve({ type: 'label', value: 'Dog' }, 'subject');
      batch.resolve({ type: 'literal', value: 'Dog' }, 'object');
      batch.resolve({ type: 'literal', value: 'Dog', language: 'en' }, 'object');
    });
    expect(graph.symbolCount).toBe(3);
    expect(graph.symbolByLabel('Dog')?.kind).toBe('entity');
  });

  it('stores a re-asserted triple once and keeps the higher confidence', () => {
    const graph = new KnowledgeGraph();
    let ids: number[] = [];
    applyBatch(graph, (batch) => {
      ids = ['Dog', 'is-a', 'Mammal'].map((label, index) =>
        batch.resolve({ type: 'label', value: label }, index === 1 ? 'predicate' : 'subject'),
      );
      batch.assert(ids[0]!, ids[1]!, ids[2]!, 0.6);
      batch.assert(ids[0]!, ids[1]!, ids[2]!, 0.4);
    });
    expect(graph.tripleCount).toBe(1);
    expect(graph.triple(ids[0]!, ids[1]!, ids[2]!)?.confidence).toBe(0.6);
    const lower = applyBatch(graph, (batch) => batch.assert(ids[0]!, ids[1]!, ids[2]!, 0.5));
    expect(lower.updatedCount).toBe(0);
    const higher = applyBatch(graph, (batch) => batch.assert(ids[0]!, ids[1]!, ids[2]!, 0.9));
    expect(higher.updatedCount).toBe(1);
    expect(graph.triple(ids[0]!, ids[1]!, ids[2]!)?.confidence).toBe(0.9);
    expect(graph.outgoing(ids[0]!)[0]?.confidence).toBe(0.9);
  });

  it('changes nothing until the batch delta is applied', () => {
    const graph = new KnowledgeGraph();
    const batch = graph.batch({ now: 1 });
    const dog = batch.resolve({ type: 'label', value: 'Dog' }, 'subject');
    batch.assert(
      dog,
      batch.resolve({ type: 'label', value: 'is-a' }, 'predicate'),
      batch.resolve({ type: 'label', value: 'Mammal' }, 'object'),
      1,
    );
    expect(graph.symbolCount).toBe(0);
    expect(graph.tripleCount).toBe(0);
  });

  it('matches patterns through the subject, predicate and object indexes', () => {
    const graph = new KnowledgeGraph();
    applyBatch(graph, (batch) => {
      const isA = batch.resolve({ type: 'label', value: 'is-a' }, 'predicate');
      const mammal = batch.resolve({ type: 'label', value: 'Mammal' }, 'object');
      for (const animal of ['Dog', 'Cat', 'Whale'])
        batch.assert(batch.resolve({ type: 'label', value: animal }, 'subject'), isA, mammal, 1);
    });
    const mammal = graph.symbolByLabel('mammal')!.id;
    const dog = graph.symbolByLabel('dog')!.id;
    expect(graph.match(undefined, undefined, mammal)).toHaveLength(3);
    expect(graph.match(dog)).toHaveLength(1);
    expect(graph.incoming(mammal).map((triple) => graph.symbol(triple.subject)?.label)).toEqual([
      'Dog',
      'Cat',
      'Whale',
    ]);
  });

  it('refuses a delta that adds a triple it holds, and holds that triple once', () => {
    const graph = new KnowledgeGraph();
    applyBatch(graph, (batch) =>
      batch.assert(
        batch.resolve({ type: 'label', value: 'Dog' }, 'subject'),
        batch.resolve({ type: 'label', value: 'is-a' }, 'predicate'),
        batch.resolve({ type: 'label', value: 'Mammal' }, 'object'),
        1,
      ),
    );
    const held = graph.tripleAt(0);
    const again = { symbols: [], updatedTriples: [], removedTriples: [] };
    expect(() => graph.apply({ ...again, addedTriples: [{ ...held, confidence: 0.5 }] })).toThrow(
      `the graph already holds ${held.subject} ${held.predicate} ${held.object}: a delta must add only new triples`,
    );
    expect(graph.tripleCount).toBe(1);
    expect(graph.match(held.subject)).toEqual([held]);
    // A new triple after the refusal is found where it was put.
    const cat = { ...held, subject: held.object, object: held.subject };
    graph.apply({ ...again, addedTriples: [cat] });
    expect(graph.triple(cat.subject, cat.predicate, cat.object)).toEqual(cat);
    expect(graph.match(held.subject)).toEqual([held]);
  });
});

describe('metadata', () => {
  it('tells the agent bookkeeping (agent: predicates) from domain facts', () => {
    const graph = new KnowledgeGraph();
    applyBatch(graph, (batch) => {
      const goal = batch.resolve({ type: 'label', value: 'goal-1' }, 'subject');
      batch.assert(
        goal,
        batch.resolve({ type: 'label', value: 'agent:status' }, 'predicate'),
        batch.resolve({ type: 'label', value: 'Active' }, 'object'),
        1,
      );
      batch.assert(
        goal,
        batch.resolve({ type: 'label', value: 'is-a' }, 'predicate'),
        batch.resolve({ type: 'label', value: 'Goal' }, 'object'),
        1,
      );
    });
    expect([...graph.triples()].map((triple) => graph.isMetadata(triple))).toEqual([true, false]);
  });
});

describe('labels of imported symbols', () => {
  it('keeps blank nodes of different imports apart', () => {
    const graph = new KnowledgeGraph();
    const first = applyBatch(graph, (batch) => batch.resolve({ type: 'blank', value: 'x' }, 'subject'));
    applyBatch(graph, (batch) => batch.resolve({ type: 'blank', value: 'x' }, 'subject'));
    expect(first.symbolCount).toBe(1);
    const [label, other] = [...graph.symbols()].map((symbol) => symbol.label);
    expect(label).toBe('_:x');
    expect(other).toMatch(/^_:x · \d{4}-/);
  });

  it('gives labels the input names outright before telling apart clashing IRI names, whatever the order', () => {
    const graph = new KnowledgeGraph();
    applyBatch(graph, (batch) => {
      batch.resolve({ type: 'iri', value: 'http://b.example/Dog' }, 'subject');
      batch.resolve({ type: 'iri', value: 'urn:anima:kg#Dog-2' }, 'subject');
      batch.resolve({ type: 'iri', value: 'http://a.example/Dog' }, 'subject');
    });
    expect(graph.symbolByLabel('Dog-2')?.iri).toBeUndefined();
    expect(graph.symbolByLabel('Dog')?.iri).toBe('http://b.example/Dog');
    expect(graph.symbolByLabel('Dog · a.example')?.iri).toBe('http://a.example/Dog');
  });

  it("names a thing by its label in the reader's language, and tells two of one name apart by their parents", () => {
    const graph = new KnowledgeGraph();
    const batch = graph.batch({ now: 1, language: 'fr-FR' });
    const iri = (value: string, role: 'subject' | 'predicate' | 'object' = 'subject') =>
      batch.resolve({ type: 'iri', value }, role);
    const text = (value: string, language?: string) =>
      batch.resolve({ type: 'literal', value, ...(language ? { language } : {}) }, 'object');
    const [label, prefLabel, subClassOf] = [
      iri(RDFS_LABEL, 'predicate'),
      iri(SKOS_PREF_LABEL, 'predicate'),
      iri(RDFS_SUBCLASS_OF, 'predicate'),
    ];
    batch.assert(iri('http://wn.example/02083346-n'), label, text('dog', 'en'), 1);
    batch.assert(iri('http://wn.example/02083346-n'), label, text('chien', 'fr'), 1);
    batch.assert(iri('http://wn.example/02083346-n'), prefLabel, text('chien domestique', 'fr-FR'), 1);
    batch.assert(iri('http://wn.example/bass-fish'), label, text('bass'), 1);
    batch.assert(iri('http://wn.example/bass-fish'), subClassOf, iri('http://wn.example/fish', 'object'), 1);
    batch.assert(iri('http://wn.example/fish'), label, text('fish'), 1);
    batch.assert(iri('http://wn.example/bass-voice'), label, text('bass'), 1);
    batch.assert(iri('http://wn.example/bass-voice'), subClassOf, iri('http://wn.example/singing-voice', 'object'), 1);
    batch.declarePrefix('wn', 'http://wn.example/');
    batch.assert(iri('http://wn.example/bass-guitar'), label, text('bass'), 1);
    graph.apply(batch.delta);
    expect(graph.symbolByIri('http://wn.example/02083346-n')?.label).toBe('chien domestique');
    expect(
      ['bass-fish', 'bass-voice', 'bass-guitar'].map((name) => graph.symbolByIri(`http://wn.example/${name}`)?.label),
    ).toEqual(['bass', 'bass (singing-voice)', 'bass · wn']);
    expect(graph.symbolsNamed('bass')).toHaveLength(3);
  });

  it('keeps the empty literal, and names an IRI with no local name by the whole IRI', () => {
    const graph = new KnowledgeGraph();
    applyBatch(graph, (batch) => {
      batch.resolve({ type: 'literal', value: '' }, 'object');
      batch.resolve({ type: 'iri', value: 'urn:anima:kg#' }, 'subject');
      batch.resolve({ type: 'iri', value: 'http://example.org/' }, 'subject');
    });
    expect([...graph.symbols()].map((symbol) => [symbol.kind, symbol.label])).toEqual([
      ['literal', ''],
      ['entity', 'urn:anima:kg#'],
      ['entity', 'http://example.org/'],
    ]);
  });

  it('answers every pattern as a plain set of facts would, through random additions and removals', () => {
    const graph = new KnowledgeGraph();
    const held = new Map<string, [number, number, number]>();
    let seed = 7;
    const random = (below: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % below;
    };
    applyBatch(graph, (batch) => {
      for (let id = 0; id < 12; id++) batch.resolve({ type: 'label', value: `S${id}` }, 'subject');
    });
    for (let round = 0; round < 60; round++) {
      applyBatch(graph, (batch) => {
        for (let step = 0; step < 8; step++) {
          const fact: [number, number, number] = [1 + random(12), 1 + random(3), 1 + random(12)];
          const key = fact.join(' ');
          if (random(3) === 0) {
            expect(batch.retract(...fact)).toBe(held.delete(key));
          } else {
            batch.assert(...fact, 0.5);
            held.set(key, fact);
          }
        }
      });
      expect(graph.tripleCount).toBe(held.size);
      for (let symbol = 1; symbol <= 12; symbol++) {
        const expected = (position: 0 | 1 | 2) =>
          [...held.values()]
            .filter((fact) => fact[position] === symbol)
            .map((fact) => fact.join(' '))
            .sort();
        const actual = (found: { subject: number; predicate: number; object: number }[]) =>
          found.map((triple) => `${triple.subject} ${triple.predicate} ${triple.object}`).sort();
        expect(actual(graph.match(symbol))).toEqual(expected(0));
        expect(actual(graph.match(undefined, symbol))).toEqual(expected(1));
        expect(actual(graph.match(undefined, undefined, symbol))).toEqual(expected(2));
        // The position lists stay in ascending order (oldest first, as documented).
        const positions = graph.positionsFrom(symbol);
        expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      }
      for (const fact of held.values()) expect(graph.positionOf(...fact)).not.toBe(-1);
    }
  });
});

describe('labels from before names were told apart', () => {
  it('relabels IRI symbols an older Anima numbered (Mammal-2) by their name, parent or source', () => {
    const graph = KnowledgeGraph.from(
      [
        { id: 1, label: 'Mammal', kind: 'entity', createdAt: 1 },
        { id: 2, label: 'Mammal-2', kind: 'entity', iri: 'http://e.org/Mammal', createdAt: 1 },
        { id: 3, label: 'is-a', kind: 'relation', createdAt: 1 },
        { id: 4, label: 'Dog', kind: 'entity', createdAt: 1 },
        { id: 5, label: 'Dog-2', kind: 'entity', iri: 'http://f.org/Dog', createdAt: 1 },
        { id: 6, label: 'Animal', kind: 'entity', createdAt: 1 },
        { id: 7, label: 'label', kind: 'relation', iri: RDFS_LABEL, createdAt: 1 },
        { id: 8, label: 'mammal', kind: 'literal', language: 'en', createdAt: 1 },
        { id: 9, label: 'alpha-2', kind: 'entity', createdAt: 1 },
      ],
      [
        { subject: 5, predicate: 3, object: 6, confidence: 1, createdAt: 1 },
        { subject: 2, predicate: 7, object: 8, confidence: 1, createdAt: 1 },
      ],
    );
    expect(relabelNumberedNames(graph).map((symbol) => [symbol.id, symbol.label])).toEqual([
      [2, 'mammal · e.org'],
      [5, 'Dog (Animal)'],
    ]);
  });
});
