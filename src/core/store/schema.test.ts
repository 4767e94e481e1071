import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { AnimaDatabase } from './database.ts';
import { CURRENT_SCHEMA_VERSION, SCHEMA_VERSIONS } from './schema.ts';

/**
 * Records as each schema version wrote them. When a version is added, add its records here, and
 * keep the older ones: every test below opens a database written by each version with today's code.
 */
const RECORDS_WRITTEN_BY: Record<number, Record<string, object[]>> = {
  1: {
    sessions: [{ id: 's1', name: 'Zoo', cycle: 3, createdAt: 1, updatedAt: 2 }],
    symbols: [
      { sessionId: 's1', id: 1, label: 'Dog', kind: 'entity', iri: 'http://example.org/Dog', createdAt: 1 },
      { sessionId: 's1', id: 2, label: 'is-a', kind: 'relation', createdAt: 1 },
      { sessionId: 's1', id: 3, label: 'Mammal', kind: 'entity', createdAt: 1 },
    ],
    triples: [{ sessionId: 's1', subject: 1, predicate: 2, object: 3, confidence: 0.9, provenanceId: 1, createdAt: 1 }],
    provenance: [
      {
        id: 1,
        sessionId: 's1',
        kind: 'import',
        sources: ['zoo.csv'],
        confidence: 1,
        cycle: 0,
        detail: 'csv import',
        createdAt: 1,
      },
    ],
    settings: [{ key: 'activeSessionId', value: 's1' }],
  },
  2: {
    sessions: [{ id: 's1', name: 'Zoo', cycle: 3, createdAt: 1, updatedAt: 2 }],
    symbolChunks: [
      {
        sessionId: 's1',
        index: 0,
        symbols: [
          { id: 1, label: 'Dog', kind: 'entity', iri: 'http://example.org/Dog', createdAt: 1 },
          { id: 2, label: 'is-a', kind: 'relation', createdAt: 1 },
          { id: 3, label: 'Mammal', kind: 'entity', createdAt: 1 },
        ],
      },
    ],
    tripleChunks: [
      {
        sessionId: 's1',
        index: 0,
        count: 1,
        subjects: Int32Array.of(1),
        predicates: Int32Array.of(2),
        objects: Int32Array.of(3),
        confidences: Float64Array.of(0.9),
        provenanceIds: Int32Array.of(1),
        createdAt: Float64Array.of(1),
      },
    ],
    provenance: [
      {
        id: 1,
        sessionId: 's1',
        kind: 'import',
        sources: ['zoo.csv'],
        confidence: 1,
        cycle: 0,
        detail: 'csv import',
        createdAt: 1,
      },
    ],
    settings: [{ key: 'activeSessionId', value: 's1' }],
  },
};
// Version 3 only adds the cycle log; the records of version 2 are what version 3 writes for a graph.
RECORDS_WRITTEN_BY[3] = RECORDS_WRITTEN_BY[2]!;
// Version 4 only adds the questions table.
RECORDS_WRITTEN_BY[4] = RECORDS_WRITTEN_BY[2]!;
// Version 5 indexes plans by status and adds the reflections table.
RECORDS_WRITTEN_BY[5] = RECORDS_WRITTEN_BY[2]!;
// Version 6 makes part and trait names unique (the catalog was never written before it).
RECORDS_WRITTEN_BY[6] = RECORDS_WRITTEN_BY[2]!;
// Version 7 changes no table: it relabels numbered names (tested below).
RECORDS_WRITTEN_BY[7] = RECORDS_WRITTEN_BY[2]!;
// Version 8 adds the embeddings cache, with one embedding in it.
RECORDS_WRITTEN_BY[8] = {
  ...RECORDS_WRITTEN_BY[2]!,
  embeddings: [{ embedder: 'gguf tiny', digest: 'ab12', vector: Float32Array.of(0.6, 0.8), storedAt: 1 }],
};
// Version 9 adds the background jobs table.
RECORDS_WRITTEN_BY[9] = RECORDS_WRITTEN_BY[8]!;
// Version 10 keeps artifacts of every kind, their bytes apart; a version 9 note is moved (tested below).
RECORDS_WRITTEN_BY[10] = RECORDS_WRITTEN_BY[9]!;

