import { describe, expect, it } from 'vitest';
import { AnimaDatabase } from '#core/store/database.ts';
import { currentPsyche } from '#core/psyche/psyche-store.ts';
import { runAnswering } from '#core/testing/answering-run.ts';
import { runCycles as cycles } from '#core/testing/run-cycles.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { type AgentTool, domainTriplesAround, factIdsOf } from '#core/tools/tool.ts';

/** Mars with 40 features: enough for a goal that finds one new fact a cycle for longer than any stall bound. */
const FACTS = Array.from({ length: 40 }, (_, index) => `Mars,has,Feature${index + 1}\n`).join('');

const kgQuery = TOOLS.find((tool) => tool.name === 'kg_query')!;

/** A lookup that runs and finds nothing, every time: the goal can never progress. */
const findsNothing: AgentTool = {
  ...kgQuery,
  run: async () => ({ ok: true, summary: 'nothing new', facts: [], symbols: [] }),
};

/** A lookup that finds one fact about the goal it has not found yet, every cycle: the goal advances without ever being met. */
const findsOneMore: AgentTool = {
  ...kgQuery,
  run: async (_input, state) => {
    const found = new Set(state.goal.findings.map((fact) => fact.join(' ')));
    const next = domainTriplesAround(state.graph, state.goalSymbols, 1000)
      .map(factIdsOf)
      .find((fact) => !found.has(fact.join(' ')));
    return { ok: true, summary: next ? 'one more fact' : 'nothing new', facts: next ? [next] : [], symbols: [] };
  },
};

/** A session with the Mars facts and one goal whose criteria no fact holds; planning off, so only the stall bound ends it. */
async function sessionWithGoal(criteria: string) {
  const { db, service } = testService({ db: new AnimaDatabase('anima', freshIndexedDb()) });
  const { session } = await service.open({});
  const sessionId = session.id;
  await service.kgImport({ sessionId, operationId: 'op', fileName: 'mars.csv', data: FACTS });
  await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria });
  await db.sessions.update(sessionId, { agentSettings: { planning: false, reflectionInterval: 5, maxFailedPlans: 3 } });
  return { db, service, sessionId };
}

