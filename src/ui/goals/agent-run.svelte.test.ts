import { flushSync } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import type { AgentApi, CycleRecord, GoalView, GraphStats } from '#core/api.ts';
import { AgentRun, type RunHost } from './agent-run.svelte.ts';

/** What a run without a model used. */
const NO_MODEL = { provider: 'none', requests: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0 };

const STATS: GraphStats = { symbols: 1, entities: 1, relations: 0, literals: 0, triples: 2 };

function goal(id: number, status: GoalView['status'] = 'active'): GoalView {
  return {
    id,
    description: `goal ${id}`,
    successCriteria: '',
    priority: 128,
    status,
    cyclesWorked: 0,
    findings: [],
    findingsTotal: 0,
  };
}

function cycle(number: number, model?: CycleRecord['model']): CycleRecord {
  return {
    sessionId: 's',
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
    ...(model ? { model } : {}),
  };
}

/** A fake agent: scripted goals and cycles, recording the calls the run state makes. */
function fakeHost(options: {
  goals: GoalView[];
  cyclesPerRun?: number;
  canWrite?: boolean;
  modelOfCycle?: (cycle: number) => CycleRecord['model'];
  beforeRunEnds?: Promise<void>;
}) {
  const calls: string[] = [];
  let goals = options.goals;
  let lastCycle = 0;
  const cancelled = new Set<string>();
  const graphChanges: GraphStats[] = [];
  const client = {
    goalList: async () => {
      calls.push('goalList');
      return { goals };
    },
    cycleList: async () => ({ cycles: [cycle(2), cycle(1)] }),
    kgStats: async () => STATS,
    agentRun: async (
      { operationId, maxCycles }: { operationId: string; maxCycles?: number },
      onProgress?: (record: CycleRecord) => void,
    ) => {
      calls.push(`agentRun ${maxCycles}`);
      if (!goals.some((known) => known.status === 'active'))
        return {
          ok: true as const,
          cyclesRun: 0,
          lastCycle,
          stoppedBecause: 'no-active-goal' as const,
          usage: NO_MODEL,
        };
      let cyclesRun = 0;
      while (cyclesRun < Math.min(maxCycles ?? 1, options.cyclesPerRun ?? Infinity)) {
        await Promise.resolve();
        if (cancelled.has(operationId))
          return { ok: true as const, cyclesRun, lastCycle, stoppedBecause: 'cancelled' as const, usage: NO_MODEL };
        lastCycle += 1;
        cyclesRun += 1;
        onProgress?.(cycle(lastCycle, options.modelOfCycle?.(lastCycle)));
      }
      await options.beforeRunEnds;
      goals = goals.map((known) => ({ ...known, status: 'completed' as const }));
      return { ok: true as const, cyclesRun, lastCycle, stoppedBecause: 'no-active-goal' as const, usage: NO_MODEL };
    },
    inferenceGet: async () => {
      calls.push('inferenceGet');
      return {
        provider: 'openai-compatible' as const,
        openAi: {
          baseUrl: 'http://localhost:8080/v1',
          model: 'llama-3',
          apiKeyStored: true,
          baseUrlCredentialsStored: false,
        },
        limits: {},
        confidenceCap: 0.7,
      };
    },
    cancel: async ({ operationId }: { operationId: string }) => {
      cancelled.add(operationId);
      return { isCancelled: true };
    },
  } satisfies Partial<AgentApi>;
  const host: RunHost = {
    client: client as unknown as AgentApi,
    sessionId: 's',
    canWrite: options.canWrite ?? true,
    approvals: { pendingCount: 0, pendingQuestionCount: 0 },
    graphChanged: (stats) => graphChanges.push(stats),
  };
  return { host, calls, graphChanges };
}

