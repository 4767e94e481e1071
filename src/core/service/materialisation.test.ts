import { describe, expect, it } from 'vitest';
import { loadGraph } from '#core/store/kg-repository.ts';
import { testService } from '#core/testing/test-database.ts';
import { inferRules } from '#core/kg/forward-chaining.ts';

/** An is-a chain of `length` classes: its closure is tens of thousands of facts, many slices of work. */
function chainGraph(length: number): string {
  const lines = ['@prefix : <urn:anima:kg#> .'];
  for (let index = 1; index < length; index++) lines.push(`:Class${index} :is-a :Class${index - 1} .`);
  return lines.join('\n');
}

async function openedChain(length: number) {
  const { db, service } = testService({ loadStarterGraph: async () => chainGraph(length) });
  const { session } = await service.open({});
  return { db, service, sessionId: session.id };
}

type Progress = { phase: 'deriving' | 'storing'; derived: number; rounds: number };

describe('agent service: a full materialisation in slices', () => {
  it('reports its progress while the rules run, then while it stores, and derives what one run at once would', async () => {
    const { db, service, sessionId } = await openedChain(600);
    const atOnce = inferRules(await loadGraph(db, sessionId), { minConfidence: 0.3 }).derivations.length;
    const progress: Progress[] = [];
    const run = await service.kgInfer({ sessionId, operationId: 'infer', minConfidence: 0.3 }, (step) =>
      progress.push(step),
    );
    if (!run.ok) throw new Error('inference refused');
    const deriving = progress.filter((step) => step.phase === 'deriving');
    expect(deriving.length).toBeGreaterThan(1);
    for (let index = 1; index < deriving.length; index++)
      expect(deriving[index]!.derived).toBeGreaterThanOrEqual(deriving[index - 1]!.derived);
    expect(progress.at(-1)).toMatchObject({ phase: 'storing', derived: run.derived + run.raised });
    expect(run.derived).toBeGreaterThan(10_000);
    expect(run).toMatchObject({ derived: atOnce, raised: 0 });
    expect(run.stats.triples).toBe(599 + run.derived);
  }, 60_000);

  it('stores nothing when cancelled while the rules run, and a later run derives everything', async () => {
    const { db, service, sessionId } = await openedChain(600);
    const provenanceBefore = await db.provenance.count();
    let cancelled: Promise<unknown> | undefined;
    const run = await service.kgInfer({ sessionId, operationId: 'infer', minConfidence: 0.3 }, () => {
      cancelled ??= service.cancel({ operationId: 'infer' });
    });
    expect(await cancelled).toEqual({ isCancelled: true });
    expect(run).toMatchObject({ ok: false, reason: 'cancelled' });
    expect(await db.provenance.count()).toBe(provenanceBefore);
    expect((await loadGraph(db, sessionId)).tripleCount).toBe(599);
    expect((await service.kgStats({ sessionId })).triples).toBe(599);

    const atOnce = inferRules(await loadGraph(db, sessionId), { minConfidence: 0.3 }).derivations.length;
    const again = await service.kgInfer({ sessionId, minConfidence: 0.3 });
    expect(again).toMatchObject({ ok: true, derived: atOnce });
  }, 60_000);
});
