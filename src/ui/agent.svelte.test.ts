import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { AgentApi, CycleRecord, GoalView, GraphStats, SessionEvent } from '#core/api.ts';
import { AgentState } from './agent.svelte.ts';

function goal(id: number): GoalView {
  return {
    id,
    description: `goal ${id}`,
    successCriteria: '',
    priority: 128,
    status: 'active',
    cyclesWorked: 0,
    findings: [],
    findingsTotal: 0,
  };
}

function cycle(sessionId: string, number: number): CycleRecord {
  return {
    sessionId,
    cycle: number,
    goalId: 1,
    startedAt: 0,
    observe: '',
    orient: '',
    decide: '',
    act: '',
    candidates: [],
    tool: 'kg_query',
    input: {},
    outcome: 'no-change',
  };
}

const stats = (triples: number): GraphStats => ({ symbols: 1, entities: 1, relations: 0, literals: 0, triples });

/**
 * A fake agent worker as a tab sees it: what is stored (which another tab may change), whether
 * this tab may write, and the session watch, whose events the test sends.
 */
function fakeWorker(options: { canWrite: boolean }) {
  const stored = {
    session: { id: 'one', name: 'My session' },
    triples: 4,
    goals: [goal(1)],
    cycles: [] as CycleRecord[],
  };
  const calls: string[] = [];
  let onEvent: ((event: SessionEvent) => void) | undefined;
  const client = {
    open: async () => {
      calls.push('open');
      return {
        session: stored.session,
        stats: stats(stored.triples),
        hasLoadedStarterGraph: false,
        canWrite: options.canWrite,
      };
    },
    sessionWatch: (_args: { operationId: string }, listener?: (event: SessionEvent) => void) => {
      onEvent = listener;
      if (options.canWrite) listener?.({ kind: 'write-access' });
      return new Promise<Record<string, never>>(() => {});
    },
    goalList: async () => ({ goals: stored.goals }),
    cycleList: async () => ({ cycles: stored.cycles.filter((record) => record.sessionId === stored.session.id) }),
  } satisfies Partial<AgentApi>;
  const send = (event: SessionEvent) => {
    if (!onEvent) throw new Error('the tab is not watching its session');
    onEvent(event);
  };
  return { client: client as unknown as AgentApi, stored, calls, send };
}

/** Lets the reads an event started end. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('AgentState with two tabs', () => {
  it("shows a read-only tab the other tab's changes: the counts, the goals and the cycle log", async () => {
    const worker = fakeWorker({ canWrite: false });
    const agent = new AgentState(worker.client);
    await agent.open();
    await Promise.all([agent.run.loadGoals(), agent.run.loadCycles()]);
    const { graphRevision, storedRevision } = agent;

    worker.stored.triples = 5;
    worker.stored.goals = [goal(1), goal(2)];
    worker.stored.cycles = [cycle('one', 1), cycle('one', 2)];
    worker.send({ kind: 'changed' });
    await settled();
    flushSync();

    expect(agent.stats?.triples).toBe(5);
    expect(agent.graphRevision).toBe(graphRevision + 1);
    expect(agent.storedRevision).toBe(storedRevision + 1);
    expect(agent.run.goals.map((known) => known.id)).toEqual([1, 2]);
    expect(agent.run.cycles.map((record) => record.cycle)).toEqual([2, 1]);
    expect(agent.canWrite).toBe(false);
    expect(agent.hasTakenOver).toBe(false);
  });

  it('reads once more after a burst of notices, not once per notice', async () => {
    const worker = fakeWorker({ canWrite: false });
    const agent = new AgentState(worker.client);
    await agent.open();
    for (let index = 0; index < 20; index++) worker.send({ kind: 'changed' });
    await settled();
    expect(worker.calls.filter((call) => call === 'open')).toHaveLength(3);
  });

  it('follows the writing tab as it renames the session and switches to another, leaving the old one’s cycles behind', async () => {
    const worker = fakeWorker({ canWrite: false });
    worker.stored.cycles = [cycle('one', 1), cycle('one', 2)];
    const agent = new AgentState(worker.client);
    await agent.open();
    await agent.run.loadCycles();

    worker.stored.session = { id: 'one', name: 'Dogs' };
    worker.send({ kind: 'changed' });
    await settled();
    expect(agent.session).toEqual({ id: 'one', name: 'Dogs' });
    expect(agent.run.cycles).toHaveLength(2);

    worker.stored.session = { id: 'two', name: 'Mars notes' };
    worker.stored.cycles.push(cycle('two', 1));
    worker.send({ kind: 'changed' });
    await settled();

    expect(agent.session).toEqual({ id: 'two', name: 'Mars notes' });
    expect(agent.run.cycles.map((record) => `${record.sessionId} ${record.cycle}`)).toEqual(['two 1']);
  });

  it('lets a tab that takes over change the session, and says so', async () => {
    const worker = fakeWorker({ canWrite: false });
    const agent = new AgentState(worker.client);
    await agent.open();
    await agent.run.loadGoals();
    flushSync();
    expect(agent.run.blockedReason).toMatch(/open in another tab/);

    worker.stored.triples = 6;
    worker.send({ kind: 'write-access' });
    await settled();
    flushSync();

    expect(agent.canWrite).toBe(true);
    expect(agent.hasTakenOver).toBe(true);
    expect(agent.run.blockedReason).toBeUndefined();
    expect(agent.stats?.triples).toBe(6);
  });

  it('does not say that the tab which ran the session from the start took it over', async () => {
    const worker = fakeWorker({ canWrite: true });
    const agent = new AgentState(worker.client);
    await agent.open();
    await settled();
    expect(agent.canWrite).toBe(true);
    expect(agent.hasTakenOver).toBe(false);
    expect(worker.calls).toEqual(['open']);
  });
});
