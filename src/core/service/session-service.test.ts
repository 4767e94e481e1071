import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { AgentApi } from '#core/api.ts';
import type { WebLlmModelRecord } from '#core/records/webllm-model.ts';
import { describeProblem } from '#core/result.ts';
import { AnimaDatabase, sessionRows } from '#core/store/database.ts';
import { checkSession } from '#core/sessions/session-check.ts';
import { MAX_SNAPSHOT_BYTES, SNAPSHOT_VERSION } from '#core/sessions/snapshot-format.ts';
import { fullableStorage } from '#core/testing/full-storage.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { V2_CARD } from '#core/personas/__fixtures__/character-cards.ts';

const STARTER = readFileSync(new URL('../../../public/starter-graph.ttl', import.meta.url), 'utf8');

async function expectOk<T extends { ok: boolean }>(pending: Promise<T>): Promise<Extract<T, { ok: true }>> {
  const result = await pending;
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result as Extract<T, { ok: true }>;
}

/** A device (database + service) with the starter graph; its sessions' ids start with its name. */
function device(name = 'here') {
  return testService({
    db: new AnimaDatabase('anima', freshIndexedDb()),
    loadStarterGraph: async () => STARTER,
    idPrefix: name,
  });
}

/**
 * A session with a bit of everything: a persona worn whose guardrail holds queries for approval
 * (so approvals wait), goals worked for some cycles, plans, a document read by id.
 */
async function livedInSession(service: AgentApi, sessionId: string) {
  await expectOk(service.personaCreate({ fields: { name: 'Careful Clerk', summary: 'You double-check everything.' } }));
  await expectOk(
    service.guardrailCreate({
      fields: {
        name: 'ask-before-queries',
        description: 'Ask before querying.',
        triggers: ['kg_query'],
        requireApproval: true,
      },
    }),
  );
  await expectOk(service.personaLink({ persona: 'Careful Clerk', kind: 'guardrail', name: 'ask-before-queries' }));
  await expectOk(service.sessionPersonaSet({ sessionId, persona: 'Careful Clerk' }));
  await expectOk(
    service.documentImport({ sessionId, fileName: 'mars.md', text: 'Venus has thick clouds. Venus is a planet.' }),
  );
  await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
  await service.goalAdd({ sessionId, description: 'Find mammals', criteria: '?x is-a mammal, at least 2' });
  await service.goalAdd({ sessionId, description: 'Learn about Venus', criteria: 'clouds' });
  await service.agentRun({ sessionId, operationId: 'run', maxCycles: 8 });
}

async function exported(service: AgentApi, sessionId: string, gzip = false) {
  return (await expectOk(service.sessionExport({ sessionId, gzip }))).bytes;
}

