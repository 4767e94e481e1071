import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultPsyche, type ShadowPattern } from '#core/records/psyche.ts';
import { addPsycheVersion } from '#core/psyche/psyche-store.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { runCycles as cycles } from '#core/testing/run-cycles.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { TOOLS } from '#core/tools/registry.ts';
import type { AgentTool } from '#core/tools/tool.ts';

const FACTS = 'Mars,is-a,Planet\nMars,orbits,Sun\nPlanet,is-a,CelestialBody\nSun,is-a,Star\n';

async function sessionWithGoal(criteria = 'volcano crater', indexedDb = freshIndexedDb()) {
  const { db, service } = testService({ db: new AnimaDatabase('anima', indexedDb) });
  const { session } = await service.open({});
  const sessionId = session.id;
  await service.kgImport({ sessionId, operationId: 'op', fileName: 'mars.csv', data: FACTS });
  await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria });
  return { db, service, sessionId, indexedDb };
}

/** The tools with one of them failing every time it runs: the failure a plan must back out of. */
function withFailing(name: string): AgentTool[] {
  return TOOLS.map((tool) =>
    tool.name === name
      ? { ...tool, run: async () => ({ ok: false, summary: 'injected failure', facts: [], symbols: [] }) }
      : tool,
  );
}

describe('plans that steer', () => {
  it('backs out of a failed step with a new plan in another order, and abandons the goal, with the reason, when its third plan fails', async () => {
    const { db, sessionId } = await sessionWithGoal();
    const records = await cycles(db, sessionId, 5, withFailing('infer_rules'));
    // Cycle 2: the new plan starts with the rules, but they just ran (recency -0.40): kg_query outscores them, out of the plan.
    expect(records.map((record) => [record.tool, record.outcome])).toEqual([
      ['infer_rules', 'failed'],
      ['kg_query', 'advanced'],
      ['infer_rules', 'failed'],
      ['infer_rules', 'failed'],
    ]);
    const plans = await db.plans.where('goalId').equals(1).sortBy('id');
    expect(plans.map((plan) => [plan.attempt, plan.status, plan.statusReason])).toEqual([
      [0, 'failed', 'step 2 (infer_rules) failed: injected failure'],
      [1, 'failed', 'step 1 (infer_rules) failed: injected failure'],
      [2, 'failed', 'step 2 (infer_rules) failed: injected failure'],
    ]);
    // Explore first, then reason first: the backtracked plan is a different one.
    expect(plans[0]!.strategy).toBe(
      'explore first (attempt 0); needs knowledge: kg_query -> infer_rules -> gap_analysis',
    );
    expect(plans[1]!.strategy).toBe(
      'reason first (attempt 1); needs knowledge: infer_rules -> gap_analysis -> kg_query',
    );
    expect(plans[0]!.steps.map((step) => [step.tool, step.status])).toEqual([
      ['kg_query', 'completed'],
      ['infer_rules', 'failed'],
      ['gap_analysis', 'pending'],
    ]);
    const goal = (await db.goals.get(1))!;
    expect(goal).toMatchObject({
      status: 'abandoned',
      plansMade: 3,
      plansFailed: 3,
      statusReason: '3 of its plans failed (the limit is 3); the last: step 2 (infer_rules) failed: injected failure',
    });
    expect(records[3]!.statusChange).toBe(`abandoned: ${goal.statusReason}`);
    expect(records[1]!.observe).toContain('new plan: reason first (attempt 1)');
  });

  it('goes on with its plan after a reload, step by step, and the limit of failed plans is a setting', async () => {
    const first = await sessionWithGoal();
    await first.db.sessions.update(first.sessionId, {
      agentSettings: { planning: true, reflectionInterval: 5, maxFailedPlans: 1 },
    });
    await cycles(first.db, first.sessionId, 1);
    first.db.close();
    const db = new AnimaDatabase('anima', first.indexedDb);
    const { sessionId } = first;
    const [second, third] = await cycles(db, sessionId, 2);
    expect(second!.observe).toContain('plan 1 attempt 0: step 3 of 3, gap_analysis');
    expect(second!.candidates.find((candidate) => candidate.tool === 'gap_analysis')!.breakdown).toMatch(
      /plan=\+0\.25\]$/,
    );
    // The plan weighs in, the score decides: kg_query (0.80 + novelty 0.15) beats gap_analysis (0.25 + 0.15 + 0.25), which comes next.
    expect([second!.tool, third!.tool]).toEqual(['kg_query', 'gap_analysis']);
    const [plan] = await db.plans.toArray();
    expect(plan!.steps.map((step) => [step.tool, step.status, step.cycle])).toEqual([
      ['kg_query', 'completed', undefined],
      ['infer_rules', 'completed', 1],
      ['gap_analysis', 'completed', 3],
    ]);
    // One failed plan is now the limit.
    const failing = await cycles(db, sessionId, 3, withFailing('gap_analysis'));
    expect(failing.at(-1)).toMatchObject({
      outcome: 'failed',
      statusChange: expect.stringContaining('1 of its plans failed (the limit is 1)'),
    });
  });

  it('skips a vetoed step, and plans nothing when planning is off', async () => {
    const { db, sessionId } = await sessionWithGoal();
    const psyche = defaultPsyche();
    const veto: ShadowPattern = {
      name: 'no_rules',
      triggers: ['infer_rules'],
      capabilityTriggers: [],
      severity: 0.9,
      explanation: 'no rules here',
      requireApproval: false,
    };
    psyche.shadow.vetoPatterns = [veto];
    await db.transaction('rw', db.psyches, () =>
      addPsycheVersion(db, { sessionId, psyche, cycle: 0, reason: 'test', now: 1 }),
    );
    const [vetoed, next] = await cycles(db, sessionId, 2);
    expect(vetoed).toMatchObject({ tool: 'infer_rules', shadow: { pattern: 'no_rules' } });
    // The plan moved on to its next step.
    expect(next!.observe).toContain('plan 1 attempt 0: step 3 of 3, gap_analysis');
    expect(next!.candidates.find((candidate) => candidate.tool === 'infer_rules')).toEqual({
      tool: 'infer_rules',
      skippedBecause: 'this very action was vetoed for this goal (no_rules)',
    });
    const [plan] = await db.plans.toArray();
    expect(plan!.steps[1]).toMatchObject({
      tool: 'infer_rules',
      status: 'skipped',
      result: 'vetoed by no_rules ("infer_rules" in the action)',
      cycle: 1,
    });

    const off = await sessionWithGoal();
    await off.db.sessions.update(off.sessionId, {
      agentSettings: { planning: false, reflectionInterval: 5, maxFailedPlans: 3 },
    });
    const [plain] = await cycles(off.db, off.sessionId, 1);
    expect(plain!.decide).toMatch(/plan=\+0\.00\]$/);
    expect(plain!.observe).not.toContain('plan');
    expect(await off.db.plans.count()).toBe(0);
  });
});

