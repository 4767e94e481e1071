import { afterEach, describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import { EMBEDDINGS_PER_RECALL } from '#core/memory/embedded-recall.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import {
  RECALL_ENDPOINT_KEY as KEY,
  RECALL_EPISODES as EPISODES,
  recallCycle,
  sessionWithManyEpisodes,
} from '#core/testing/deferred-recall.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** {@link sessionWithManyEpisodes}, its server closed after the test. */
async function sessionOnDevice(...args: Parameters<typeof sessionWithManyEpisodes>) {
  const session = await sessionWithManyEpisodes(...args);
  close = session.close;
  return session;
}

async function jobsSettled(service: ReturnType<typeof testService>['service'], sessionId: string) {
  for (let tries = 0; tries < 200; tries++) {
    const { jobs } = await service.jobList({ sessionId });
    if (jobs.every((job) => job.status !== 'queued' && job.status !== 'running')) return jobs;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the background jobs did not finish');
}

describe('deferred background work', () => {
  it('a goal waits for its job across a reload: the job runs again when the session reopens, and the tool takes up its result', async () => {
    const indexedDb = freshIndexedDb();
    const { db, service, sessionId, endpoint, embedded } = await sessionOnDevice(indexedDb);

    const deferring = await recallCycle(db, sessionId, endpoint);
    // The cycle's own recall embeds the goal and 31 summaries, memory_recall 32 more: the rest wait.
    const waiting = EPISODES + 1 - 2 * EMBEDDINGS_PER_RECALL;
    expect(deferring.outcome).toBe('waiting');
    expect(deferring.act).toMatch(
      new RegExp(
        `by embeddings of topics \\(${EPISODES - waiting} of ${EPISODES} episodes embedded so far\\); deferred embedding ${waiting} more episode summaries to background job #1 -> waiting$`,
      ),
    );
    expect((await service.goalList({ sessionId })).goals[0]).toMatchObject({
      status: 'waiting',
      statusReason: `waiting for background job #1: embedding ${waiting} more episode summaries`,
    });
    // The tab is closed while the job runs: it stays started, half done.
    await db.jobs.update(1, { status: 'running', attempts: 1 });

    // A new tab opens the session: the job runs again, and its goal goes on.
    const reopened = testService({ db: new AnimaDatabase('anima', indexedDb) });
    await reopened.service.open({});
    expect(await jobsSettled(reopened.service, sessionId)).toEqual([
      expect.objectContaining({ id: 1, tool: 'memory_recall', status: 'finished' }),
    ]);
    expect((await reopened.service.goalList({ sessionId })).goals[0]).toMatchObject({
      status: 'active',
      statusReason: "background job #1 finished; memory_recall takes it up in the goal's next cycle",
    });

    const resumed = await recallCycle(reopened.db, sessionId, endpoint);
    expect(resumed.decide).toMatch(
      new RegExp(
        `^memory_recall: taking up background job #1 \\(embedding ${waiting} more episode summaries\\), finished`,
      ),
    );
    expect(resumed.act).toMatch(
      new RegExp(
        `^the background job embedded ${waiting} episode summaries; recalled .*"the wolves were found" \\(1\\.00\\).* by embeddings of topics -> `,
      ),
    );
    expect(resumed.outcome).not.toBe('waiting');
    expect((await reopened.service.jobList({ sessionId })).jobs[0]!.status).toBe('taken');
    // Every text was embedded once: the cycle's, then the job's.
    expect(embedded()).toHaveLength(EPISODES + 1);
  });

  it('a job that fails lets its goal go on, and the tool says why, the key redacted', async () => {
    const { db, sessionId, endpoint } = await sessionOnDevice(freshIndexedDb(), { refuse: true });
    const deferring = await recallCycle(db, sessionId, endpoint);
    expect(deferring.outcome).toBe('waiting');
    // The job starts where the service opens the session (as after a reload).
    const reopened = testService({ db });
    await reopened.service.open({});
    const [job] = await jobsSettled(reopened.service, sessionId);
    expect(job).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('answered HTTP 401: bad key Bearer [redacted]'),
    });
    const resumed = await recallCycle(db, sessionId, endpoint);
    expect(resumed.act).toMatch(
      /^the background embedding failed \(.*HTTP 401: bad key Bearer \[redacted\]\); recalled /,
    );
    expect(JSON.stringify(await db.jobs.toArray())).not.toContain(KEY);
    expect(JSON.stringify(await db.cycles.toArray())).not.toContain(KEY);
  });
});

