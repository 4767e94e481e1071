import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import { decideAlone } from '#core/testing/decide-alone.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { addPsycheVersion, currentPsyche } from './psyche-store.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { graphOf } from '#core/testing/graph-of.ts';
import { defaultPsyche, type Psyche, type ShadowPattern } from '#core/records/psyche.ts';

const STARTER = readFileSync(new URL('../../../public/starter-graph.ttl', import.meta.url), 'utf8');

async function agentOnStarterGraph(indexedDb = freshIndexedDb()) {
  const { db, service } = testService({
    db: new AnimaDatabase('anima', indexedDb),
    loadStarterGraph: async () => STARTER,
  });
  const { session } = await service.open({});
  return { db, service, sessionId: session.id, indexedDb };
}

const pattern = (name: string, triggers: string[], requireApproval: boolean): ShadowPattern => ({
  name,
  triggers,
  capabilityTriggers: [],
  severity: 1,
  explanation: `${name} explained`,
  requireApproval,
});

async function wear(db: AnimaDatabase, sessionId: string, psyche: Psyche) {
  await db.transaction('rw', db.psyches, () =>
    addPsycheVersion(db, { sessionId, psyche, cycle: 0, reason: 'test', now: 1 }),
  );
}

function withVeto(veto: ShadowPattern): Psyche {
  const psyche = defaultPsyche();
  psyche.shadow.vetoPatterns = [veto];
  return psyche;
}

async function run(
  service: Awaited<ReturnType<typeof agentOnStarterGraph>>['service'],
  sessionId: string,
  maxCycles: number,
) {
  const cycles: CycleRecord[] = [];
  const outcome = await service.agentRun({ sessionId, operationId: 'run', maxCycles }, (record) => cycles.push(record));
  return { outcome, cycles };
}

