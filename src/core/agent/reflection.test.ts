import { describe, expect, it } from 'vitest';
import { AnimaDatabase } from '#core/store/database.ts';
import { currentPsyche } from '#core/psyche/psyche-store.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import type { CycleRecord } from '#core/records/cycle.ts';
import type { Goal } from '#core/records/goal.ts';
import { reflectOn } from './reflection.ts';

const goal = (
  id: number,
  priority: number,
  cyclesWorked: number,
  lastProgressCycle: number,
  description = `goal ${id}`,
): Goal => ({
  id,
  sessionId: 's',
  description,
  successCriteria: 'volcano crater',
  priority,
  status: 'active',
  cyclesWorked,
  lastProgressCycle,
  stallThreshold: 5,
  findings: [],
  toolsUsed: [],
  createdAt: 0,
});

const cycle = (
  number: number,
  goalId: number,
  tool: string,
  outcome: CycleRecord['outcome'],
  shadow?: CycleRecord['shadow'],
): CycleRecord => ({
  sessionId: 's',
  cycle: number,
  goalId,
  startedAt: 0,
  observe: '',
  orient: '',
  decide: tool,
  act: '',
  candidates: [],
  tool,
  input: null,
  outcome,
  ...(shadow ? { shadow } : {}),
});

describe('reflection', () => {
  it('boosts a progressing goal, demotes and re-plans a stagnant one, suggests splitting one stalled twice over, and consolidates a filling memory', () => {
    const seen = reflectOn({
      cycles: [
        cycle(1, 1, 'kg_query', 'advanced'),
        cycle(2, 2, 'gap_analysis', 'no-change'),
        cycle(3, 1, 'infer_rules', 'advanced'),
        cycle(4, 3, 'kg_query', 'no-change'),
        // Stopped by the shadow: it did not run, so it is no use of kg_query.
        cycle(5, 2, 'kg_query', 'failed', { pattern: 'p', because: 'b', provenanceId: 1 }),
      ],
      goals: [
        goal(1, 100, 3, 3),
        goal(2, 200, 8, 0),
        goal(3, 50, 12, 1),
        goal(4, 128, 9, 0, 'not worked since the last reflection'),
      ],
      memoryEntryCount: 75,
      memoryCapacity: 100,
    });
    expect(seen.toolStats).toEqual([
      { tool: 'gap_analysis', uses: 1, successes: 0 },
      { tool: 'infer_rules', uses: 1, successes: 1 },
      { tool: 'kg_query', uses: 2, successes: 1 },
    ]);
    expect(seen.goals).toEqual([
      { goalId: 1, description: 'goal 1', cyclesSinceLastReflection: 2, progressed: true, stagnantFor: 0 },
      { goalId: 2, description: 'goal 2', cyclesSinceLastReflection: 2, progressed: false, stagnantFor: 8 },
      { goalId: 3, description: 'goal 3', cyclesSinceLastReflection: 1, progressed: false, stagnantFor: 11 },
    ]);
    expect(seen.memoryPressure).toBe(0.75);
    expect(seen.adjustments).toEqual([
      {
        kind: 'boost',
        goalId: 1,
        from: 100,
        to: 120,
        reason: 'it advanced in 2 cycles since the last reflection: keep its momentum',
      },
      {
        kind: 'demote',
        goalId: 2,
        from: 200,
        to: 170,
        reason: 'no progress for 8 of its cycles (its stall threshold is 5): other goals get a turn',
      },
      {
        kind: 'replan',
        goalId: 2,
        reason:
          'no progress for 8 of its cycles (its stall threshold is 5): its plan is not working, the next one tries another order',
      },
      {
        kind: 'demote',
        goalId: 3,
        from: 50,
        to: 20,
        reason: 'no progress for 11 of its cycles (its stall threshold is 5): other goals get a turn',
      },
      {
        kind: 'replan',
        goalId: 3,
        reason:
          'no progress for 11 of its cycles (its stall threshold is 5): its plan is not working, the next one tries another order',
      },
      {
        kind: 'suggest-decomposition',
        goalId: 3,
        reason:
          'no progress for 11 of its cycles (its stall threshold is 5): split it into smaller goals (its criteria do not split at commas or "and" by themselves)',
      },
      { kind: 'consolidate', reason: 'working memory is 75% full: its entries become episodes' },
    ]);
  });

  it('runs at cycle 5 in the loop: demotes the goal stagnant for 8 cycles, boosts the progressing one, re-plans, and the psyche evolves on the same cycles', async () => {
    const { db, service } = testService({ db: new AnimaDatabase('anima', freshIndexedDb()) });
    const { session } = await service.open({});
    const sessionId = session.id;
    await service.kgImport({
      sessionId,
      operationId: 'op',
      fileName: 'mars.csv',
      data: 'Mars,is-a,Planet\nMars,orbits,Sun\nPlanet,is-a,CelestialBody\nSun,is-a,Star\n',
    });
    // Four cycles already happened: the Mars goal advanced twice with kg_query, the Venus goal got nowhere twice with gap_analysis.
    await db.goals.bulkAdd([
      {
        ...goal(1, 200, 2, 2, 'Find what Mars is'),
        sessionId,
        successCriteria: 'Mars is-a ?x, at least 5',
        toolsUsed: ['kg_query'],
      },
      { ...goal(2, 100, 8, 0, 'Learn about Venus'), sessionId, toolsUsed: ['gap_analysis'] },
    ]);
    await db.cycles.bulkAdd(
      [
        cycle(1, 1, 'kg_query', 'advanced'),
        cycle(2, 2, 'gap_analysis', 'no-change'),
        cycle(3, 1, 'kg_query', 'advanced'),
        cycle(4, 2, 'gap_analysis', 'no-change'),
      ].map((record) => ({ ...record, sessionId })),
    );
    await db.plans.add({
      sessionId,
      goalId: 2,
      attempt: 0,
      needs: ['knowledge'],
      strategy: 'explore first',
      steps: [{ tool: 'gap_analysis', input: {}, rationale: 'r', status: 'pending' }],
      status: 'active',
      cycle: 2,
      createdAt: 0,
    });
    await db.sessions.update(sessionId, { cycle: 4 });

    const run = await service.agentRun({ sessionId, operationId: 'run', maxCycles: 1 });
    expect(run).toMatchObject({ ok: true, lastCycle: 5 });
    const [reflection] = (await service.reflectionList({ sessionId })).reflections;
    expect(reflection).toMatchObject({ cycle: 5, trigger: 'interval', sinceCycle: 0 });
    expect(reflection!.adjustments.map(({ kind, goalId, from, to }) => [kind, goalId, from, to])).toEqual([
      ['boost', 1, 200, 220],
      ['demote', 2, 100, 70],
      ['replan', 2, undefined, undefined],
    ]);
    expect((await service.goalList({ sessionId })).goals.map((goal) => goal.priority)).toEqual([220, 70]);
    expect((await db.plans.where('goalId').equals(2).first())!).toMatchObject({
      status: 'superseded',
      statusReason: expect.stringMatching(/^reflection at cycle 5: no progress for 8 of its cycles/),
    });
    // Cycle 5 ran the rules for Mars (a success of a sage tool, but one use is too few to count);
    // gap_analysis changed nothing twice and prepared nothing: no evidence, so healer stays.
    expect(reflection!.psycheChanges).toEqual(['sage 0.70 -> 0.72 (kg_query succeeded 2 of 2)']);
    expect(reflection!.psycheVersion).toBe(2);
    expect((await currentPsyche(db, sessionId)).psyche.archetypes).toMatchObject({ healer: 0.5, sage: 0.72 });
    expect(await db.provenance.where('kind').equals('reflection').first()).toMatchObject({
      cycle: 5,
      sources: [`reflection:${reflection!.id}`, 'goal:1', 'goal:2'],
      detail:
        'reflection at cycle 5: boost goal 1 200 -> 220; demote goal 2 100 -> 70; replan goal 2; psyche: sage 0.70 -> 0.72 (kg_query succeeded 2 of 2)',
    });

    // On demand: nothing happened since, so there is nothing to adjust.
    const asked = await service.reflect({ sessionId });
    expect(asked).toMatchObject({
      ok: true,
      reflection: { cycle: 5, trigger: 'request', sinceCycle: 5, adjustments: [], psycheChanges: [] },
    });
    expect((await service.reflectionList({ sessionId })).reflections.map((entry) => entry.trigger)).toEqual([
      'request',
      'interval',
    ]);
  });

  it('evolves the psyche on every cycle since its last evolution, also those an earlier reflection looked at', async () => {
    const { db, service } = testService({ db: new AnimaDatabase('anima', freshIndexedDb()) });
    const sessionId = (await service.open({})).session.id;
    await db.goals.add({ ...goal(1, 100, 4, 3), sessionId });
    await db.cycles.bulkAdd(
      [
        cycle(1, 1, 'kg_query', 'advanced'),
        cycle(2, 1, 'gap_analysis', 'no-change'),
        cycle(3, 1, 'kg_query', 'advanced'),
        cycle(4, 1, 'gap_analysis', 'no-change'),
      ].map((record) => ({ ...record, sessionId })),
    );
    // A reflection at cycle 2 that did not evolve the psyche (as one stored before evolutions were kept).
    await db.reflections.add({
      sessionId,
      cycle: 2,
      trigger: 'interval',
      sinceCycle: 0,
      toolStats: [],
      goals: [],
      memoryPressure: 0,
      adjustments: [],
      psycheChanges: [],
      createdAt: 0,
    });
    await db.sessions.update(sessionId, { cycle: 4 });
    const asked = await service.reflect({ sessionId });
    // It reflects on cycles 3 and 4; the psyche evolves on 1 to 4, where kg_query succeeded twice.
    expect(asked).toMatchObject({
      ok: true,
      reflection: { sinceCycle: 2, psycheChanges: ['sage 0.70 -> 0.72 (kg_query succeeded 2 of 2)'] },
    });
  });

  it('keeps its interval in the session settings, which are checked field by field', async () => {
    const { service } = testService();
    const { session } = await service.open({});
    const sessionId = session.id;
    expect(await service.agentSettingsGet({ sessionId })).toEqual({
      planning: true,
      reflectionInterval: 5,
      maxFailedPlans: 3,
      memoryCapacity: 100,
      consolidationThreshold: 0.8,
    });
    expect(
      await service.agentSettingsSet({
        sessionId,
        settings: { planning: true, reflectionInterval: 0, maxFailedPlans: 3 },
      }),
    ).toEqual({ ok: false, problems: [{ path: 'reflectionInterval', message: 'reflect every 1 cycle or more' }] });
    expect(
      await service.agentSettingsSet({
        sessionId,
        settings: { planning: false, reflectionInterval: 2, maxFailedPlans: 1 },
      }),
    ).toEqual({
      ok: true,
      settings: {
        planning: false,
        reflectionInterval: 2,
        maxFailedPlans: 1,
        memoryCapacity: 100,
        consolidationThreshold: 0.8,
      },
    });
    expect(
      await service.agentSettingsSet({
        sessionId,
        settings: {
          planning: false,
          reflectionInterval: 2,
          maxFailedPlans: 1,
          memoryCapacity: 5,
          consolidationThreshold: 1,
        },
      }),
    ).toEqual({
      ok: false,
      problems: [
        { path: 'memoryCapacity', message: '10 entries or more' },
        { path: 'consolidationThreshold', message: 'consolidate at 0.95 or earlier, before memory is full' },
      ],
    });
    await service.kgImport({ sessionId, operationId: 'op', fileName: 'mars.csv', data: 'Mars,is-a,Planet\n' });
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 4 });
    expect((await service.reflectionList({ sessionId })).reflections.map((reflection) => reflection.cycle)).toEqual([
      4, 2,
    ]);
    expect((await service.planList({ sessionId })).plans).toEqual([]);
  });
});
