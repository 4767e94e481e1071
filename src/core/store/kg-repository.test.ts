import { describe, expect, it } from 'vitest';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { freshIndexedDb } from '#core/testing/test-database.ts';
import { AnimaDatabase } from './database.ts';
import { TRIPLES_PER_CHUNK } from './graph-chunks.ts';
import { loadGraph, storeGraphDelta } from './kg-repository.ts';
import { DERIVATIONS_PER_RECORD } from '#core/kg/provenance.ts';
import { derivationsProvenance, provenanceOfFact } from '#core/kg/inference.ts';
import type { Derivation } from '#core/kg/inference-rules.ts';

const SESSION = 's1';

async function store(
  db: AnimaDatabase,
  graph: KnowledgeGraph,
  build: (batch: ReturnType<KnowledgeGraph['batch']>) => void,
) {
  const batch = graph.batch({ now: 5 });
  build(batch);
  const stored = await storeGraphDelta(db, {
    graph,
    sessionId: SESSION,
    delta: batch.delta,
    now: 5,
    provenance: {
      sessionId: SESSION,
      kind: 'import',
      sources: ['test'],
      confidence: 1,
      cycle: 0,
      detail: 'test',
      createdAt: 5,
    },
  });
  graph.apply(stored);
}

describe('graph storage in chunks', () => {
  it('reloads exactly what was stored, in the same order, across chunk boundaries and updates', async () => {
    const db = new AnimaDatabase('anima', freshIndexedDb());
    await db.sessions.add({ id: SESSION, name: 'test', cycle: 0, createdAt: 0, updatedAt: 0 });
    const graph = new KnowledgeGraph();
    const count = TRIPLES_PER_CHUNK * 2 + 100;
    // Added in two deltas, the second starting inside a chunk the first left partly filled.
    for (const [from, to] of [
      [0, TRIPLES_PER_CHUNK + 10],
      [TRIPLES_PER_CHUNK + 10, count],
    ] as const) {
      await store(db, graph, (batch) => {
        const isA = batch.resolve({ type: 'label', value: 'is-a' }, 'predicate');
        for (let index = from; index < to; index++)
          batch.assert(
            batch.resolve({ type: 'label', value: `Thing${index}` }, 'subject'),
            isA,
            batch.resolve({ type: 'label', value: `Kind${index % 97}` }, 'object'),
            0.5,
          );
      });
    }
    // Raising a triple of the first chunk rewrites that chunk too.
    const first = graph.tripleAt(3);
    await store(db, graph, (batch) => batch.assert(first.subject, first.predicate, first.object, 0.9));

    const progress: number[] = [];
    const reloaded = await loadGraph(db, SESSION, (report) => progress.push(report.chunksRead));
    expect(reloaded.tripleCount).toBe(count);
    expect([...reloaded.triples()]).toEqual([...graph.triples()]);
    expect(reloaded.tripleAt(3).confidence).toBe(0.9);
    expect(reloaded.symbolCount).toBe(graph.symbolCount);
    expect(reloaded.symbolByLabel('thing16000')?.id).toBe(graph.symbolByLabel('Thing16000')?.id);
    expect(progress.at(-1)).toBe(3);
  });

  it('reloads a graph after removals exactly as memory holds it, dropping chunks that empty', async () => {
    const db = new AnimaDatabase('anima', freshIndexedDb());
    await db.sessions.add({ id: SESSION, name: 'test', cycle: 0, createdAt: 0, updatedAt: 0 });
    const graph = new KnowledgeGraph();
    const count = TRIPLES_PER_CHUNK * 2 + 5;
    await store(db, graph, (batch) => {
      const isA = batch.resolve({ type: 'label', value: 'is-a' }, 'predicate');
      for (let index = 0; index < count; index++)
        batch.assert(
          batch.resolve({ type: 'label', value: `Thing${index}` }, 'subject'),
          isA,
          batch.resolve({ type: 'label', value: `Kind${index % 7}` }, 'object'),
          0.5,
        );
    });
    // Removals from the first chunk, the middle and the end, with additions in the same delta.
    const doomed = [0, 17, TRIPLES_PER_CHUNK + 3, count - 1].map((position) => graph.tripleAt(position));
    await store(db, graph, (batch) => {
      const isA = batch.resolve({ type: 'label', value: 'is-a' }, 'predicate');
      batch.assert(
        batch.resolve({ type: 'label', value: 'Newcomer' }, 'subject'),
        isA,
        batch.resolve({ type: 'label', value: 'Kind1' }, 'object'),
        0.7,
      );
      for (const triple of doomed) batch.retract(triple.subject, triple.predicate, triple.object);
    });
    expect(graph.tripleCount).toBe(count - 3);
    for (const triple of doomed) expect(graph.triple(triple.subject, triple.predicate, triple.object)).toBeUndefined();
    let reloaded = await loadGraph(db, SESSION);
    expect([...reloaded.triples()]).toEqual([...graph.triples()]);
    // One provenance record per stored delta, the removals' included.
    expect(await db.provenance.count()).toBe(2);

    // Down to the last chunk's start: the third chunk record is deleted, not left behind.
    const tail = [...graph.triples()].slice(TRIPLES_PER_CHUNK * 2);
    await store(db, graph, (batch) => {
      for (const triple of tail) batch.retract(triple.subject, triple.predicate, triple.object);
    });
    expect(graph.tripleCount).toBe(TRIPLES_PER_CHUNK * 2);
    expect(await db.tripleChunks.count()).toBe(2);
    reloaded = await loadGraph(db, SESSION);
    expect([...reloaded.triples()]).toEqual([...graph.triples()]);
  });
});