describe('the shadow in the loop', () => {
  it('vetoes an action before it runs, records why, counts the encounter, and the next cycle chooses differently', async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    await wear(db, sessionId, withVeto(pattern('no_queries', ['tool=kg_query'], false)));
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    const { cycles } = await run(service, sessionId, 3);
    expect(cycles.map((record) => [record.tool, record.outcome])).toEqual([
      ['infer_rules', 'advanced'],
      ['kg_query', 'failed'],
      // The plan's next step.
      ['gap_analysis', 'no-change'],
    ]);
    expect(cycles[1]!.act).toBe('vetoed by no_queries ("tool=kg_query" in the action): no_queries explained -> failed');
    expect(cycles[1]!.shadow).toMatchObject({ pattern: 'no_queries', because: '"tool=kg_query" in the action' });
    expect(cycles[2]!.candidates.find((candidate) => candidate.tool === 'kg_query')).toEqual({
      tool: 'kg_query',
      skippedBecause: 'this very action was vetoed for this goal (no_queries)',
    });
    const veto = await db.provenance.get(cycles[1]!.shadow!.provenanceId);
    expect(veto).toMatchObject({
      kind: 'shadow-veto',
      cycle: 2,
      sources: expect.arrayContaining(['pattern:no_queries', 'tool:kg_query']),
    });
    expect((await currentPsyche(db, sessionId)).psyche.selfIntegration.shadowEncounters).toBe(1);
  });

  it('holds an action for approval, which survives a restart and runs exactly once when approved', async () => {
    const first = await agentOnStarterGraph();
    await wear(first.db, first.sessionId, withVeto(pattern('ask_before_queries', ['kg_query'], true)));
    await first.service.goalAdd({
      sessionId: first.sessionId,
      description: 'Learn about Mars',
      criteria: 'volcano crater',
    });
    const asked = await run(first.service, first.sessionId, 5);
    // The goal waits: with nothing else active, the run stops.
    expect(asked.outcome).toMatchObject({ ok: true, cyclesRun: 2, stoppedBecause: 'no-active-goal' });
    expect(asked.cycles[1]).toMatchObject({
      tool: 'kg_query',
      outcome: 'waiting',
      act: 'held for approval #1 by ask_before_queries ("kg_query" in the action) -> waiting',
    });
    first.db.close();

    const { db, service, sessionId } = await agentOnStarterGraph(first.indexedDb);
    const listed = await service.approvalList({ sessionId });
    expect(listed.pendingCount).toBe(1);
    expect(listed.approvals[0]).toMatchObject({
      id: 1,
      tool: 'kg_query',
      status: 'pending',
      pattern: 'ask_before_queries',
      goalDescription: 'Learn about Mars',
      action: expect.stringMatching(/^tool=kg_query input=\{/),
    });
    expect((await service.goalList({ sessionId })).goals[0]).toMatchObject({
      status: 'waiting',
      statusReason: expect.stringContaining('approval #1'),
    });
    expect(await service.goalUpdate({ sessionId, goalId: 1, status: 'active' })).toMatchObject({
      ok: false,
      problems: [{ message: expect.stringContaining('Approvals screen') }],
    });

    expect(await service.approvalDecide({ sessionId, approvalId: 1, decision: 'approve' })).toMatchObject({
      ok: true,
      approval: { status: 'approved' },
    });
    expect(await service.approvalDecide({ sessionId, approvalId: 1, decision: 'deny' })).toMatchObject({
      ok: false,
      problems: [{ message: 'approval 1 was already decided (approved)' }],
    });
    const carried = await run(service, sessionId, 2);
    expect(carried.cycles[0]).toMatchObject({
      tool: 'kg_query',
      input: asked.cycles[1]!.input,
      decide: expect.stringMatching(/^kg_query: carrying out approved action #1/),
    });
    expect(carried.cycles[0]!.outcome).not.toBe('waiting');
    // Approved once, run once: the next cycle chooses anew, and the shadow asks again for a new query.
    expect(carried.cycles.filter((record) => record.decide.includes('carrying out approved action #1'))).toHaveLength(
      1,
    );
    expect(carried.cycles).toHaveLength(2);
    expect((await service.approvalList({ sessionId })).approvals[0]).toMatchObject({
      id: 1,
      status: 'done',
      doneInCycle: 3,
    });
    expect(await db.provenance.where('kind').equals('approval-decision').count()).toBe(1);
  });

  it('goes on without a denied action, and never proposes it again for that goal', async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    await wear(db, sessionId, withVeto(pattern('ask_before_queries', ['kg_query'], true)));
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    await run(service, sessionId, 2);
    expect(
      await service.approvalDecide({ sessionId, approvalId: 1, decision: 'deny', reason: '  not now  ' }),
    ).toMatchObject({ ok: true, approval: { status: 'denied', reason: 'not now' } });
    expect((await service.goalList({ sessionId })).goals[0]).toMatchObject({
      status: 'active',
      statusReason: 'you denied kg_query (approval #1): not now; the goal goes on without it',
    });
    const { cycles } = await run(service, sessionId, 1);
    expect(cycles[0]!.tool).not.toBe('kg_query');
    expect(cycles[0]!.candidates.find((candidate) => candidate.tool === 'kg_query')?.skippedBecause).toBe(
      'you denied this very action for this goal',
    );
  });

  it('runs an approved action with the input the user edited, after checking it against the tool and the hard vetoes', async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    const idOf = async (label: string) =>
      (await service.kgSearch({ sessionId, text: label })).hits.find((hit) => hit.symbol.label === label)!.symbol.id;
    const [earth, jupiter] = [await idOf('Earth'), await idOf('Jupiter')];
    const psyche = withVeto(pattern('ask_before_queries', ['kg_query'], true));
    psyche.shadow.vetoPatterns.push(pattern('never_earth', [`"symbol":${earth}}`], false));
    await wear(db, sessionId, psyche);
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    await run(service, sessionId, 2);
    const [asked] = (await service.approvalList({ sessionId })).approvals;
    expect(asked).toMatchObject({ tool: 'kg_query', isEdited: false, input: { symbol: expect.any(Number) } });

    expect(
      await service.approvalDecide({ sessionId, approvalId: 1, decision: 'approve', input: { symbol: 'Jupiter' } }),
    ).toMatchObject({
      ok: false,
      problems: [{ path: 'input.symbol', message: expect.stringMatching(/^kg_query would refuse it: /) }],
    });
    expect(
      await service.approvalDecide({ sessionId, approvalId: 1, decision: 'approve', input: { symbol: earth } }),
    ).toMatchObject({
      ok: false,
      problems: [
        { path: 'input', message: expect.stringMatching(/^the veto pattern never_earth forbids the edited action/) },
      ],
    });
    expect((await service.approvalList({ sessionId })).approvals[0]).toMatchObject({ status: 'pending' });

    const edited = { symbol: jupiter };
    expect(
      await service.approvalDecide({ sessionId, approvalId: 1, decision: 'approve', input: edited }),
    ).toMatchObject({
      ok: true,
      approval: {
        status: 'approved',
        isEdited: true,
        input: edited,
        action: `tool=kg_query input={"symbol":${jupiter}}`,
      },
    });
    const carried = await run(service, sessionId, 1);
    expect(carried.cycles[0]).toMatchObject({
      tool: 'kg_query',
      input: edited,
      decide: expect.stringMatching(/^kg_query: carrying out approved action #1/),
    });
    expect((await service.approvalList({ sessionId })).approvals[0]).toMatchObject({ status: 'done', isEdited: true });
    const decision = await db.provenance.where('kind').equals('approval-decision').first();
    expect(decision?.detail).toBe(
      `approved tool=kg_query input={"symbol":${jupiter}}, edited from tool=kg_query input=${JSON.stringify(asked!.input)}`,
    );
  });

  it('lets a vetoed action back in once the psyche no longer forbids it', async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    await wear(db, sessionId, withVeto(pattern('no_queries', ['tool=kg_query'], false)));
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    await run(service, sessionId, 2);
    await wear(db, sessionId, defaultPsyche());
    const { cycles } = await run(service, sessionId, 1);
    // A candidate again, scored like any other (just used, so its recency counts against it).
    expect(cycles[0]!.candidates.find((candidate) => candidate.tool === 'kg_query')).toMatchObject({
      score: expect.any(Number),
      breakdown: expect.stringContaining('recency=-0.40'),
    });
  });

  it('refuses to carry out an approval bound to another definition of the tool', async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    await wear(db, sessionId, withVeto(pattern('ask_before_queries', ['kg_query'], true)));
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    await run(service, sessionId, 2);
    await service.approvalDecide({ sessionId, approvalId: 1, decision: 'approve' });
    // As if kg_query had changed between the approval and the run.
    await db.approvals.update(1, { digest: 'a digest of an older kg_query' });
    const { cycles } = await run(service, sessionId, 1);
    expect(cycles[0]).toMatchObject({
      outcome: 'waiting',
      act: 'held for approval #2 by ask_before_queries ("kg_query" in the action) -> waiting',
    });
    expect((await service.approvalList({ sessionId })).approvals.find((approval) => approval.id === 1)).toMatchObject({
      status: 'invalidated',
      reason: 'kg_query changed since it was approved; the agent asks again if it still needs it',
    });
  });

  it('cancelling a waiting goal withdraws its questions', async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    await wear(db, sessionId, withVeto(pattern('ask_before_queries', ['kg_query'], true)));
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    await run(service, sessionId, 2);
    expect(await service.goalUpdate({ sessionId, goalId: 1, status: 'failed' })).toMatchObject({ ok: true });
    expect(await service.approvalList({ sessionId })).toMatchObject({
      pendingCount: 0,
      approvals: [{ status: 'invalidated', reason: 'its goal was cancelled' }],
    });
    expect(await service.approvalDecide({ sessionId, approvalId: 1, decision: 'approve' })).toMatchObject({
      ok: false,
    });
  });
});

