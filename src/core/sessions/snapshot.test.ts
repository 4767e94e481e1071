import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeProblem } from '#core/result.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { exportSnapshot } from './snapshot.ts';
import { parseSnapshot } from './snapshot-check.ts';
import { restoreSnapshot } from './snapshot-restore.ts';
import { SNAPSHOT_VERSION } from './snapshot-format.ts';
import { defaultPsyche } from '#core/records/psyche.ts';
import { addPsycheVersion, currentPsyche } from '#core/psyche/psyche-store.ts';

async function sessionWithFacts() {
  const { db, service } = testService();
  const { session } = await service.open({});
  await service.kgImport({
    sessionId: session.id,
    operationId: 'op',
    fileName: 'zoo.csv',
    data: 'Dog,is-a,Mammal\nCat,is-a,Mammal,0.7\n',
  });
  return { db, sessionId: session.id };
}

describe('session snapshots', () => {
  it('round-trips a session: export, restore elsewhere, export again gives the same JSON', async () => {
    const { db, sessionId } = await sessionWithFacts();
    const snapshot = await exportSnapshot(db, sessionId);
    const parsed = parseSnapshot(JSON.parse(JSON.stringify(snapshot)));
    if (!parsed.ok) throw new Error(parsed.error.map(describeProblem).join('\n'));
    const elsewhere = new AnimaDatabase('elsewhere', freshIndexedDb());
    await restoreSnapshot(elsewhere, parsed.value);
    expect(JSON.stringify(await exportSnapshot(elsewhere, sessionId))).toBe(JSON.stringify(snapshot));
  });

  it('refuses a snapshot whose triples name missing symbols, saying where', async () => {
    const { db, sessionId } = await sessionWithFacts();
    const snapshot = await exportSnapshot(db, sessionId);
    snapshot.triples[0]!.object = 999;
    const parsed = parseSnapshot(snapshot);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.error.map(describeProblem)).toContain('at triples.0.object: 999 is not a symbol of this snapshot');
  });

  it('refuses a snapshot of another format or with unknown fields', () => {
    expect(parseSnapshot({ format: 'something-else' }).ok).toBe(false);
    const parsed = parseSnapshot({
      format: 'anima-snapshot',
      version: 1,
      session: { id: 's', name: 'n', cycle: 0, createdAt: 0, updatedAt: 0 },
      symbols: [],
      triples: [],
      provenance: [],
      extra: true,
    });
    expect(parsed.ok).toBe(false);
  });

  it('migrates a version 1 snapshot (a graph, no agent state) to the current version', () => {
    const parsed = parseSnapshot({
      format: 'anima-snapshot',
      version: 1,
      session: { id: 's', name: 'n', cycle: 0, createdAt: 0, updatedAt: 0 },
      symbols: [],
      triples: [],
      provenance: [],
    });
    expect(parsed).toMatchObject({
      ok: true,
      value: {
        version: SNAPSHOT_VERSION,
        goals: [],
        workingMemory: [],
        cycles: [],
        episodes: [],
        psyches: [],
        approvals: [],
        questions: [],
        documents: [],
        artifacts: [],
        plans: [],
        reflections: [],
        jobs: [],
      },
    });
  });

  it('reads a version 12 snapshot, which kept no background jobs: a goal that waited for one goes on, saying why', async () => {
    const { db, service } = testService();
    const { session } = await service.open({});
    await service.goalAdd({ sessionId: session.id, description: 'Find mammals', criteria: '?x is-a mammal' });
    const current = await exportSnapshot(db, session.id);
    const { jobs: _jobs, ...rest } = structuredClone(current);
    const version12 = {
      ...rest,
      version: 12,
      goals: [
        { ...rest.goals[0]!, status: 'waiting', statusReason: 'waiting for background job #4', waitingForJob: 4 },
      ],
    };
    const parsed = parseSnapshot(JSON.parse(JSON.stringify(version12)));
    if (!parsed.ok) throw new Error(parsed.error.map(describeProblem).join('\n'));
    expect(parsed.value.version).toBe(SNAPSHOT_VERSION);
    expect(parsed.value.jobs).toEqual([]);
    expect(parsed.value.goals[0]).toMatchObject({
      status: 'active',
      statusReason: 'background job #4 was not kept by a version 12 snapshot; the goal goes on',
    });
    expect(parsed.value.goals[0]).not.toHaveProperty('waitingForJob');

    // The current version keeps its jobs: a goal waiting for one the file lacks, or a job of no goal, is refused.
    const broken = structuredClone(current);
    broken.goals[0] = { ...broken.goals[0]!, status: 'waiting', waitingForJob: 3 };
    broken.jobs.push({
      id: 1,
      goalId: 8,
      cycle: 1,
      tool: 'memory_recall',
      input: {},
      kind: 'embed-episodes',
      work: {},
      what: 'embedding 3 more episode summaries',
      status: 'queued',
      attempts: 0,
      createdAt: 0,
    });
    const refused = parseSnapshot(broken);
    expect(refused.ok ? [] : refused.error.map(describeProblem)).toEqual([
      'at goals.0.waitingForJob: 3 is not a background job of this snapshot',
      'at jobs.0.goalId: 8 is not a goal of this snapshot',
    ]);
  });

  it('names the symbols an older Anima numbered (Dog-2) by their label, parent or source', () => {
    const symbols = [
      { id: 1, label: 'Dog', kind: 'entity', createdAt: 0 },
      { id: 2, label: 'Dog-2', kind: 'entity', iri: 'http://kennel.example/Dog', createdAt: 0 },
      { id: 3, label: 'Dog-3', kind: 'entity', iri: 'http://zoo.example/Dog', createdAt: 0 },
      { id: 4, label: 'is-a', kind: 'relation', createdAt: 0 },
      { id: 5, label: 'Pet', kind: 'entity', createdAt: 0 },
      // Its own label, not a clash: kept.
      { id: 6, label: 'alpha-2', kind: 'relation', createdAt: 0 },
    ];
    const triples = [{ subject: 2, predicate: 4, object: 5, confidence: 1, createdAt: 0 }];
    const parsed = parseSnapshot({
      format: 'anima-snapshot',
      version: 1,
      session: { id: 's', name: 'n', cycle: 0, createdAt: 0, updatedAt: 0 },
      symbols,
      triples,
      provenance: [],
    });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
    expect(parsed.value.symbols.map((symbol) => symbol.label)).toEqual([
      'Dog',
      'Dog (Pet)',
      'Dog · zoo.example',
      'is-a',
      'Pet',
      'alpha-2',
    ]);
  });

  it('round-trips the agent state, and refuses goals that name missing parents or symbols', async () => {
    const { db, service } = testService();
    const { session } = await service.open({});
    await service.kgImport({
      sessionId: session.id,
      operationId: 'op',
      fileName: 'zoo.csv',
      data: 'Dog,is-a,Canine\nCanine,is-a,Mammal\n',
    });
    await service.goalAdd({
      sessionId: session.id,
      description: 'Find mammals',
      criteria: '?x is-a mammal, at least 2',
    });
    await service.agentRun({ sessionId: session.id, operationId: 'run', maxCycles: 3 });
    const snapshot = await exportSnapshot(db, session.id);
    expect(snapshot.goals).toHaveLength(1);
    expect(snapshot.cycles.length).toBeGreaterThan(0);
    expect(snapshot.plans.map((plan) => [plan.goalId, plan.status])).toEqual([[1, 'completed']]);
    // The goal ended: its working memory became its episode.
    expect([snapshot.workingMemory.length, snapshot.episodes.length]).toEqual([0, 1]);
    const elsewhere = new AnimaDatabase('elsewhere', freshIndexedDb());
    const parsed = parseSnapshot(JSON.parse(JSON.stringify(snapshot)));
    if (!parsed.ok) throw new Error(parsed.error.map(describeProblem).join('\n'));
    await restoreSnapshot(elsewhere, parsed.value);
    expect(JSON.stringify(await exportSnapshot(elsewhere, session.id))).toBe(JSON.stringify(snapshot));

    const broken = structuredClone(snapshot);
    broken.goals[0]!.parentId = 77;
    broken.goals[0]!.findings.push([1, 2, 999]);
    const refused = parseSnapshot(broken);
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.error.map(describeProblem)).toEqual([
        'at goals.0.parentId: 77 is not a goal of this snapshot',
        expect.stringMatching(/^at goals\.0\.findings\.\d+: names a symbol/),
      ]);

    // Repeated row ids, a plan of a missing goal, and a cycle naming an approval the file lacks.
    const repeated = structuredClone(snapshot);
    repeated.episodes.push(structuredClone(repeated.episodes[0]!));
    repeated.plans.push({ ...structuredClone(repeated.plans[0]!), goalId: 9 });
    repeated.cycles[0]!.shadow = { pattern: 'p', because: 'b', provenanceId: 1, approvalId: 5 };
    const refusedAgain = parseSnapshot(repeated);
    expect(refusedAgain.ok ? [] : refusedAgain.error.map(describeProblem)).toEqual([
      'at plans.1.goalId: 9 is not a goal of this snapshot',
      `at episodes.1.id: id ${repeated.episodes[0]!.id} appears twice`,
      `at plans.1.id: id ${repeated.plans[0]!.id} appears twice`,
      'at cycles.0.shadow.approvalId: 5 is not an approval of this snapshot',
    ]);
  });

  it('round-trips the questions with the digest they are bound to, and takes one stored without a digest', async () => {
    const { db, service } = testService({
      loadStarterGraph: async () => readFileSync(new URL('../../../public/starter-graph.ttl', import.meta.url), 'utf8'),
    });
    const { session } = await service.open({});
    const sessionId = session.id;
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 20 });
    const snapshot = await exportSnapshot(db, sessionId);
    expect(snapshot.questions).toMatchObject([{ status: 'pending', digest: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    const restore = async (from: typeof snapshot) => {
      const parsed = parseSnapshot(JSON.parse(JSON.stringify(from)));
      if (!parsed.ok) throw new Error(parsed.error.map(describeProblem).join('\n'));
      const elsewhere = new AnimaDatabase('elsewhere', freshIndexedDb());
      await restoreSnapshot(elsewhere, parsed.value);
      return exportSnapshot(elsewhere, sessionId);
    };
    expect(JSON.stringify(await restore(snapshot))).toBe(JSON.stringify(snapshot));
    const older = structuredClone(snapshot);
    delete older.questions[0]!.digest;
    expect((await restore(older)).questions[0]!.digest).toBeUndefined();
  });

  it('round-trips the psyche history and the approvals', async () => {
    const { db, service } = testService();
    const { session } = await service.open({});
    const sessionId = session.id;
    await service.kgImport({
      sessionId,
      operationId: 'op',
      fileName: 'zoo.csv',
      data: 'Dog,is-a,Canine\nCanine,is-a,Mammal\nDog,has-part,Tail\n',
    });
    const psyche = defaultPsyche();
    psyche.shadow.vetoPatterns = [
      {
        name: 'ask',
        triggers: ['kg_query'],
        capabilityTriggers: [],
        severity: 1,
        explanation: 'asks',
        requireApproval: true,
      },
    ];
    await db.transaction('rw', db.psyches, () =>
      addPsycheVersion(db, { sessionId, psyche, cycle: 0, reason: 'test', now: 1 }),
    );
    await service.goalAdd({ sessionId, description: 'Learn about Dog', criteria: 'whiskers' });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 5 });
    const snapshot = await exportSnapshot(db, sessionId);
    expect(snapshot.psyches.map((version) => version.version)).toEqual([1, 2]);
    expect(snapshot.approvals).toMatchObject([{ status: 'pending', tool: 'kg_query' }]);
    const elsewhere = new AnimaDatabase('elsewhere', freshIndexedDb());
    const parsed = parseSnapshot(JSON.parse(JSON.stringify(snapshot)));
    if (!parsed.ok) throw new Error(parsed.error.map(describeProblem).join('\n'));
    await restoreSnapshot(elsewhere, parsed.value);
    expect(JSON.stringify(await exportSnapshot(elsewhere, sessionId))).toBe(JSON.stringify(snapshot));
    expect((await currentPsyche(elsewhere, sessionId)).psyche.shadow.vetoPatterns[0]!.name).toBe('ask');
  });

  it("keeps a refused action's evidence (class, required and observed state, retryability) through a snapshot", async () => {
    const { db, service } = testService();
    const { session } = await service.open({});
    const sessionId = session.id;
    await service.kgImport({ sessionId, operationId: 'op', fileName: 'zoo.csv', data: 'Dog,is-a,Canine\n' });
    const psyche = defaultPsyche();
    psyche.shadow.vetoPatterns = [
      {
        name: 'no_queries',
        triggers: ['tool=kg_query'],
        capabilityTriggers: [],
        severity: 1,
        explanation: 'no lookups',
        requireApproval: false,
      },
    ];
    await db.transaction('rw', db.psyches, () =>
      addPsycheVersion(db, { sessionId, psyche, cycle: 0, reason: 'test', now: 1 }),
    );
    await service.goalAdd({ sessionId, description: 'Learn about Dog', criteria: 'whiskers' });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 3 });
    const snapshot = await exportSnapshot(db, sessionId);
    const vetoed = snapshot.cycles.find((record) => record.tool === 'kg_query');
    expect(vetoed?.rejection).toEqual({
      class: 'policy_block',
      required: 'an action the shadow allows',
      observed: 'no_queries matches tool=kg_query input={"symbol":1}: "tool=kg_query" in the action',
      retryable: false,
    });
    const elsewhere = new AnimaDatabase('elsewhere', freshIndexedDb());
    const parsed = parseSnapshot(JSON.parse(JSON.stringify(snapshot)));
    if (!parsed.ok) throw new Error(parsed.error.map(describeProblem).join('\n'));
    await restoreSnapshot(elsewhere, parsed.value);
    const restored = await exportSnapshot(elsewhere, sessionId);
    expect(restored.cycles.find((record) => record.tool === 'kg_query')?.rejection).toEqual(vetoed?.rejection);
    // A version 10 file (written before rejections were kept) still reads, its cycles without evidence.
    // (Its goals' notes were `notes` then, not yet artifacts.)
    const { artifacts: _artifacts, ...current } = snapshot;
    const older = JSON.parse(JSON.stringify({ ...current, version: 10, notes: [] }));
    for (const record of older.cycles) delete record.rejection;
    const migrated = parseSnapshot(older);
    if (!migrated.ok) throw new Error(migrated.error.map(describeProblem).join('\n'));
    expect(migrated.value.version).toBe(SNAPSHOT_VERSION);
    expect(migrated.value.cycles.every((record) => record.rejection === undefined)).toBe(true);
  });
});