describe('AgentRun', () => {
  it('runs until no goal is active, logging each cycle newest first, then refreshes the goals and the counts', async () => {
    const { host, graphChanges } = fakeHost({ goals: [goal(1)], cyclesPerRun: 3 });
    const run = new AgentRun(host, () => 'run-1');
    await run.loadGoals();
    flushSync();
    expect(run.blockedReason).toBeUndefined();

    await run.start('until-done', 1000);
    flushSync();
    expect(run.cycles.map((record) => record.cycle)).toEqual([3, 2, 1]);
    expect(run.report?.message).toBe('Ran 3 cycles (up to cycle 3); no goal is active any more.');
    expect(run.goals[0]?.status).toBe('completed');
    expect(run.isRunning).toBe(false);
    expect(graphChanges).toEqual([STATS]);
    expect(run.blockedReason).toMatch(/^No goal is active/);
  });

  it('refuses to start while no goal is active, or in a read-only tab', async () => {
    const suspended = fakeHost({ goals: [goal(1, 'suspended')] });
    const run = new AgentRun(suspended.host);
    await run.loadGoals();
    await run.start('one', 1);
    expect(suspended.calls).not.toContain('agentRun 1');

    const readOnly = fakeHost({ goals: [goal(1)], canWrite: false });
    const other = new AgentRun(readOnly.host);
    await other.loadGoals();
    expect(other.blockedReason).toContain('another tab');
    await other.start('one', 1);
    expect(readOnly.calls).not.toContain('agentRun 1');
  });

  it('pauses a running run after the current cycle', async () => {
    const { host } = fakeHost({ goals: [goal(1)] });
    const run = new AgentRun(host, () => 'run-2');
    await run.loadGoals();
    const started = run.start('some', 10);
    expect(run.isRunning).toBe(true);
    await run.pause();
    await started;
    expect(run.report?.message).toMatch(/^Paused after \d+ cycle/);
    expect(run.cycles.length).toBeLessThan(10);
  });

  it('joins the stored log with the cycles already shown, each once', async () => {
    const { host } = fakeHost({ goals: [goal(1)], cyclesPerRun: 3 });
    const run = new AgentRun(host);
    await run.loadGoals();
    await run.start('some', 3);
    await run.loadCycles();
    expect(run.cycles.map((record) => record.cycle)).toEqual([3, 2, 1]);
  });

  it('asks the Goals screen for the plan of the goal the agent works on next, and says so', async () => {
    const { host } = fakeHost({
      goals: [
        { ...goal(1), priority: 100 },
        { ...goal(2), priority: 200 },
        { ...goal(3, 'suspended'), priority: 255 },
        { ...goal(4), priority: 200 },
      ],
    });
    const run = new AgentRun(host);
    await run.loadGoals();
    flushSync();
    expect(run.nextGoal?.id).toBe(2);
    expect(run.requestNextPlan()).toBe(true);
    expect(run.planRequest).toEqual({ goalId: 2 });
    expect(run.report).toEqual({
      tone: 'notice',
      message: 'Showing the plan of “goal 2”, the goal the agent works on next.',
      problems: [],
    });
  });

  it('says there is no plan to show while no goal is active', async () => {
    const { host } = fakeHost({ goals: [goal(1, 'suspended'), goal(2, 'completed')] });
    const run = new AgentRun(host);
    await run.loadGoals();
    expect(run.requestNextPlan()).toBe(false);
    expect(run.planRequest).toBeUndefined();
    expect(run.report?.message).toMatch(/^No goal is active, so the agent works on none next/);
  });

  it('keeps a goal the user just changed over a list fetched before the change', async () => {
    const { host } = fakeHost({ goals: [goal(1)] });
    const run = new AgentRun(host);
    const loading = run.loadGoals();
    run.putGoal({ ...goal(1, 'suspended'), priority: 7 });
    await loading;
    expect(run.goals).toMatchObject([{ status: 'suspended', priority: 7 }]);
  });

  it("sums the model's requests and tokens from the cycles as they commit, for the live line", async () => {
    let endRun = () => {};
    const beforeRunEnds = new Promise<void>((resolve) => (endRun = resolve));
    const use = {
      provider: 'openai-compatible',
      model: 'llama-3',
      requests: 1,
      promptTokens: 100,
      completionTokens: 20,
    };
    const { host } = fakeHost({
      goals: [goal(1)],
      cyclesPerRun: 3,
      modelOfCycle: (number) => (number === 2 ? undefined : use),
      beforeRunEnds,
    });
    const run = new AgentRun(host);
    await run.loadGoals();
    const started = run.start('until-done', 1000);
    await vi.waitFor(() => expect(run.activity).toMatchObject({ status: 'running', cyclesRun: 3 }));
    expect(run.activity).toMatchObject({ modelUse: { requests: 2, inputTokens: 200, outputTokens: 40 } });
    endRun();
    await started;
    expect(run.activity).toEqual({ status: 'idle' });
  });

  it('reads which model runs bind, and shows the one the settings just saved', async () => {
    const { host, calls } = fakeHost({ goals: [goal(1)] });
    const run = new AgentRun(host);
    await run.loadInference();
    expect(calls).toContain('inferenceGet');
    expect(run.inference).toMatchObject({ provider: 'openai-compatible', openAi: { model: 'llama-3' } });
    run.putInference({ provider: 'none', limits: {}, confidenceCap: 0.7 });
    expect(run.inference?.provider).toBe('none');
  });
});