describe('evolution at reflection', () => {
  it("grows individuation from the cycle's shadow encounters at cycle 5, as a new psyche version with provenance", async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    await wear(db, sessionId, withVeto(pattern('no_queries', ['tool=kg_query'], false)));
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    await run(service, sessionId, 5);
    const current = await currentPsyche(db, sessionId);
    expect(current.version).toBe(3);
    expect(current.reason).toMatch(/^evolution at cycle 5: .*individuation 0\.10 -> 0\.11 \(1 shadow encounter\)$/);
    expect(current.psyche.selfIntegration).toMatchObject({
      individuationLevel: 0.11,
      lastEvolutionCycle: 5,
      encountersAtLastEvolution: 1,
    });
    expect(await db.provenance.where('kind').equals('psyche-change').count()).toBe(1);
  });
});

describe('a reflection that changes nothing', () => {
  it('still closes its window, so the next one reads only the cycles since', async () => {
    const { db, service, sessionId } = await agentOnStarterGraph();
    // Five different tools, each used once: no rate to judge, no encounter, nothing evolves.
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    await run(service, sessionId, 5);
    const current = await currentPsyche(db, sessionId);
    expect(current).toMatchObject({
      version: 1,
      reason: 'the default psyche',
      psyche: { selfIntegration: { lastEvolutionCycle: 5 } },
    });
  });
});

