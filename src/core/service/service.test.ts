import { describe, expect, it } from 'vitest';
import { AnimaDatabase } from '#core/store/database.ts';
import { loadGraph } from '#core/store/kg-repository.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';

const STARTER = `@prefix : <urn:anima:kg#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:GoldenRetriever :is-a :Dog ; rdfs:label "golden retriever"@en .
:Dog :is-a :Canine . :Canine :is-a :Mammal .
`;

/** What the database holds for a session: its triples as reloaded, and the symbol and provenance counts. */
async function storedState(db: AnimaDatabase, sessionId: string) {
  const graph = await loadGraph(db, sessionId);
  return { triples: [...graph.triples()], symbols: graph.symbolCount, provenance: await db.provenance.count() };
}

async function opened(options: Parameters<typeof testService>[0] = {}) {
  const { db, service } = testService(options);
  const { session } = await service.open({});
  return { db, service, sessionId: session.id };
}

describe('agent service: knowledge graph', () => {
  it('loads the starter graph on first start only, and keeps it across restarts', async () => {
    const indexedDb = freshIndexedDb();
    const first = testService({ db: new AnimaDatabase('anima', indexedDb), loadStarterGraph: async () => STARTER });
    const opening = await first.service.open({});
    expect(opening.hasLoadedStarterGraph).toBe(true);
    expect(opening.stats.triples).toBe(4);
    first.db.close();

    const second = testService({ db: new AnimaDatabase('anima', indexedDb), loadStarterGraph: async () => STARTER });
    const reopened = await second.service.open({});
    expect(reopened.hasLoadedStarterGraph).toBe(false);
    expect(reopened.session.id).toBe(opening.session.id);
    expect(reopened.stats.triples).toBe(4);
  });

  it('loads the starter graph again when the first start was cut off before it was stored', async () => {
    const indexedDb = freshIndexedDb();
    const broken = testService({
      db: new AnimaDatabase('anima', indexedDb),
      loadStarterGraph: async () => Promise.reject(new Error('network gone')),
    });
    await expect(broken.service.open({})).rejects.toThrow('network gone');
    broken.db.close();
    const next = testService({ db: new AnimaDatabase('anima', indexedDb), loadStarterGraph: async () => STARTER });
    expect((await next.service.open({})).stats.triples).toBe(4);
  });

  it('imports CSV with progress, then finds symbols by label and by rdfs:label', async () => {
    const { service, sessionId } = await opened({ loadStarterGraph: async () => STARTER });
    const phases: string[] = [];
    const outcome = await service.kgImport(
      { sessionId, operationId: 'op', fileName: 'pets.csv', data: 'Tabby,is-a,Cat\nCat,is-a,Mammal,0.9\n' },
      (progress) => phases.push(progress.phase),
    );
    expect(outcome).toMatchObject({ ok: true, statements: 2, added: 2, stats: { triples: 6 } });
    expect(phases).toContain('reading');
    expect(phases.at(-1)).toBe('writing');
    const byLabel = await service.kgSearch({ sessionId, text: 'tabby' });
    expect(byLabel.hits.map((hit) => hit.symbol.label)).toEqual(['Tabby']);
    const byRdfsLabel = await service.kgSearch({ sessionId, text: 'golden retr' });
    expect(byRdfsLabel.hits[0]).toMatchObject({
      symbol: { label: 'GoldenRetriever' },
      matchedText: 'golden retriever',
      isLabelLiteral: true,
    });
  });

  it('shows a symbol with its outgoing and incoming triples', async () => {
    const { service, sessionId } = await opened({ loadStarterGraph: async () => STARTER });
    const dog = (await service.kgSearch({ sessionId, text: 'Dog' })).hits[0]!.symbol;
    const details = await service.kgSymbol({ sessionId, symbolId: dog.id });
    if (!details.isFound) throw new Error('Dog not found');
    expect(details.outgoing.map((fact) => `${fact.predicate.label} ${fact.object.label}`)).toEqual(['is-a Canine']);
    expect(details.incoming.map((fact) => `${fact.subject.label} ${fact.predicate.label}`)).toEqual([
      'GoldenRetriever is-a',
    ]);
    expect(await service.kgSymbol({ sessionId, symbolId: 9999 })).toEqual({ isFound: false });
  });

  it('leaves the graph and the database unchanged when a line is bad, and names the line', async () => {
    const { db, service, sessionId } = await opened({ loadStarterGraph: async () => STARTER });
    const before = await storedState(db, sessionId);
    const outcome = await service.kgImport({
      sessionId,
      operationId: 'op',
      fileName: 'broken.nt',
      data: '<http://e.org/New> <http://e.org/is-a> <http://e.org/Thing> .\n<http://e.org/Other> <http://e.org/is-a> <http://e.org/Thing> .\n<http://e.org/x> broken .\n',
    });
    expect(outcome).toMatchObject({ ok: false, reason: 'invalid', problems: [{ line: 3 }] });
    expect(await storedState(db, sessionId)).toEqual(before);
    expect((await service.kgStats({ sessionId })).triples).toBe(4);
    expect((await service.kgSearch({ sessionId, text: 'New' })).total).toBe(0);
  });

  it('cancels a running import and changes nothing', async () => {
    const { db, service, sessionId } = await opened();
    const lines = Array.from({ length: 40_000 }, (_, index) => `Thing${index},is-a,Thing\n`).join('');
    const importing = service.kgImport({ sessionId, operationId: 'big', fileName: 'big.csv', data: lines }, () => {
      void service.cancel({ operationId: 'big' });
    });
    expect(await importing).toMatchObject({ ok: false, reason: 'cancelled' });
    expect(await storedState(db, sessionId)).toEqual({ triples: [], symbols: 0, provenance: 0 });
    expect(await service.cancel({ operationId: 'big' })).toEqual({ isCancelled: false });
  });

  it('says a cancel came too late once the import is writing, and the import completes', async () => {
    const { service, sessionId } = await opened();
    const answers: boolean[] = [];
    const outcome = await service.kgImport(
      { sessionId, operationId: 'late', fileName: 'small.csv', data: 'Dog,is-a,Mammal\n' },
      (progress) => {
        if (progress.phase === 'writing')
          void service.cancel({ operationId: 'late' }).then((answer) => answers.push(answer.isCancelled));
      },
    );
    expect(outcome).toMatchObject({ ok: true, added: 1 });
    expect(answers).toEqual([false]);
  });

  it('refuses a file whose format it cannot tell', async () => {
    const { service, sessionId } = await opened();
    const outcome = await service.kgImport({ sessionId, operationId: 'op', fileName: 'notes.docx', data: 'x' });
    expect(outcome).toMatchObject({ ok: false, reason: 'unknown-format' });
  });

  it('stamps imported triples with an import provenance record', async () => {
    const { db, service, sessionId } = await opened();
    await service.kgImport({ sessionId, operationId: 'op', fileName: 'facts.csv', data: 'Dog,is-a,Mammal\n' });
    const [triple] = (await loadGraph(db, sessionId)).triples();
    const provenance = await db.provenance.get(triple!.provenanceId!);
    expect(provenance).toMatchObject({ kind: 'import', sources: ['facts.csv'], sessionId });
  });

  it('exports N-Triples that re-import to the same graph', async () => {
    const { service, sessionId } = await opened({ loadStarterGraph: async () => STARTER });
    await service.kgImport({
      sessionId,
      operationId: 'op',
      fileName: 'more.csv',
      data: '"Red Planet",has-note,"a ""quoted"" note"\n',
    });
    const exported = await service.kgExport({ sessionId, format: 'n-triples' });
    expect(exported.tripleCount).toBe(5);
    expect(exported.text).toContain('<urn:anima:kg#Dog> <urn:anima:kg#is-a> <urn:anima:kg#Canine> .');
    expect(exported.text).toContain('"golden retriever"@en');

    const other = await opened();
    const reimported = await other.service.kgImport({
      sessionId: other.sessionId,
      operationId: 'op',
      fileName: 'graph.nt',
      data: exported.text,
    });
    expect(reimported).toMatchObject({ ok: true, added: 5 });
    expect((await other.service.kgExport({ sessionId: other.sessionId, format: 'n-triples' })).text).toBe(
      exported.text,
    );
  });

  it('round-trips clashing IRI local names, plain labels and blank nodes through export and import', async () => {
    const { service, sessionId } = await opened();
    const importText = (fileName: string, data: string) =>
      service.kgImport({ sessionId, operationId: 'op', fileName, data });
    await importText(
      'a.nt',
      '<http://a.example/Dog> <http://a.example/likes> <http://a.example/Bone> .\n_:x <http://a.example/likes> "" .\n',
    );
    await importText('b.csv', 'Dog-2,is-a,Robot\n');
    await importText(
      'c.nt',
      '<http://a.example/Dog> <http://a.example/fears> <http://b.example/Dog> .\n_:x <http://a.example/likes> <http://a.example/Bone> .\n',
    );
    const exported = await service.kgExport({ sessionId, format: 'n-triples' });
    const before = await service.kgStats({ sessionId });

    const other = await opened();
    const reimported = await other.service.kgImport({
      sessionId: other.sessionId,
      operationId: 'op',
      fileName: 'graph.nt',
      data: exported.text,
    });
    expect(reimported).toMatchObject({ ok: true, stats: before });
    expect((await other.service.kgExport({ sessionId: other.sessionId, format: 'n-triples' })).text).toBe(
      exported.text,
    );
    const robots = await other.service.kgQuery({ sessionId: other.sessionId, query: '?x is-a Robot' });
    expect(robots).toMatchObject({ ok: true, rows: [{ x: { label: 'Dog-2' } }] });
    expect(robots.ok && robots.rows[0]!.x!.iri).toBeUndefined();
  });

  it('answers pattern queries with labels', async () => {
    const { service, sessionId } = await opened({ loadStarterGraph: async () => STARTER });
    const answer = await service.kgQuery({ sessionId, query: '?x is-a ?y . ?y is-a canine' });
    expect(answer).toMatchObject({
      ok: true,
      variables: ['x', 'y'],
      rows: [{ x: { label: 'GoldenRetriever' }, y: { label: 'Dog' } }],
    });
    expect(await service.kgQuery({ sessionId, query: '?x is-a' })).toMatchObject({ ok: false });
  });

  it('rejects arguments that break the contract', async () => {
    const { service } = await opened();
    await expect(service.kgSearch({ sessionId: '', text: 'x' })).rejects.toThrow(/kgSearch arguments: sessionId/);
  });
});