describe('plans of goals that end', () => {
  it('end when the user cancels the goal, or when it completes while planning is off', async () => {
    const { db, service, sessionId } = await sessionWithGoal();
    await cycles(db, sessionId, 1);
    await service.goalUpdate({ sessionId, goalId: 1, status: 'failed' });
    expect(
      (await service.planList({ sessionId, goalId: 1 })).plans.map((plan) => [plan.status, plan.statusReason]),
    ).toEqual([['superseded', 'its goal was cancelled by the user']]);

    const other = await sessionWithGoal('?x is-a CelestialBody, at least 2');
    // Neither the rules nor a proof (which keeps what it proves) in the first cycle: the goal is not met yet.
    await cycles(
      other.db,
      other.sessionId,
      1,
      TOOLS.filter((tool) => tool.name !== 'infer_rules' && tool.name !== 'reason'),
    );
    expect((await other.service.planList({ sessionId: other.sessionId })).plans.map((plan) => plan.status)).toEqual([
      'active',
    ]);
    await other.service.agentSettingsSet({
      sessionId: other.sessionId,
      settings: { planning: false, reflectionInterval: 5, maxFailedPlans: 3 },
    });
    const [last] = await cycles(other.db, other.sessionId, 1);
    expect(last!.outcome).toBe('completed');
    expect(
      (await other.service.planList({ sessionId: other.sessionId })).plans.map((plan) => [
        plan.status,
        plan.statusReason,
      ]),
    ).toEqual([['superseded', 'its goal completed']]);
  });
});

describe('planning on the starter graph', () => {
  const STARTER = readFileSync(new URL('../../../public/starter-graph.ttl', import.meta.url), 'utf8');

  async function cyclesFor(planning: boolean): Promise<string[]> {
    const { service } = testService({
      db: new AnimaDatabase('anima', freshIndexedDb()),
      loadStarterGraph: async () => STARTER,
    });
    const { session } = await service.open({});
    const sessionId = session.id;
    await service.agentSettingsSet({ sessionId, settings: { planning, reflectionInterval: 5, maxFailedPlans: 3 } });
    await service.documentImport({ sessionId, fileName: 'tux.txt', text: 'Tux is a penguin.' });
    await service.goalAdd({ sessionId, description: 'Find what Tux is', criteria: 'Tux is-a ?x, at least 4' });
    const records: string[] = [];
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 10 }, (record) =>
      records.push(`${record.tool} ${record.outcome}`),
    );
    return records;
  }

  it('reaches a fact only the rules give (Tux is-a Animal, once a document says Tux is a penguin) in fewer cycles than without a plan', async () => {
    // The plan did the lookup while planning (nothing about Tux yet), so it reads the document, then runs the rules.
    expect(await cyclesFor(true)).toEqual(['text_ingest advanced', 'infer_rules completed']);
    // The score alone looks the pattern up first, and finds nothing.
    expect(await cyclesFor(false)).toEqual(['kg_query no-change', 'text_ingest advanced', 'infer_rules completed']);
  });
});