describe('a goal that cannot progress', () => {
  it('is abandoned after 3 times its stall threshold of cycles, with the reason, a provenance record and a shadow encounter', async () => {
    const { db, sessionId } = await sessionWithGoal('volcano crater');
    const encountersBefore = (await currentPsyche(db, sessionId)).psyche.selfIntegration.shadowEncounters;
    const records = await cycles(db, sessionId, 100, [findsNothing]);
    // Its stall threshold is 5: the 15th cycle without progress is its last, and then no goal is left to run.
    expect(records).toHaveLength(15);
    const reason =
      'no progress in 15 of its cycles (3 times its stall threshold of 5): demoted and re-planned, it still found nothing new';
    expect(records.at(-1)).toMatchObject({ outcome: 'failed', statusChange: `abandoned: ${reason}` });
    expect(await db.goals.get(1)).toMatchObject({ status: 'abandoned', statusReason: reason, cyclesWorked: 15 });
    const abandonment = await db.provenance.where('kind').equals('abandonment').toArray();
    expect(abandonment.map((record) => [record.sources, record.cycle, record.detail])).toEqual([
      [['goal:1'], 15, `abandoned "Learn about Mars": ${reason}`],
    ]);
    const { selfIntegration } = (await currentPsyche(db, sessionId)).psyche;
    expect(selfIntegration.shadowEncounters).toBe(encountersBefore + 1);
    // The reflection of cycle 15 evolved the psyche on that encounter: individuation grew from 0.1.
    expect(selfIntegration.individuationLevel).toBe(0.11);
  });

  it('that was split is abandoned with its sub-goals, each with its own encounter, once they are all abandoned', async () => {
    const { db, sessionId } = await sessionWithGoal('volcano, crater');
    const records = await cycles(db, sessionId, 100, [findsNothing]);
    // 5 cycles until the split, then 15 for each sub-goal.
    expect(records).toHaveLength(35);
    const goals = await db.goals.where('sessionId').equals(sessionId).sortBy('id');
    expect(goals.map((goal) => [goal.successCriteria, goal.status])).toEqual([
      ['volcano, crater', 'abandoned'],
      ['volcano', 'abandoned'],
      ['crater', 'abandoned'],
    ]);
    expect(goals[0]!.statusReason).toBe(
      `its sub-goals did not all complete: #2 abandoned (${goals[1]!.statusReason}); #3 abandoned (${goals[2]!.statusReason})`,
    );
    expect(await db.provenance.where('kind').equals('abandonment').count()).toBe(3);
    expect((await currentPsyche(db, sessionId)).psyche.selfIntegration.shadowEncounters).toBe(3);
  });

  it('that was split is abandoned once you cancel the sub-goals it waits for', async () => {
    const { db, service, sessionId } = await sessionWithGoal('volcano, crater');
    await cycles(db, sessionId, 5, [findsNothing]);
    expect((await db.goals.get(1))!.status).toBe('suspended');
    await service.goalUpdate({ sessionId, goalId: 2, status: 'failed' });
    // One sub-goal is still open: the parent waits for it.
    expect((await db.goals.get(1))!.status).toBe('suspended');
    await service.goalUpdate({ sessionId, goalId: 3, status: 'failed' });
    expect(await db.goals.get(1)).toMatchObject({
      status: 'abandoned',
      statusReason:
        'its sub-goals did not all complete: #2 failed (cancelled by the user); #3 failed (cancelled by the user)',
    });
    expect((await currentPsyche(db, sessionId)).psyche.selfIntegration.shadowEncounters).toBe(1);
    // What the parent tried in its 5 cycles left working memory for an episode once it ended.
    expect(await db.workingMemory.count()).toBe(0);
    expect(await db.episodes.toArray()).toMatchObject([
      { goalId: 1, summary: expect.stringMatching(/^goal 1, cycles 1-5: tried /) },
    ]);
    expect(await service.agentRun({ sessionId, operationId: 'run', maxCycles: 10 })).toMatchObject({
      ok: true,
      cyclesRun: 0,
      stoppedBecause: 'no-active-goal',
    });
  });

  it('is abandoned when its plans keep failing, with a provenance record and a shadow encounter', async () => {
    const { db, sessionId } = await sessionWithGoal('volcano crater');
    await db.sessions.update(sessionId, {
      agentSettings: { planning: true, reflectionInterval: 5, maxFailedPlans: 1 },
    });
    const failing = TOOLS.map((tool) =>
      tool.name === 'infer_rules'
        ? { ...tool, run: async () => ({ ok: false, summary: 'injected failure', facts: [], symbols: [] }) }
        : tool,
    );
    await cycles(db, sessionId, 20, failing);
    const goal = (await db.goals.get(1))!;
    expect(goal).toMatchObject({
      status: 'abandoned',
      statusReason: expect.stringMatching(/^1 of its plans failed \(the limit is 1\)/),
    });
    expect(await db.provenance.where('kind').equals('abandonment').count()).toBe(1);
    expect((await currentPsyche(db, sessionId)).psyche.selfIntegration.shadowEncounters).toBe(1);
    expect(await db.plans.where('[sessionId+status]').equals([sessionId, 'active']).count()).toBe(0);
  });
});

describe('a goal that progresses', () => {
  it('is never abandoned, however long it runs without being met', async () => {
    const { db, sessionId } = await sessionWithGoal('volcano crater');
    const records = await cycles(db, sessionId, 30, [findsOneMore]);
    expect(records).toHaveLength(30);
    expect(records.every((record) => record.outcome === 'advanced')).toBe(true);
    expect(await db.goals.get(1)).toMatchObject({ status: 'active', cyclesWorked: 30 });
    expect(await db.provenance.where('kind').equals('abandonment').count()).toBe(0);
  });
});

describe('a run with only hopeless goals', () => {
  it('stops by itself, long before its cycle limit, saying that no goal is active', async () => {
    const { service, sessionId } = await sessionWithGoal('volcano crater');
    // With every tool, answering each question of the agent with nothing new.
    const records = await runAnswering(service, sessionId, 1000);
    expect(records.length).toBeLessThan(100);
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(goal).toMatchObject({
      status: 'abandoned',
      statusReason: expect.stringMatching(/^no progress in 15 of its cycles/),
    });
    expect(await service.agentRun({ sessionId, operationId: 'again', maxCycles: 1000 })).toMatchObject({
      ok: true,
      cyclesRun: 0,
      stoppedBecause: 'no-active-goal',
    });
  });
});