describe('agent service: sessions', () => {
  it('refuses to work on a session that does not exist', async () => {
    const { service } = await opened();
    await expect(service.kgStats({ sessionId: 'nope' })).rejects.toThrow('no session with id nope');
    await expect(service.kgSearch({ sessionId: 'nope', text: 'x' })).rejects.toThrow('no session with id nope');
  });
});

describe('agent service: inference and paths', () => {
  it('stores derived facts with their rule and premises, keeps them across restarts, and derives nothing new on a second run', async () => {
    const indexedDb = freshIndexedDb();
    const first = testService({ db: new AnimaDatabase('anima', indexedDb), loadStarterGraph: async () => STARTER });
    const { session } = await first.service.open({});
    const run = await first.service.kgInfer({ sessionId: session.id });
    expect(run).toMatchObject({ ok: true, derived: 3, raised: 0, hasConverged: true, stats: { triples: 7 } });
    if (!run.ok) throw new Error('inference refused');
    expect(run.facts.every((entry) => entry.isNew)).toBe(true);
    const toMammal = run.facts.find(
      (entry) => entry.fact.subject.label === 'GoldenRetriever' && entry.fact.object.label === 'Mammal',
    )!;
    expect(toMammal.rule).toBe('is-a-transitive');
    expect(toMammal.fact.confidence).toBeCloseTo(0.95 * 0.95, 10);
    const { subject, predicate, object } = toMammal.fact;
    const provenance = await first.service.kgProvenance({
      sessionId: session.id,
      provenanceId: toMammal.fact.provenanceId!,
      fact: [subject.id, predicate.id, object.id],
    });
    expect(provenance).toMatchObject({
      isFound: true,
      record: { kind: 'inference', sources: expect.arrayContaining(['rule:is-a-transitive']) },
    });
    if (provenance.isFound)
      expect(provenance.record.detail).toMatch(/^GoldenRetriever is-a Mammal \(0\.90\) by is-a-transitive from /);
    // One record explains the whole inference; asked without a fact, it tells the batch.
    expect(await first.db.provenance.where('kind').equals('inference').count()).toBe(1);
    const batch = await first.service.kgProvenance({
      sessionId: session.id,
      provenanceId: toMammal.fact.provenanceId!,
    });
    expect(batch.isFound && batch.record.detail).toBe(
      `${run.derived + run.raised} facts derived by ${[...new Set(run.facts.map((entry) => entry.rule))].join(', ')}`,
    );
    first.db.close();

    const second = testService({ db: new AnimaDatabase('anima', indexedDb) });
    await second.service.open({});
    const answer = await second.service.kgQuery({ sessionId: session.id, query: '?x is-a Mammal' });
    expect(answer.ok && answer.rows.map((row) => row.x!.label).sort()).toEqual(['Canine', 'Dog', 'GoldenRetriever']);
    const again = await second.service.kgInfer({ sessionId: session.id });
    expect(again).toMatchObject({ ok: true, derived: 0, raised: 0, facts: [] });
    const dog = (await second.service.kgSearch({ sessionId: session.id, text: 'GoldenRetriever' })).hits[0]!.symbol;
    const details = await second.service.kgSymbol({ sessionId: session.id, symbolId: dog.id });
    expect(details.isFound && details.outgoing.find((fact) => fact.object.label === 'Mammal')?.confidence).toBeCloseTo(
      0.9025,
      10,
    );
  });

  it('finds the shortest path between two symbols', async () => {
    const { service, sessionId } = await opened({ loadStarterGraph: async () => STARTER });
    const idOf = async (label: string) => (await service.kgSearch({ sessionId, text: label })).hits[0]!.symbol.id;
    const path = await service.kgPath({ sessionId, from: await idOf('GoldenRetriever'), to: await idOf('Mammal') });
    expect(path.isFound && path.steps.map((step) => `${step.fact.subject.label} ${step.fact.object.label}`)).toEqual([
      'GoldenRetriever Dog',
      'Dog Canine',
      'Canine Mammal',
    ]);
  });
});