async function writeDatabaseAtVersion(
  version: number,
  indexedDb: ReturnType<typeof freshIndexedDb>,
  records = RECORDS_WRITTEN_BY[version],
): Promise<void> {
  const old = new Dexie('anima', indexedDb);
  for (const [past, stores] of Object.entries(RELEASED_STORES))
    if (Number(past) <= version) old.version(Number(past)).stores(stores);
  if (!records) throw new Error(`no records for schema version ${version}: add them to RECORDS_WRITTEN_BY`);
  await old.transaction('rw', Object.keys(records), async () => {
    for (const [table, rows] of Object.entries(records)) await old.table(table).bulkAdd(rows);
  });
  old.close();
}

/**
 * The stores of every released version, frozen: a version that shipped must never change, or
 * databases written by it would no longer open. Add the new version here when you add it.
 */
const RELEASED_STORES: Record<number, Record<string, string | null>> = {
  1: {
    sessions: 'id, updatedAt',
    symbols: '[sessionId+id]',
    triples: '[sessionId+subject+predicate+object]',
    provenance: '++id, sessionId, kind',
    documents: '++id, sessionId, name',
    artifacts: '++id, sessionId',
    goals: '++id, sessionId, [sessionId+status], parentId',
    plans: '++id, sessionId, goalId',
    workingMemory: '++id, sessionId',
    episodes: '++id, sessionId, goalId',
    approvals: '++id, sessionId, status',
    psyches: '++id, sessionId, [sessionId+version]',
    personas: '++id, &name',
    parts: '++id, type, name',
    traits: '++id, type, name',
    skills: '++id, &name',
    guardrails: '++id, &name',
    arcs: '++id, &name',
    arcStages: '++id, arcId, [arcId+position]',
    personaParts: '[personaId+partId], personaId, partId',
    personaTraits: '[personaId+traitId], personaId',
    personaSkills: '[personaId+skillId], personaId',
    personaGuardrails: '[personaId+guardrailId], personaId',
    stageParts: '[stageId+partId], stageId',
    personaArcs: 'personaId, arcId',
    models: 'id',
    settings: 'key',
  },
  2: { symbols: null, triples: null, symbolChunks: '[sessionId+index]', tripleChunks: '[sessionId+index]' },
  3: { cycles: '[sessionId+cycle]' },
  4: { questions: '++id, sessionId, status' },
  5: { plans: '++id, sessionId, goalId, [sessionId+status]', reflections: '++id, [sessionId+cycle]' },
  6: { parts: '++id, &name, type', traits: '++id, &name, type' },
  7: {},
  8: { embeddings: '[embedder+digest], storedAt' },
  9: { jobs: '++id, sessionId, [sessionId+status]' },
  10: { artifacts: '++id, sessionId, [sessionId+goalId]', artifactBytes: 'id, sessionId' },
};

