import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { exportSnapshot } from '#core/sessions/snapshot.ts';
import { parseSnapshot } from '#core/sessions/snapshot-check.ts';
import { restoreSnapshot } from '#core/sessions/snapshot-restore.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';

const STARTER = readFileSync(new URL('../../../public/starter-graph.ttl', import.meta.url), 'utf8');
const MARS_NOTES =
  'Notes on Mars\n\nMars has volcanoes. Mars has craters. Olympus Mons is a volcano. It is a fine sight.\n';

async function agentOnStarterGraph() {
  const { db, service } = testService({
    db: new AnimaDatabase('anima', freshIndexedDb()),
    loadStarterGraph: async () => STARTER,
  });
  const { session } = await service.open({});
  return { db, service, sessionId: session.id };
}

describe('documents', () => {
  it('imports a text document, lists it newest first with a preview, and deletes it', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    const imported = await service.documentImport({ sessionId, fileName: 'mars.txt', text: MARS_NOTES });
    expect(imported).toMatchObject({
      ok: true,
      document: { id: 1, name: 'mars.txt', size: MARS_NOTES.length, preview: MARS_NOTES },
    });
    await service.documentImport({ sessionId, fileName: 'more.md', text: '# More\n' });
    expect((await service.documentList({ sessionId })).documents.map((document) => document.name)).toEqual([
      'more.md',
      'mars.txt',
    ]);
    expect(await service.documentDelete({ sessionId, documentId: 2 })).toEqual({ ok: true });
    expect(await service.documentDelete({ sessionId, documentId: 2 })).toEqual({
      ok: false,
      problems: [{ message: 'there is no document 2' }],
    });
    expect((await service.documentList({ sessionId })).documents).toHaveLength(1);
  });

  it('refuses empty, binary, undecodable and oversized text whole', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    expect(await service.documentImport({ sessionId, fileName: 'empty.txt', text: '  \n' })).toEqual({
      ok: false,
      reason: 'invalid',
      problems: [{ message: 'empty.txt is empty: there is nothing to read' }],
    });
    expect(await service.documentImport({ sessionId, fileName: 'a.bin', text: 'PK\u0003\u0004\u0000' })).toMatchObject({
      ok: false,
      problems: [{ message: expect.stringContaining('not a text file') }],
    });
    expect(
      await service.documentImport({ sessionId, fileName: 'b.txt', text: 'fine\nbroken \uFFFD here' }),
    ).toMatchObject({ ok: false, problems: [{ line: 2 }] });
    expect(
      await service.documentImport({ sessionId, fileName: 'big.txt', text: 'x'.repeat(2 * 1024 * 1024 + 1) }),
    ).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining('over 2 MB') }] });
    expect((await service.documentList({ sessionId })).documents).toEqual([]);
  });

  it('lets the agent read a document about its goal and turn it into facts, each with its sentence as provenance', async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    await service.documentImport({ sessionId, fileName: 'mars.txt', text: MARS_NOTES });
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    const cycles: CycleRecord[] = [];
    const run = await service.agentRun({ sessionId, operationId: 'run', maxCycles: 10 }, (record) =>
      cycles.push(record),
    );
    expect(run).toMatchObject({ ok: true, stoppedBecause: 'no-active-goal' });
    // The plan explores first: its lookup, done while planning, found neither word around Mars, so the document is read at once and completes the goal.
    expect(cycles.map((record) => [record.tool, record.outcome])).toEqual([['text_ingest', 'completed']]);
    expect(cycles[0]!.act).toBe(
      'mars.txt: 3 facts from its sentences, 3 about the goal: Mars has Volcano, Mars has Crater, OlympusMons is-a Volcano -> completed (completed: found facts that mention volcano and crater: Mars has Volcano; Mars has Crater; OlympusMons is-a Volcano)',
    );
    const [document] = (await service.documentList({ sessionId })).documents;
    expect(document).toMatchObject({ factsExtracted: 3, ingestedAt: expect.any(Number) });
    const [goal] = (await service.goalList({ sessionId })).goals;
    const volcano = goal!.findings.find((fact) => fact.object.label === 'Volcano' && fact.subject.label === 'Mars')!;
    expect(volcano.confidence).toBe(0.8);
    expect(await db.provenance.get(volcano.provenanceId!)).toMatchObject({
      kind: 'extraction',
      sources: ['document:1'],
      detail: 'mars.txt: "Mars has volcanoes"',
    });
  });

  it('takes every fact of a document into the graph, but only those about the goal as its findings; documents not about it wait', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    await service.documentImport({ sessionId, fileName: 'kitchen.md', text: 'Pasta is a food. A wok is a pan.' });
    await service.documentImport({
      sessionId,
      fileName: 'mixed.md',
      text: 'Pasta is a food. A crater is a hole. Mars has craters.',
    });
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'crater' });
    const cycles: CycleRecord[] = [];
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 10 }, (record) => cycles.push(record));
    const ingested = cycles.filter((record) => record.tool === 'text_ingest');
    expect(ingested.map((record) => record.act.split(' -> ')[0])).toEqual([
      'mixed.md: 3 facts from its sentences, 2 about the goal: Pasta is-a Food, Crater is-a Hole, Mars has Crater',
    ]);
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(
      goal!.findings.map((fact) => `${fact.subject.label} ${fact.predicate.label} ${fact.object.label}`),
    ).not.toContain('Pasta is-a Food');
    expect(await service.kgQuery({ sessionId, query: 'Pasta is-a ?x' })).toMatchObject({
      ok: true,
      rows: [{ x: { label: 'Food' } }],
    });
    expect(
      (await service.documentList({ sessionId })).documents.map((document) => [
        document.name,
        document.ingestedAt !== undefined,
      ]),
    ).toEqual([
      ['mixed.md', true],
      ['kitchen.md', false],
    ]);
  });

  it('reads a document that mentions the goal with file_io, an explorer tool, when it holds no simple facts', async () => {
    const { service, sessionId } = await agentOnStarterGraph();
    await service.documentImport({
      sessionId,
      fileName: 'dust.txt',
      text: 'Dust storms on Mars can cover the whole planet for months.\n',
    });
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'dust storm' });
    const cycles: CycleRecord[] = [];
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 8 }, (record) => cycles.push(record));
    // No simple sentence to turn into facts; reading it finds what the goal asks for.
    expect(cycles.find((record) => record.tool === 'text_ingest')?.act).toMatch(
      /^dust\.txt: 0 facts from its sentences, 0 about the goal -> no-change/,
    );
    expect(cycles.map((record) => record.tool)).toContain('file_io');
    const read = cycles.find((record) => record.tool === 'file_io')!;
    expect(read.act).toMatch(
      /^dust\.txt: 1 sentence about dust, storm, mars: "Dust storms on Mars can cover the whole planet for months" -> completed/,
    );
    expect(cycles.at(-1)).toBe(read);
  });

  it('travel in snapshots', async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    await service.documentImport({ sessionId, fileName: 'mars.txt', text: MARS_NOTES });
    const snapshot = await exportSnapshot(db, sessionId);
    expect(snapshot.documents).toMatchObject([{ id: 1, name: 'mars.txt', text: MARS_NOTES }]);
    const parsed = parseSnapshot(JSON.parse(JSON.stringify(snapshot)));
    if (!parsed.ok) throw new Error('snapshot refused');
    const elsewhere = new AnimaDatabase('elsewhere', freshIndexedDb());
    await restoreSnapshot(elsewhere, parsed.value);
    expect(JSON.stringify(await exportSnapshot(elsewhere, sessionId))).toBe(JSON.stringify(snapshot));
  });
});