describe('derivations explained in batches', () => {
  it('stores one record per batch of derived facts, each fact pointing to the record that explains it', async () => {
    const db = new AnimaDatabase('anima', freshIndexedDb());
    await db.sessions.add({ id: SESSION, name: 'test', cycle: 0, createdAt: 0, updatedAt: 0 });
    const graph = new KnowledgeGraph();
    const derivedCount = DERIVATIONS_PER_RECORD * 2 + 5;
    const batch = graph.batch({ now: 5 });
    const isA = batch.resolve({ type: 'label', value: 'is-a' }, 'predicate');
    const animal = batch.resolve({ type: 'label', value: 'Animal' }, 'object');
    const mammal = batch.resolve({ type: 'label', value: 'Mammal' }, 'object');
    const derivations: Derivation[] = [];
    for (let index = 0; index < derivedCount; index++) {
      const subject = batch.resolve({ type: 'label', value: `Beast${index}` }, 'subject');
      batch.assert(subject, isA, animal, 0.9);
      derivations.push({
        subject,
        predicate: isA,
        object: animal,
        confidence: 0.9,
        rule: index % 2 === 0 ? 'is-a-transitive' : 'other-rule',
        premises: [
          { subject, predicate: isA, object: mammal, confidence: 1 },
          { subject: mammal, predicate: isA, object: animal, confidence: 0.9 },
        ],
      });
    }
    const stored = await storeGraphDelta(db, {
      graph,
      sessionId: SESSION,
      delta: batch.delta,
      now: 5,
      provenance: {
        perBatch: (triples) =>
          derivationsProvenance(
            triples.map((triple) => derivations.find((derivation) => derivation.subject === triple.subject)!),
            { sessionId: SESSION, cycle: 1, createdAt: 5 },
          ),
      },
    });
    graph.apply(stored);
    const records = await db.provenance.toArray();
    expect(records.map((record) => record.derivations?.length)).toEqual([
      DERIVATIONS_PER_RECORD,
      DERIVATIONS_PER_RECORD,
      5,
    ]);
    // Each stored fact is explained, with its own rule and premises, by the record it points to.
    for (const [index, derivation] of derivations.entries()) {
      const triple = graph.triple(derivation.subject, isA, animal)!;
      const record = records.find((candidate) => candidate.id === triple.provenanceId)!;
      expect(record).toBeDefined();
      const told = provenanceOfFact(graph, record, [derivation.subject, isA, animal]);
      expect(told.sources[0]).toBe(`rule:${derivation.rule}`);
      if (index === 1)
        expect(told.detail).toBe(
          'Beast1 is-a Animal (0.90) by other-rule from Beast1 is-a Mammal (1.00) and Mammal is-a Animal (0.90)',
        );
    }
    // The batch's own words, without its list.
    expect(provenanceOfFact(graph, records[2]!, undefined)).toMatchObject({
      detail: '5 facts derived by is-a-transitive, other-rule',
      sources: ['rule:is-a-transitive', 'rule:other-rule'],
    });
  });
});