describe('session snapshot files', () => {
  it('export -> import on another device -> export gives the same bytes, persona, approvals and plans included', async () => {
    const here = device();
    const { session } = await here.service.open({});
    await livedInSession(here.service, session.id);
    const bytes = await exported(here.service, session.id);
    expect((await here.service.approvalList({ sessionId: session.id })).approvals.length).toBeGreaterThan(0);
    // Rows are numbered from 1 in the file, and what names them by id follows (a document read by id, here).
    const file = JSON.parse(new TextDecoder().decode(bytes));
    expect(file.documents.map((document: { id: number }) => document.id)).toEqual([1]);
    expect(
      file.cycles
        .filter((record: { tool: string }) => record.tool === 'text_ingest')
        .map((record: { input: unknown }) => record.input),
    ).toContainEqual(expect.objectContaining({ documentId: 1 }));

    const there = testService({ db: new AnimaDatabase('anima', freshIndexedDb()) });
    await there.service.open({});
    const imported = await expectOk(there.service.sessionImport({ bytes }));
    expect(imported.warnings).toEqual([]);
    expect(imported.session).toMatchObject({
      id: session.id,
      name: session.name,
      persona: 'Careful Clerk',
      isActive: false,
    });
    expect(Buffer.from(await exported(there.service, session.id)).equals(Buffer.from(bytes))).toBe(true);
    expect(await checkSession(there.db, session.id)).toEqual([]);
    // The persona came into the catalog, guardrail and all.
    expect(await there.service.guardrailGet({ name: 'ask-before-queries' })).toMatchObject({ ok: true });
  });

  it('keeps a persona imported from a character card and worn through export and import, here and on another device', async () => {
    const here = device();
    const { session } = await here.service.open({});
    const card = await expectOk(here.service.personaImport({ fileName: 'bram.json', data: JSON.stringify(V2_CARD) }));
    await expectOk(here.service.sessionPersonaSet({ sessionId: session.id, persona: card.item.name }));
    const bytes = await exported(here.service, session.id);

    const copy = await expectOk(here.service.sessionImport({ bytes, as: 'copy', name: 'Bram, again' }));
    expect(copy.warnings).toEqual([]);
    expect(copy.session).toMatchObject({ name: 'Bram, again', persona: card.item.name });
    const there = device('there');
    await there.service.open({});
    const imported = await expectOk(there.service.sessionImport({ bytes }));
    expect(imported.warnings).toEqual([]);
    expect(imported.session).toMatchObject({ persona: card.item.name });
    // The same persona, card fields and all: exported again, the file is the same.
    expect(Buffer.from(await exported(there.service, session.id)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('refuses to export a session that holds a secret stored on this device, naming the part and row, never the secret', async () => {
    const key = 'sk-stored-key-0123456789';
    const password = 'pw-stored-password-42';
    const { service } = testService();
    await service.inferenceSet({
      settings: {
        provider: 'openai-compatible',
        openAi: { baseUrl: `http://ada:${password}@127.0.0.1:9/v1`, model: 'tiny', apiKey: key },
      },
    });
    const { session } = await service.open({});
    await service.goalAdd({ sessionId: session.id, description: 'Find moons', criteria: 'moon' });
    // Pasted by a user: the agent keeps what it is given, but no file carries it.
    await service.goalAdd({
      sessionId: session.id,
      description: `Remember the key ${key}`,
      criteria: `the password ${password}`,
    });
    const refused = await service.sessionExport({ sessionId: session.id, gzip: true });
    expect(refused).toEqual({
      ok: false,
      reason: 'invalid',
      problems: [
        {
          path: 'goals.1.description',
          message: 'holds a secret of this device (the API key); a snapshot never carries one, so nothing was written',
        },
        {
          path: 'goals.1.successCriteria',
          message:
            'holds a secret of this device (the password in the base URL); a snapshot never carries one, so nothing was written',
        },
      ],
    });
    // Once the key and password are no longer stored here, the session exports.
    await service.inferenceSet({
      settings: { provider: 'none', openAi: { baseUrl: 'http://127.0.0.1:9/v1', model: 'tiny', apiKey: '' } },
    });
    expect(await service.sessionExport({ sessionId: session.id, gzip: true })).toMatchObject({ ok: true });
  });

  it('refuses to export a session past the limit the reader reads, with its words, and names every problem at once', async () => {
    const key = 'sk-stored-key-0123456789';
    const whole = testService();
    const { session } = await whole.service.open({});
    await whole.service.goalAdd({ sessionId: session.id, description: `Remember the key ${key}`, criteria: 'moons' });
    const bytes = await exported(whole.service, session.id);
    // A device that reads a byte less than that file takes: its export says what its import would.
    const maxBytes = bytes.byteLength - 1;
    const small = testService({ db: whole.db, snapshotLimits: { maxBytes } });
    const refused = await small.service.sessionExport({ sessionId: session.id, gzip: true });
    const read = await small.service.sessionImportCheck({ bytes });
    expect(read).toEqual({
      ok: false,
      reason: 'invalid',
      problems: [{ message: `the snapshot is ${bytes.byteLength} bytes, more than the ${maxBytes} bytes Anima reads` }],
    });
    expect(refused).toEqual(read);
    // Holding a stored secret as well, it is refused for both, before anything is written.
    await small.service.inferenceSet({
      settings: {
        provider: 'openai-compatible',
        openAi: { baseUrl: 'http://127.0.0.1:9/v1', model: 'tiny', apiKey: key },
      },
    });
    const both = await small.service.sessionExport({ sessionId: session.id, gzip: false });
    expect(both).toEqual({
      ok: false,
      reason: 'invalid',
      problems: [
        {
          path: 'goals.0.description',
          message: 'holds a secret of this device (the API key); a snapshot never carries one, so nothing was written',
        },
        ...(read.ok ? [] : read.problems),
      ],
    });
  });

  it("refuses to export a session that holds the credentials of a model's address", async () => {
    const { db, service } = testService();
    const record: WebLlmModelRecord = {
      id: 'Tiny-MLC',
      engine: 'webllm',
      name: 'Tiny',
      modelUrl: 'https://ada:pw-model-address-7@models.example/Tiny-MLC',
      modelLibUrl: 'https://models.example/tiny.wasm',
      vramMB: 300,
      contextTokens: 2048,
      needsShaderF16: false,
      addedAt: 1,
    };
    await db.models.add(record);
    const { session } = await service.open({});
    await service.goalAdd({ sessionId: session.id, description: 'What is pw-model-address-7', criteria: 'moon' });
    expect(await service.sessionExport({ sessionId: session.id, gzip: false })).toMatchObject({
      ok: false,
      problems: [
        {
          path: 'goals.0.description',
          message:
            "holds a secret of this device (the password in the weights' address); a snapshot never carries one, so nothing was written",
        },
      ],
    });
  });

  it('reads its gzipped form the same, and the gzip is smaller', async () => {
    const here = device();
    const { session } = await here.service.open({});
    await livedInSession(here.service, session.id);
    const plain = await exported(here.service, session.id);
    const zipped = await exported(here.service, session.id, true);
    expect(zipped.byteLength).toBeLessThan(plain.byteLength / 2);
    const there = testService({ db: new AnimaDatabase('anima', freshIndexedDb()) });
    await expectOk(there.service.sessionImport({ bytes: zipped }));
    expect(Buffer.from(await exported(there.service, session.id)).equals(Buffer.from(plain))).toBe(true);
  });

  it('imports into a device with sessions of its own: no ids collide, both sessions stay whole', async () => {
    const here = device();
    const { session } = await here.service.open({});
    await livedInSession(here.service, session.id);
    const bytes = await exported(here.service, session.id);

    const there = device('there');
    const own = (await there.service.open({})).session;
    await there.service.goalAdd({ sessionId: own.id, description: 'Learn about Jupiter', criteria: 'moons' });
    await there.service.agentRun({ sessionId: own.id, operationId: 'run', maxCycles: 3 });
    const ownBefore = await there.service.goalList({ sessionId: own.id });

    const imported = await expectOk(there.service.sessionImport({ bytes }));
    expect(await checkSession(there.db, own.id)).toEqual([]);
    expect(await checkSession(there.db, imported.session.id)).toEqual([]);
    expect(await there.service.goalList({ sessionId: own.id })).toEqual(ownBefore);
    expect(
      (await there.service.goalList({ sessionId: imported.session.id })).goals.map((goal) => goal.description).sort(),
    ).toEqual(['Find mammals', 'Learn about Mars', 'Learn about Venus']);
    // The imported session goes on: its waiting approval can be decided and the run resumes.
    const [pending] = (await there.service.approvalList({ sessionId: imported.session.id })).approvals.filter(
      (approval) => approval.status === 'pending',
    );
    await expectOk(
      there.service.approvalDecide({ sessionId: imported.session.id, approvalId: pending!.id, decision: 'approve' }),
    );
    const resumed = await expectOk(
      there.service.agentRun({ sessionId: imported.session.id, operationId: 'run-2', maxCycles: 2 }),
    );
    expect(resumed.cyclesRun).toBeGreaterThan(0);
    expect(await checkSession(there.db, imported.session.id)).toEqual([]);
  });

  it(
    'refuses a tampered, truncated, newer, foreign or oversized file with a precise message, and changes nothing',
    { timeout: 60_000 },
    async () => {
      const here = device();
      const { session } = await here.service.open({});
      await livedInSession(here.service, session.id);
      const text = new TextDecoder().decode(await exported(here.service, session.id));
      const there = device();
      await there.service.open({});
      const before = await there.service.sessionList({});
      const refusal = async (bytes: Uint8Array) => {
        const result = await there.service.sessionImport({ bytes });
        if (result.ok) throw new Error('imported');
        expect(await there.service.sessionImportCheck({ bytes })).toMatchObject({ ok: false });
        return result.problems.map(describeProblem).join('\n');
      };
      const encode = (value: string) => new TextEncoder().encode(value);

      expect(await refusal(encode(text.replace('Careful Clerk', 'Careless Clerk')))).toContain(
        'at sha256: the content does not match its SHA-256',
      );
      expect(await refusal(encode(text.slice(0, Math.floor(text.length / 2))))).toMatch(
        /^line 1, column \d+, at \$\.[\w.[\]]+: .*(the text ends|the end of the text)/,
      );
      const newer = SNAPSHOT_VERSION + 1;
      expect(await refusal(encode(text.replace(`"version":${SNAPSHOT_VERSION}`, `"version":${newer}`)))).toContain(
        `format version ${newer}, written by a newer Anima`,
      );
      expect(await refusal(encode('{"format":"anima-persona","version":1}'))).toContain(
        'not an Anima session snapshot',
      );
      expect(await refusal(gzipSync(encode(text)).subarray(0, 200))).toContain('the gzip data is damaged or cut short');
      expect(await refusal(gzipSync(Buffer.alloc(MAX_SNAPSHOT_BYTES + 1, 32)))).toContain(
        `more than the ${MAX_SNAPSHOT_BYTES / 2 ** 20} MB`,
      );
      // A hash that matches a changed content is caught by the checks that follow it.
      const document = JSON.parse(text);
      document.triples[0].subject = 999_999;
      const { createHash } = await import('node:crypto');
      const sorted = (item: unknown): unknown =>
        Array.isArray(item)
          ? item.map(sorted)
          : typeof item === 'object' && item !== null
            ? Object.fromEntries(
                Object.keys(item)
                  .sort()
                  .map((key) => [key, sorted((item as Record<string, unknown>)[key])]),
              )
            : item;
      const { sha256: _sha256, ...content } = document;
      document.sha256 = createHash('sha256')
        .update(JSON.stringify(sorted(content)))
        .digest('hex');
      expect(await refusal(encode(JSON.stringify(document)))).toContain(
        'at triples.0.subject: 999999 is not a symbol of this snapshot',
      );

      expect(await there.service.sessionList({})).toEqual(before);
    },
  );

  it('exports no file it would refuse: a field longer than the reader takes is named as the reader names it', async () => {
    const { db, service } = device();
    const { session } = await service.open({});
    const whole = JSON.parse(new TextDecoder().decode(await exported(service, session.id)));
    const document = { name: 'n'.repeat(501), text: 'A name stored before names were capped.', createdAt: 1 };
    await db.documents.add({ sessionId: session.id, ...document });
    const refused = await service.sessionExport({ sessionId: session.id, gzip: false });
    expect(refused).toMatchObject({ ok: false, reason: 'invalid', problems: [{ path: 'documents.0.name' }] });
    // A file holding such a document (format version 8: no hash to remake) is refused the same way.
    const {
      sha256: _sha256,
      artifacts: _artifacts,
      ...rest
    } = { ...whole, version: 8, documents: [{ id: 1, ...document }] };
    const content = { ...rest, notes: [] };
    const read = await service.sessionImportCheck({ bytes: new TextEncoder().encode(JSON.stringify(content)) });
    expect(read).toMatchObject({ ok: false });
    expect(refused.ok ? [] : refused.problems).toEqual(read.ok ? [] : read.problems);
  });

  it('on a full storage, refuses an import or a copy whole: nothing of it is kept', async () => {
    const here = device();
    const { session } = await here.service.open({});
    await livedInSession(here.service, session.id);
    const bytes = await exported(here.service, session.id);
    const db = new AnimaDatabase('anima', freshIndexedDb());
    const storage = fullableStorage(db);
    const there = testService({ db, idPrefix: 'there' });
    await there.service.open({});
    const before = await there.service.sessionList({});
    storage.fill(['tripleChunks']);
    expect(await there.service.sessionImport({ bytes })).toMatchObject({
      ok: false,
      reason: 'storage-full',
      problems: [{ message: expect.stringContaining('storage is full') }],
    });
    expect(await there.service.sessionDuplicate({ sessionId: before.sessions[0]!.id, name: 'Copy' })).toMatchObject({
      ok: false,
      reason: 'storage-full',
    });
    expect(await there.service.sessionList({})).toEqual(before);
    storage.free();
    await expectOk(there.service.sessionImport({ bytes }));
  });

  it('imports a session already on the device only as a copy or in its place', async () => {
    const { db, service } = device();
    const { session } = await service.open({});
    await livedInSession(service, session.id);
    const bytes = await exported(service, session.id);
    expect(await service.sessionImportCheck({ bytes })).toMatchObject({
      ok: true,
      preview: { id: session.id, exists: true, persona: 'Careful Clerk', goals: 3, fileVersion: SNAPSHOT_VERSION },
    });
    expect(await service.sessionImport({ bytes })).toMatchObject({ ok: false, reason: 'exists' });

    const copy = await expectOk(service.sessionImport({ bytes, as: 'copy', name: 'Mars, again' }));
    expect(copy.session).toMatchObject({ name: 'Mars, again', persona: 'Careful Clerk', goals: { total: 3 } });
    expect(copy.session.id).not.toBe(session.id);
    expect(await checkSession(db, copy.session.id)).toEqual([]);

    await service.goalAdd({ sessionId: session.id, description: 'A goal added after the export', criteria: 'x' });
    await expectOk(service.sessionImport({ bytes, as: 'replace' }));
    expect((await service.goalList({ sessionId: session.id })).goals).toHaveLength(3);
    expect(await checkSession(db, session.id)).toEqual([]);
  });

  it('imports an older format version (8: no hash, database ids) through its migration', async () => {
    const { service } = device();
    const { session } = await service.open({});
    await livedInSession(service, session.id);
    const current = JSON.parse(new TextDecoder().decode(await exported(service, session.id)));
    // A version 8 file: no hash, no persona, and ids as some database had them.
    const { sha256: _sha256, persona: _persona, artifacts, ...newer } = current;
    // Version 10 and older kept a goal's notes as `notes`, Markdown and all.
    const rest = {
      ...newer,
      notes: artifacts.map(({ tool: _tool, kind: _kind, ...note }: { tool: string; kind: string }) => ({
        ...note,
        findingsNoted: 1,
      })),
    };
    const shift = (row: { id: number }) => ({ ...row, id: row.id + 100 });
    const goalId = (id: number) => id + 100;
    const old = {
      ...rest,
      version: 8,
      goals: rest.goals.map(shift),
      cycles: rest.cycles.map((record: { goalId: number }) => ({
        ...record,
        goalId: goalId(record.goalId),
        shadow: undefined,
      })),
      approvals: rest.approvals.map((approval: { id: number; goalId: number }) => ({
        ...shift(approval),
        goalId: goalId(approval.goalId),
      })),
      questions: rest.questions.map((question: { id: number; goalId: number }) => ({
        ...shift(question),
        goalId: goalId(question.goalId),
      })),
      plans: rest.plans.map((plan: { id: number; goalId: number }) => ({
        ...shift(plan),
        goalId: goalId(plan.goalId),
      })),
      notes: rest.notes.map((note: { id: number; goalId: number }) => ({
        ...shift(note),
        goalId: goalId(note.goalId),
      })),
      workingMemory: rest.workingMemory.map((entry: { id: number; goalId?: number }) => ({
        ...shift(entry),
        ...(entry.goalId !== undefined ? { goalId: goalId(entry.goalId) } : {}),
      })),
      episodes: rest.episodes.map((episode: { id: number; goalId?: number }) => ({
        ...shift(episode),
        ...(episode.goalId !== undefined ? { goalId: goalId(episode.goalId) } : {}),
      })),
      reflections: [],
    };
    const there = device();
    const imported = await expectOk(
      there.service.sessionImport({ bytes: new TextEncoder().encode(JSON.stringify(old)) }),
    );
    expect(imported.session).toMatchObject({ goals: { total: 3 }, cycle: current.session.cycle });
    expect(imported.session).not.toHaveProperty('persona');
    expect(await checkSession(there.db, session.id)).toEqual([]);
    const again = JSON.parse(new TextDecoder().decode(await exported(there.service, session.id)));
    expect(again.version).toBe(SNAPSHOT_VERSION);
    expect(again.goals.map((goal: { id: number }) => goal.id)).toEqual([1, 2, 3]);
    expect(again.approvals.map((approval: { goalId: number }) => approval.goalId)).toEqual(
      current.approvals.map((approval: { goalId: number }) => approval.goalId),
    );
  });
});

describe('the sessions of a device', () => {
  it('lists each with what it holds; creates, renames, switches and duplicates them', async () => {
    const { db, service } = device();
    const { session } = await service.open({});
    await livedInSession(service, session.id);
    const [listed] = (await service.sessionList({})).sessions;
    expect(listed).toMatchObject({
      id: session.id,
      name: 'My session',
      isActive: true,
      persona: 'Careful Clerk',
      goals: { total: 3 },
      psycheVersion: expect.any(Number),
    });
    expect(listed!.cycle).toBeGreaterThan(0);
    expect(listed!.sizeBytes).toBeGreaterThan(STARTER.length / 4);

    const created = await expectOk(service.sessionCreate({ name: '  Jupiter  ' }));
    expect(created.session).toMatchObject({ name: 'Jupiter', cycle: 0, goals: { total: 0, open: 0 }, isActive: false });
    await expect(service.sessionCreate({ name: 'two\nlines' })).rejects.toThrow('a session name is one line');
    await expectOk(service.sessionRename({ sessionId: created.session.id, name: 'Jupiter and moons' }));
    await expectOk(service.sessionSwitch({ sessionId: created.session.id }));
    // The app opens the active session: the new one, with the starter graph loaded on first open.
    const reopened = await service.open({});
    expect(reopened).toMatchObject({
      session: { id: created.session.id, name: 'Jupiter and moons' },
      hasLoadedStarterGraph: true,
    });
    // A session asked to start empty opens with nothing in it, for the user's own file.
    const empty = await expectOk(service.sessionCreate({ name: 'My own graph', start: 'empty' }));
    await expectOk(service.sessionSwitch({ sessionId: empty.session.id }));
    expect(await service.open({})).toMatchObject({
      session: { id: empty.session.id },
      hasLoadedStarterGraph: false,
      stats: { triples: 0 },
    });
    await expectOk(service.sessionSwitch({ sessionId: created.session.id }));

    const copy = await expectOk(service.sessionDuplicate({ sessionId: session.id, name: 'Mars (copy)' }));
    expect(copy.session).toMatchObject({
      name: 'Mars (copy)',
      cycle: listed!.cycle,
      goals: listed!.goals,
      persona: 'Careful Clerk',
      isActive: false,
    });
    expect(await checkSession(db, copy.session.id)).toEqual([]);
    expect((await service.kgStats({ sessionId: copy.session.id })).triples).toBe(
      (await service.kgStats({ sessionId: session.id })).triples,
    );
    // The copy lives on its own: running it leaves the original where it was.
    await service.goalAdd({
      sessionId: copy.session.id,
      description: 'Learn about Venus',
      criteria: 'clouds',
      priority: 255,
    });
    await service.agentRun({ sessionId: copy.session.id, operationId: 'run-copy', maxCycles: 2 });
    expect((await service.sessionList({})).sessions.find((view) => view.id === session.id)).toMatchObject({
      cycle: listed!.cycle,
      goals: listed!.goals,
    });
    expect(await checkSession(db, copy.session.id)).toEqual([]);
  });

  it('deletes a session and every row of it; deleting the active one opens another, the last a fresh one', async () => {
    const { db, service } = device();
    const { session } = await service.open({});
    await livedInSession(service, session.id);
    const other = await expectOk(service.sessionCreate({ name: 'Other' }));
    const countRows = async (sessionId: string) =>
      (await Promise.all(sessionRows(db, sessionId).map((rows) => rows.count()))).reduce(
        (sum, count) => sum + count,
        0,
      );
    expect(await countRows(session.id)).toBeGreaterThan(10);

    expect(await expectOk(service.sessionDelete({ sessionId: session.id }))).toEqual({
      ok: true,
      activeId: other.session.id,
    });
    expect(await countRows(session.id)).toBe(0);
    expect((await service.sessionList({})).sessions.map((view) => [view.name, view.isActive])).toEqual([
      ['Other', true],
    ]);
    // The catalog is the device's: the persona the session wore stays.
    expect(await service.personaGet({ name: 'Careful Clerk' })).toMatchObject({ ok: true });

    const last = await expectOk(service.sessionDelete({ sessionId: other.session.id }));
    expect((await service.sessionList({})).sessions).toMatchObject([
      { id: last.activeId, name: 'My session', isActive: true, cycle: 0 },
    ]);
    expect(await service.sessionDelete({ sessionId: 'no-such-session' })).toMatchObject({
      ok: false,
      reason: 'not-found',
    });
  });
});

describe('the session check', () => {
  it('finds what a crash or a bug could break: counters against the log, orphans, plans of ended goals', async () => {
    const { db, service } = device();
    const { session } = await service.open({});
    await livedInSession(service, session.id);
    expect(await checkSession(db, session.id)).toEqual([]);
    const [goal] = await db.goals.where('sessionId').equals(session.id).sortBy('id');
    await db.goals.update(goal!.id!, { cyclesWorked: goal!.cyclesWorked + 5 });
    const last = await db.cycles
      .where('[sessionId+cycle]')
      .between([session.id, 0], [session.id, Number.MAX_SAFE_INTEGER])
      .last();
    await db.cycles.delete([session.id, last!.cycle]);
    await db.plans.add({
      sessionId: session.id,
      goalId: 9_999,
      attempt: 0,
      needs: [],
      strategy: 'none',
      steps: [],
      status: 'active',
      cycle: 0,
      createdAt: 0,
    });
    const problems = (await checkSession(db, session.id)).map(describeProblem).join('\n');
    expect(problems).toContain('9999 is not a goal of this snapshot');
    // Counters are checked once the references hold.
    await db.plans.where('goalId').equals(9_999).delete();
    const counters = (await checkSession(db, session.id)).map(describeProblem).join('\n');
    expect(counters).toContain(`the session says cycle ${last!.cycle}, its log ends at cycle ${last!.cycle - 1}`);
    expect(counters).toContain(`cyclesWorked: goal ${goal!.id} counts ${goal!.cyclesWorked + 5} cycles worked`);
  });
});
