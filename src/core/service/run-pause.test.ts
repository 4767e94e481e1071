import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import { testService } from '#core/testing/test-database.ts';

/** A taxonomy of branching 4 under Root, six levels deep: 5,460 is-a facts, 21,844 about Root once closed. */
function taxonomyCsv(): string {
  const lines: string[] = [];
  let level = ['Root'];
  for (let depth = 0; depth < 6; depth++) {
    const next: string[] = [];
    for (const parent of level)
      for (let child = 0; child < 4; child++) {
        const name = `${parent}_${child}`;
        lines.push(`${name},is-a,${parent}`);
        next.push(name);
      }
    level = next;
  }
  return lines.join('\n');
}

describe('pausing a run', () => {
  it('takes effect within 100 ms while the rules are part-way through a long closure, and the run goes on from there', async () => {
    const { db, service } = testService({});
    const { session } = await service.open({});
    const sessionId = session.id;
    const imported = await service.kgImport({
      sessionId,
      operationId: 'import',
      fileName: 'tree.csv',
      data: taxonomyCsv(),
    });
    expect(imported.ok).toBe(true);
    await service.goalAdd({ sessionId, description: 'Learn about Root', criteria: 'volcano', priority: 1 });
    const records: CycleRecord[] = [];
    let pausedAt = 0;
    const running = service.agentRun({ sessionId, operationId: 'run', maxCycles: 500 }, (record) => {
      records.push(record);
      // Paused while the next cycle runs: 5 ms into it.
      if (records.length === 3)
        setTimeout(() => ((pausedAt = performance.now()), void service.cancel({ operationId: 'run' })), 5);
    });
    const outcome = await running;
    const took = performance.now() - pausedAt;
    expect(outcome).toMatchObject({ ok: true, stoppedBecause: 'cancelled' });
    expect(took).toBeLessThan(100);
    // The rules were still at work on Root: each of their cycles stored a slice and said more would come.
    const rules = records.filter((record) => record.tool === 'infer_rules');
    expect(rules.length).toBeGreaterThan(0);
    expect(rules.every((record) => record.act.includes('the rules go on next cycle'))).toBe(true);
    // Nothing of the paused cycle was stored; the next run goes on from the last stored cycle.
    const stored = await db.cycles.where('sessionId').equals(sessionId).count();
    expect(stored).toBe(records.length);
    const resumed = await service.agentRun({ sessionId, operationId: 'again', maxCycles: 1 });
    expect(resumed).toMatchObject({ ok: true, cyclesRun: 1, lastCycle: records.length + 1 });
  }, 60_000);
});
