import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AnimaDatabase } from '#core/store/database.ts';
import { loadGraph } from '#core/store/kg-repository.ts';
import { fullableStorage } from '#core/testing/full-storage.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';

const STARTER = readFileSync(new URL('../../../public/starter-graph.ttl', import.meta.url), 'utf8');

async function agentWithFullableStorage() {
  const db = new AnimaDatabase('anima', freshIndexedDb());
  const storage = fullableStorage(db);
  const { service } = testService({ db, loadStarterGraph: async () => STARTER });
  const { session } = await service.open({});
  return { db, storage, service, sessionId: session.id };
}

/** What the session has stored: its cycle counter and log, its facts (as stored, and as the service holds them), provenance, memory and goals. */
async function stored(agent: Awaited<ReturnType<typeof agentWithFullableStorage>>) {
  const { db, service, sessionId } = agent;
  const provenance = await db.provenance.where('sessionId').equals(sessionId).toArray();
  return {
    cycle: (await db.sessions.get(sessionId))!.cycle,
    cycleLog: (await service.cycleList({ sessionId })).cycles.map((record) => record.cycle),
    storedTriples: (await loadGraph(db, sessionId)).tripleCount,
    heldTriples: (await service.kgStats({ sessionId })).triples,
    provenanceCycles: [...new Set(provenance.map((record) => record.cycle))].sort((a, b) => a - b),
    provenanceCount: provenance.length,
    memoryEntries: await db.workingMemory.where('sessionId').equals(sessionId).count(),
    goals: (await service.goalList({ sessionId })).goals.map((goal) => ({
      id: goal.id,
      status: goal.status,
      cyclesWorked: goal.cyclesWorked,
      findings: goal.findingsTotal,
    })),
  };
}

describe('a run on a device whose storage fills up', () => {
  it('stops with storage-full after the last committed cycle, keeps nothing of the cycle that did not fit, and goes on from there once there is room', async () => {
    const agent = await agentWithFullableStorage();
    const { storage, service, sessionId } = agent;
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater', priority: 100 });
    await service.agentRun({ sessionId, operationId: 'first', maxCycles: 2 });
    // Worked on next: the rules derive many mammals in cycle 3, so a cycle that was kept would show.
    await service.goalAdd({
      sessionId,
      description: 'Find mammals',
      criteria: '?x is-a mammal, at least 5',
      priority: 255,
    });
    const afterTwoCycles = await stored(agent);
    expect(afterTwoCycles).toMatchObject({ cycle: 2, cycleLog: [2, 1] });

    // The cycle record is written last: by then the cycle's facts are in the graph the service holds.
    storage.fill(['cycles']);
    const reported: number[] = [];
    const run = await service.agentRun({ sessionId, operationId: 'full', maxCycles: 3 }, (record) =>
      reported.push(record.cycle),
    );
    expect(run).toMatchObject({ ok: true, stoppedBecause: 'storage-full', cyclesRun: 0, lastCycle: 2 });
    expect(reported).toEqual([]);
    // Neither storage nor the service's memory (the graph the cycle had taken its facts into) keeps any of cycle 3.
    const afterFailure = await stored(agent);
    expect(afterFailure).toEqual(afterTwoCycles);
    expect(afterFailure.provenanceCycles).not.toContain(3);
    expect(afterFailure.heldTriples).toBe(afterFailure.storedTriples);

    storage.free();
    const next = await service.agentRun({ sessionId, operationId: 'room-again', maxCycles: 1 }, (record) =>
      reported.push(record.cycle),
    );
    expect(next).toMatchObject({ ok: true, stoppedBecause: 'max-cycles', cyclesRun: 1, lastCycle: 3 });
    expect(reported).toEqual([3]);
    const afterThird = await stored(agent);
    expect(afterThird).toMatchObject({ cycle: 3, cycleLog: [3, 2, 1] });
    expect(afterThird.storedTriples).toBeGreaterThan(afterTwoCycles.storedTriples);
    expect(afterThird.heldTriples).toBe(afterThird.storedTriples);
    expect(afterThird.provenanceCycles).toContain(3);
    expect(afterThird.goals.find((goal) => goal.status === 'completed')).toMatchObject({ cyclesWorked: 1 });
  });

  it('counts only the cycles it committed when storage fills in the middle of a run', async () => {
    const agent = await agentWithFullableStorage();
    const { storage, service, sessionId } = agent;
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    const reported: number[] = [];
    const run = await service.agentRun({ sessionId, operationId: 'run', maxCycles: 5 }, (record) => {
      reported.push(record.cycle);
      if (record.cycle === 2) storage.fill();
    });
    expect(run).toMatchObject({ ok: true, stoppedBecause: 'storage-full', cyclesRun: 2, lastCycle: 2 });
    expect(reported).toEqual([1, 2]);
    expect(await stored(agent)).toMatchObject({ cycle: 2, cycleLog: [2, 1], goals: [{ cyclesWorked: 2 }] });

    storage.free();
    await service.agentRun({ sessionId, operationId: 'again', maxCycles: 2 }, (record) => reported.push(record.cycle));
    expect(reported).toEqual([1, 2, 3, 4]);
  });
});