describe('agent service: one writer at a time', () => {
  it('refuses changes without write access, then takes over and re-reads what the other writer stored', async () => {
    const indexedDb = freshIndexedDb();
    const writer = testService({ db: new AnimaDatabase('anima', indexedDb), loadStarterGraph: async () => STARTER });
    const { session } = await writer.service.open({});

    let isGranted = false;
    const listeners: (() => void)[] = [];
    const reader = testService({
      db: new AnimaDatabase('anima', indexedDb),
      writeAccess: {
        ready: Promise.resolve(),
        canWrite: () => isGranted,
        onGranted: (listener) => listeners.push(listener),
      },
    });
    const opened = await reader.service.open({});
    expect(opened).toMatchObject({ canWrite: false, hasLoadedStarterGraph: false, stats: { triples: 4 } });
    const refused = await reader.service.kgImport({
      sessionId: session.id,
      operationId: 'op',
      fileName: 'x.csv',
      data: 'Tabby,is-a,Cat\n',
    });
    expect(refused).toMatchObject({ ok: false, reason: 'read-only' });
    expect(await reader.service.kgInfer({ sessionId: session.id })).toMatchObject({ ok: false, reason: 'read-only' });

    await writer.service.kgImport({
      sessionId: session.id,
      operationId: 'op',
      fileName: 'y.csv',
      data: 'Rex,is-a,Dog\n',
    });
    isGranted = true;
    for (const listener of listeners) listener();
    expect((await reader.service.kgStats({ sessionId: session.id })).triples).toBe(5);
    expect(
      await reader.service.kgImport({
        sessionId: session.id,
        operationId: 'op',
        fileName: 'x.csv',
        data: 'Tabby,is-a,Cat\n',
      }),
    ).toMatchObject({ ok: true, stats: { triples: 6 } });
  });

  it('does not set up a first session without write access', async () => {
    const { service } = testService({
      writeAccess: { ready: Promise.resolve(), canWrite: () => false, onGranted: () => undefined },
    });
    await expect(service.open({})).rejects.toThrow('setting up in another tab');
  });
});