describe('archetypes steer the choice', () => {
  it('an explorer-heavy and a sage-heavy psyche choose different tools on the same graph and goal, and the breakdown says why', () => {
    const graph = graphOf([
      ['Mars', 'is-a', 'Planet'],
      ['Mars', 'orbits', 'Sun'],
      ['Venus', 'is-a', 'Planet'],
      ['Venus', 'orbits', 'Sun'],
    ]);
    // Three cycles without progress after the rules, a query and a similarity search: what next is a matter of character.
    const goal = {
      id: 1,
      sessionId: 's',
      description: 'Learn about Mars',
      successCriteria: 'volcano crater',
      priority: 128,
      status: 'active' as const,
      cyclesWorked: 3,
      lastProgressCycle: 0,
      stallThreshold: 5,
      findings: [],
      toolsUsed: ['similarity_search', 'kg_query', 'infer_rules'],
      inferredAtTripleCount: 4,
      createdAt: 0,
    };
    const choose = (archetypes: Psyche['archetypes']) => {
      const psyche = { ...defaultPsyche(), archetypes };
      return decideAlone(graph, goal, { cycle: 4, psyche }).record;
    };
    const breakdownOf = (record: ReturnType<typeof choose>, tool: string) =>
      record.candidates.find((candidate) => candidate.tool === tool)!.breakdown!;
    const sage = choose({ sage: 0.95, healer: 0.5, explorer: 0.1, guardian: 0.4 });
    // The seed's "more exploratory" weights.
    const explorer = choose({ healer: 0.3, sage: 0.4, guardian: 0.3, explorer: 0.9 });
    expect(sage.tool).toBe('kg_query');
    expect(explorer.tool).toBe('gap_analysis');
    // The same base scores; the archetype part makes the difference.
    expect(breakdownOf(sage, 'kg_query')).toBe(
      '[score=0.50: base=0.80 recency=-0.20 novelty=+0.00 episodic=+0.00 pressure=+0.00 archetype=+0.067 bias=-0.00 plan=+0.00]',
    );
    expect(breakdownOf(explorer, 'kg_query')).toBe(
      '[score=0.44: base=0.80 recency=-0.20 novelty=+0.00 episodic=+0.00 pressure=+0.00 archetype=-0.015 bias=-0.00 plan=+0.00]',
    );
    expect(breakdownOf(sage, 'gap_analysis')).toMatch(/archetype=\+0\.000 /);
    expect(breakdownOf(explorer, 'gap_analysis')).toMatch(/archetype=-0\.030 /);
  });
});