describe('database schema migrations', () => {
  it('never changes a released schema version', () => {
    expect(Object.fromEntries(SCHEMA_VERSIONS.map(({ version, stores }) => [version, stores]))).toEqual(
      RELEASED_STORES,
    );
  });

  it('declares every table of the design at the current version', () => {
    expect(SCHEMA_VERSIONS.at(-1)!.version).toBe(CURRENT_SCHEMA_VERSION);
    const tables = new Set<string>();
    for (const { stores } of SCHEMA_VERSIONS)
      for (const [table, spec] of Object.entries(stores)) {
        if (spec === null) tables.delete(table);
        else tables.add(table);
      }
    for (const table of [
      'sessions',
      'symbolChunks',
      'tripleChunks',
      'goals',
      'plans',
      'workingMemory',
      'episodes',
      'provenance',
      'psyches',
      'personas',
      'parts',
      'traits',
      'skills',
      'guardrails',
      'arcs',
      'arcStages',
      'personaParts',
      'personaTraits',
      'personaSkills',
      'personaGuardrails',
      'stageParts',
      'personaArcs',
      'approvals',
      'documents',
      'artifacts',
      'artifactBytes',
      'models',
      'settings',
      'cycles',
      'questions',
      'reflections',
      'embeddings',
      'jobs',
    ])
      expect(tables).toContain(table);
  });

  for (const { version } of SCHEMA_VERSIONS) {
    it(`opens a database written by schema version ${version} with the current code, data intact`, async () => {
      const indexedDb = freshIndexedDb();
      await writeDatabaseAtVersion(version, indexedDb);
      const { service } = testService({ db: new AnimaDatabase('anima', indexedDb) });
      const opened = await service.open({});
      expect(opened.session).toEqual({ id: 's1', name: 'Zoo' });
      expect(opened.stats.triples).toBe(1);
      const answer = await service.kgQuery({ sessionId: 's1', query: '?x is-a mammal' });
      expect(answer).toMatchObject({ ok: true, rows: [{ x: { label: 'Dog', iri: 'http://example.org/Dog' } }] });
      const dog = (await service.kgSearch({ sessionId: 's1', text: 'dog' })).hits[0]!.symbol;
      const details = await service.kgSymbol({ sessionId: 's1', symbolId: dog.id });
      expect(details).toMatchObject({ isFound: true, outgoing: [{ confidence: 0.9, provenanceId: 1 }] });
      // The session keeps working: a new fact is stored next to the migrated ones.
      await service.kgImport({ sessionId: 's1', operationId: 'op', fileName: 'more.csv', data: 'Cat,is-a,Mammal\n' });
      expect((await service.kgStats({ sessionId: 's1' })).triples).toBe(2);
    });
  }

  it('names the symbols an older version numbered (Mammal-2) by their name and source', async () => {
    const indexedDb = freshIndexedDb();
    const version6 = RECORDS_WRITTEN_BY[6]!;
    const [chunk] = version6.symbolChunks as { symbols: object[] }[];
    const symbolChunks = [
      {
        ...chunk,
        symbols: [
          ...chunk!.symbols,
          { id: 4, label: 'Mammal-2', kind: 'entity', iri: 'http://zoo.example/Mammal', createdAt: 1 },
        ],
      },
    ];
    await writeDatabaseAtVersion(6, indexedDb, { ...version6, symbolChunks });
    const { service } = testService({ db: new AnimaDatabase('anima', indexedDb) });
    await service.open({});
    const hits = (await service.kgSearch({ sessionId: 's1', text: 'mammal' })).hits.map((hit) => hit.symbol.label);
    expect(hits.sort()).toEqual(['Mammal', 'Mammal · zoo.example']);
  });

  it('keeps the Markdown notes version 9 wrote as text artifacts of file_io, bytes and all', async () => {
    const indexedDb = freshIndexedDb();
    const text = '# Notes: Find mammals\n\n- Dog is-a Mammal (confidence 0.90)\n';
    const note = {
      id: 3,
      sessionId: 's1',
      goalId: 1,
      name: 'goal-1-notes.md',
      mediaType: 'text/markdown',
      text,
      findingsNoted: 1,
      cycle: 4,
      createdAt: 10,
      updatedAt: 20,
    };
    await writeDatabaseAtVersion(9, indexedDb, { ...RECORDS_WRITTEN_BY[9]!, artifacts: [note] });
    const { service } = testService({ db: new AnimaDatabase('anima', indexedDb) });
    await service.open({});
    const { artifacts } = await service.artifactList({ sessionId: 's1', goalId: 1 });
    expect(artifacts).toEqual([
      {
        id: 3,
        goalId: 1,
        tool: 'file_io',
        cycle: 4,
        name: 'goal-1-notes.md',
        kind: 'text',
        mediaType: 'text/markdown',
        size: new TextEncoder().encode(text).byteLength,
        createdAt: 10,
        updatedAt: 20,
      },
    ]);
    const read = await service.artifactRead({ sessionId: 's1', id: 3 });
    expect(read.ok && new TextDecoder().decode(read.bytes)).toBe(text);
  });
});