describe('agent service: similarity', () => {
  const ZOO = `@prefix : <urn:anima:kg#> .
:Dog :is-a :Canine ; :has-part :Fur , :Tail ; :eats :Meat .
:Wolf :is-a :Canine ; :has-part :Fur , :Tail ; :eats :Meat .
:Cat :is-a :Feline ; :has-part :Fur , :Tail ; :eats :Fish .
:Mars :is-a :Planet ; :orbits :Sun .
`;

  it('ranks symbols by shared neighbourhood and follows confidence changes', async () => {
    const { service, sessionId } = await opened({ loadStarterGraph: async () => ZOO });
    const idOf = async (label: string) => (await service.kgSearch({ sessionId, text: label })).hits[0]!.symbol.id;
    const dog = await idOf('Dog');
    const ranked = (await service.kgSimilar({ sessionId, symbolId: dog, k: 3 })).hits.map((hit) => hit.symbol.label);
    expect(ranked.slice(0, 2)).toEqual(['Wolf', 'Cat']);
    expect(ranked).not.toContain('Mars');
    const byText = await service.kgSimilar({ sessionId, text: 'mars planet', k: 2 });
    expect(byText.hits.map((hit) => hit.symbol.label)).toContain('Mars');
    await expect(service.kgSimilar({ sessionId, k: 2 })).rejects.toThrow(/either symbolId or text/);
  });
});
