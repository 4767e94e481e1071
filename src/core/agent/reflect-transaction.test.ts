import { expect, it } from 'vitest';
import { AnimaDatabase } from '#core/store/database.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';

// Found by the crash soak: a reflection's writes commit in its one transaction, also when memory has nothing worth consolidating.

it('reflecting now on a stalled goal with a plan, with working memory full of entries too weak to consolidate, stores the reflection in one transaction', async () => {
  const { service, db } = testService({ db: new AnimaDatabase('anima', freshIndexedDb()) });
  const sessionId = (await service.open({})).session.id;
  const added = await service.goalAdd({ sessionId, description: 'Find planets', criteria: 'planet' });
  if (!added.ok) throw new Error('no goal');
  const goalId = added.goal.id;
  await db.goals.update(goalId, { cyclesWorked: 6, lastProgressCycle: 0 });
  await db.plans.add({
    sessionId,
    goalId,
    attempt: 0,
    needs: [],
    strategy: 'read',
    steps: [],
    status: 'active',
    cycle: 0,
    createdAt: 0,
  });
  await db.cycles.bulkAdd(
    Array.from({ length: 6 }, (_, index) => ({
      sessionId,
      cycle: index + 1,
      goalId,
      startedAt: 0,
      observe: '',
      orient: '',
      decide: '',
      act: '',
      candidates: [],
      tool: 'reason',
      input: null,
      outcome: 'no-change' as const,
    })),
  );
  await db.sessions.update(sessionId, { cycle: 6 });
  await db.workingMemory.bulkAdd(
    Array.from({ length: 85 }, (_, index) => ({
      sessionId,
      content: `note ${index}`,
      symbols: [],
      kind: 'observation' as const,
      timestamp: 0,
      relevance: 0.1,
      sourceCycle: 1,
      referenceCount: 0,
    })),
  );

  expect(await service.reflect({ sessionId })).toMatchObject({
    ok: true,
    reflection: { adjustments: [{ kind: 'demote' }, { kind: 'replan' }, { kind: 'consolidate' }] },
  });
  expect(await db.plans.where('goalId').equals(goalId).first()).toMatchObject({ status: 'superseded' });
});
