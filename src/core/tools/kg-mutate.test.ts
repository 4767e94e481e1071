import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import { requestedChangesOf } from '#core/kg/requested-change.ts';
import { RDFS_SUBCLASS_OF } from '#core/kg/standard-terms.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { loadGraph } from '#core/store/kg-repository.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';

const STARTER = readFileSync(new URL('../../../public/starter-graph.ttl', import.meta.url), 'utf8');

async function agentOnStarterGraph() {
  const { db, service } = testService({
    db: new AnimaDatabase('anima', freshIndexedDb()),
    loadStarterGraph: async () => STARTER,
  });
  const { session } = await service.open({});
  const run = async (maxCycles: number) => {
    const cycles: CycleRecord[] = [];
    const outcome = await service.agentRun({ sessionId: session.id, operationId: 'run', maxCycles }, (record) =>
      cycles.push(record),
    );
    return { outcome, cycles };
  };
  return { db, service, sessionId: session.id, run };
}

const RETRACT_WHALE =
  'tool=kg_mutate input={"changes":[{"op":"retract","subject":"Whale","predicate":"is-a","object":"Cetacean"}]}';

describe('changes a goal asks for', () => {
  it('reads the facts to assert or retract from the goal, and nothing from other goals', () => {
    expect(requestedChangesOf('Remember that penguins are birds')).toEqual([
      { op: 'assert', subject: 'Penguin', predicate: 'is-a', object: 'Bird' },
    ]);
    expect(requestedChangesOf('Please forget that Pluto is a planet. Pluto has a moon')).toEqual([
      { op: 'retract', subject: 'Pluto', predicate: 'is-a', object: 'Planet' },
      { op: 'retract', subject: 'Pluto', predicate: 'has', object: 'Moon' },
    ]);
    expect(requestedChangesOf('Find mammals')).toBeUndefined();
    expect(requestedChangesOf('Note that cats are cute')).toBeUndefined();
    expect(requestedChangesOf('Learn about Mars')).toBeUndefined();
  });
});

describe('kg_mutate in the loop', () => {
  it('asserts what a goal asks at once, with provenance, as a finding, and the graph keeps it across a reload', async () => {
    const { db, service, sessionId, run } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Remember that Tux is a penguin', criteria: '' });
    const { cycles } = await run(3);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatchObject({
      tool: 'kg_mutate',
      input: { changes: [{ op: 'assert', subject: 'Tux', predicate: 'is-a', object: 'Penguin' }] },
      act: 'asserted Tux is-a Penguin -> completed (completed: the graph is as asked: assert Tux is-a Penguin)',
      outcome: 'completed',
    });
    expect(cycles[0]!.candidates.find((candidate) => candidate.tool === 'kg_mutate')).toMatchObject({
      breakdown:
        '[score=1.05: base=1.00 recency=-0.00 novelty=+0.15 episodic=+0.00 pressure=+0.00 archetype=+0.000 bias=-0.00 plan=+0.25]',
    });

    const graph = await loadGraph(db, sessionId);
    const tux = graph.symbolByLabel('Tux')!;
    const penguin = graph.symbolByLabel('Penguin')!;
    const isA = graph.symbolByLabel('is-a')!;
    const held = graph.triple(tux.id, isA.id, penguin.id)!;
    expect(held.confidence).toBe(1);
    expect(await db.provenance.get(held.provenanceId!)).toMatchObject({
      kind: 'assertion',
      sources: ['goal:1'],
      detail: 'asserted Tux is-a Penguin, as goal 1 asks ("Remember that Tux is a penguin")',
    });
    expect((await service.goalList({ sessionId })).goals[0]).toMatchObject({
      status: 'completed',
      findings: [
        { subject: { label: 'Tux' }, predicate: { label: 'is-a' }, object: { label: 'Penguin' }, confidence: 1 },
      ],
    });
    // The other tools leave such a goal alone only because it is done at once; kg_mutate sits out other goals.
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano' });
    const next = await run(1);
    expect(next.cycles[0]!.candidates.find((candidate) => candidate.tool === 'kg_mutate')).toEqual({
      tool: 'kg_mutate',
      skippedBecause: 'the goal asks for no change to the graph',
    });
  });

  it('asks before it retracts; once approved it removes the fact for good, and the findings of other goals do not bring it back', async () => {
    const { db, service, sessionId, run } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Forget that a whale is a cetacean', criteria: '' });
    const asked = await run(3);
    expect(asked.outcome).toMatchObject({ stoppedBecause: 'no-active-goal' });
    expect(asked.cycles.map((record) => [record.tool, record.outcome])).toEqual([['kg_mutate', 'waiting']]);
    const { approvals } = await service.approvalList({ sessionId });
    expect(approvals[0]).toMatchObject({
      tool: 'kg_mutate',
      status: 'pending',
      pattern: 'dangerous_change',
      action: RETRACT_WHALE,
    });

    await service.approvalDecide({ sessionId, approvalId: approvals[0]!.id, decision: 'approve' });
    const carried = await run(3);
    expect(carried.cycles).toHaveLength(1);
    expect(carried.cycles[0]).toMatchObject({
      tool: 'kg_mutate',
      act: 'retracted Whale is-a Cetacean -> completed (completed: the graph is as asked: retract Whale is-a Cetacean)',
    });

    const graph = await loadGraph(db, sessionId);
    // The starter graph says it as real files do: Whale rdfs:subClassOf Cetacean.
    const [whale, cetacean] = ['Whale', 'Cetacean'].map((label) => graph.symbolByLabel(label)!.id) as [number, number];
    const subClassOf = graph.symbolByIri(RDFS_SUBCLASS_OF)!.id;
    expect(graph.triple(whale, subClassOf, cetacean)).toBeUndefined();
    // Still a whale's other facts, and the rest of the taxonomy.
    expect(graph.match(whale).length).toBeGreaterThan(0);
    const retraction = await db.provenance.where('kind').equals('retraction').toArray();
    expect(retraction).toEqual([
      expect.objectContaining({
        sources: ['goal:1'],
        // The stored fact, in the file's own term.
        detail: 'retracted Whale subClassOf Cetacean, as goal 1 asks ("Forget that a whale is a cetacean")',
      }),
    ]);
  });

  it('fails the goal with the reason when the user denies the retraction', async () => {
    const { service, sessionId, run } = await agentOnStarterGraph();
    await service.goalAdd({ sessionId, description: 'Forget that a whale is a cetacean', criteria: '' });
    await run(1);
    await service.approvalDecide({ sessionId, approvalId: 1, decision: 'deny', reason: 'whales are cetaceans' });
    const after = await run(5);
    expect(after.cycles).toHaveLength(1);
    expect(after.cycles[0]!.candidates.find((candidate) => candidate.tool === 'kg_mutate')).toMatchObject({
      skippedBecause: expect.stringContaining('denied'),
    });
    expect(after.cycles[0]).toMatchObject({
      outcome: 'failed',
      statusChange: 'failed: you denied retract Whale is-a Cetacean, and no other tool can make the change',
    });
    expect((await service.goalList({ sessionId })).goals[0]).toMatchObject({ status: 'failed' });
  });
});