describe('background work in a snapshot', () => {
  it('goes with the session: a goal waiting for its job on export goes on after an import elsewhere, when the job has run there', async () => {
    const { db, service, sessionId, endpoint } = await sessionOnDevice(freshIndexedDb());
    expect((await recallCycle(db, sessionId, endpoint)).outcome).toBe('waiting');
    const exported = await service.sessionExport({ sessionId, gzip: false });
    if (!exported.ok) throw new Error(JSON.stringify(exported));
    const file = JSON.parse(new TextDecoder().decode(exported.bytes)) as { jobs: unknown[]; goals: unknown[] };
    expect(file.jobs).toEqual([
      expect.objectContaining({ id: 1, goalId: 1, tool: 'memory_recall', kind: 'embed-episodes', status: 'queued' }),
    ]);
    expect(file.goals[0]).toMatchObject({ status: 'waiting', waitingForJob: 1 });
    // The endpoint's key is the device's: the snapshot never has it.
    expect(new TextDecoder().decode(exported.bytes)).not.toContain(KEY);

    // Another device, whose first session took job id 1: the imported job and its goal are renumbered together.
    const elsewhere = testService({ db: new AnimaDatabase('anima', freshIndexedDb()) });
    const { session: first } = await elsewhere.service.open({});
    await elsewhere.db.jobs.add({ ...(await db.jobs.get(1))!, id: undefined, sessionId: first.id, status: 'taken' });
    await elsewhere.service.inferenceSet({
      settings: { provider: 'none', openAi: endpoint, limits: {}, confidenceCap: 0.7 },
    });
    const imported = await elsewhere.service.sessionImport({ bytes: exported.bytes, as: 'copy', name: 'Copied' });
    if (!imported.ok) throw new Error(JSON.stringify(imported));
    const copyId = imported.session.id;
    const [goal] = (await elsewhere.service.goalList({ sessionId: copyId })).goals;
    expect(goal).toMatchObject({
      status: 'waiting',
      statusReason: expect.stringMatching(/^waiting for background job #1:/),
    });
    expect((await elsewhere.db.goals.get(goal!.id))!.waitingForJob).toBe(2);

    // Opening the imported session runs its job, and the goal's next cycle takes up the result.
    await elsewhere.service.sessionSwitch({ sessionId: copyId });
    const reopened = testService({ db: elsewhere.db });
    await reopened.service.open({});
    expect(await jobsSettled(reopened.service, copyId)).toEqual([
      expect.objectContaining({ id: 2, tool: 'memory_recall', status: 'finished' }),
    ]);
    const resumed = await recallCycle(reopened.db, copyId, endpoint);
    expect(resumed.decide).toMatch(
      /^memory_recall: taking up background job #2 \(embedding \d+ more episode summaries\), finished/,
    );
    expect(resumed.act).toMatch(/"the wolves were found" \(1\.00\)/);

    // Exported again, the taken job keeps what it did, not the embeddings it gave the tool.
    const again = await reopened.service.sessionExport({ sessionId: copyId, gzip: false });
    if (!again.ok) throw new Error(JSON.stringify(again));
    const [taken] = (JSON.parse(new TextDecoder().decode(again.bytes)) as { jobs: Record<string, unknown>[] }).jobs;
    expect(taken).toMatchObject({
      id: 1,
      status: 'taken',
      what: expect.stringMatching(/^embedding \d+ more episode summaries$/),
    });
    expect(taken).not.toHaveProperty('result');
  });
});

describe('a run and background work', () => {
  it('waits for a deferred job when nothing else can be done, then gives the result to the tool, within one run', async () => {
    const { service, sessionId, endpoint, embedded } = await sessionOnDevice(freshIndexedDb(), { episodes: 400 });
    const cycles: CycleRecord[] = [];
    const run = await service.agentRun(
      {
        sessionId,
        operationId: 'run',
        maxCycles: 8,
        inference: { provider: 'none', openAi: endpoint, limits: {}, confidenceCap: 0.7 },
      },
      (record) => cycles.push(record),
    );
    expect(run).toMatchObject({ ok: true });
    const deferred = cycles.findIndex((record) => /to background job/.test(record.act));
    expect(cycles[deferred]).toMatchObject({
      tool: 'memory_recall',
      act: expect.stringMatching(/to background job #1 -> waiting$/),
    });
    // The run went on to the next cycle only once the job was done: the tool took it up there.
    expect(cycles[deferred + 1]).toMatchObject({
      tool: 'memory_recall',
      decide: expect.stringMatching(
        /^memory_recall: taking up background job #1 \(embedding \d+ more episode summaries\), finished/,
      ),
      act: expect.stringMatching(
        /^the background job embedded \d+ episode summaries; recalled .* by embeddings of topics -> /,
      ),
    });
    expect((await service.jobList({ sessionId })).jobs).toEqual([expect.objectContaining({ id: 1, status: 'taken' })]);
    expect(new Set(embedded()).size).toBe(embedded().length);
  });

  it('lets a goal go on whose job is not kept, saying why', async () => {
    const { db, service, sessionId } = await sessionOnDevice(freshIndexedDb());
    await db.goals.update(1, { status: 'waiting', statusReason: 'waiting for background job #9', waitingForJob: 9 });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 1 });
    expect(await db.goals.get(1)).toMatchObject({
      status: 'active',
      statusReason: expect.stringContaining('background job #9 is not kept here; the goal goes on'),
    });
    expect((await db.goals.get(1))!.waitingForJob).toBeUndefined();
  });
});
