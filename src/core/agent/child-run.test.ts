import { describe, expect, it } from 'vitest';
import { engineProvider } from '#core/llm/chat-engine.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';
import { structuredCall } from '#core/llm/structured-call.ts';
import { UsageBudget, type UsageLimits } from '#core/llm/usage-budget.ts';
import { parseCriteria, goalSymbols } from '#core/goals/goal.ts';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import type { ModelSettings } from '#core/records/model-settings.ts';
import { graphOf } from '#core/testing/graph-of.ts';
import { type ScriptedReply, ScriptedEngine } from '#core/testing/scripted-engine.ts';
import type { ToolState } from '#core/tools/tool.ts';
import { DEFAULT_WEB_ACCESS } from '#core/tools/web-access.ts';
import { z } from 'zod';
import { runChild } from './child-run.ts';
import { EXPANDER, type Posture, POSTURES, RED_TEAM, REPAIR, REVIEWER } from './postures.ts';

function parentWith(
  script: ScriptedReply[],
  options: { limits?: UsageLimits; settings?: ModelSettings; now?: () => number } = {},
) {
  const engine = new ScriptedEngine(script);
  const budget = new UsageBudget(options.limits ?? {}, options.now);
  const model: ModelAccess = {
    provider: engineProvider(engine, { name: 'webllm', model: 'scripted-1' }),
    budget,
    system: 'You are the parent.',
    confidenceCap: 0.7,
    ...(options.settings ? { settings: options.settings } : {}),
  };
  return { engine, budget, model };
}

const result = (value: unknown) => ({ text: JSON.stringify({ kind: 'result', result: value }) });
const task = { purpose: 'check the thing', prompt: 'The thing to look at.', traces: ['kg_query: no symbol 12'] };

/** For each posture: an answer its schema refuses (and why that matters), and one it takes. */
const CASES = [
  {
    posture: EXPANDER,
    invalid: {
      options: [
        { option: 'a', why: 'x', rank: 1 },
        { option: 'b', why: 'y' },
      ],
    },
    problem: 'rank',
    valid: {
      options: [
        { option: 'ask an endpoint', why: 'the graph lacks it' },
        { option: 'read a document', why: 'one names it' },
      ],
    },
    summary: '2 options: ask an endpoint; read a document',
  },
  {
    posture: REVIEWER,
    invalid: { verdict: 'reject', problems: [] },
    problem: 'a rejection names at least one problem',
    valid: { verdict: 'reject', problems: ['Dog is not a Cat'] },
    summary: 'rejected: Dog is not a Cat',
  },
  {
    posture: REPAIR,
    invalid: { trace: 3, cause: 'no symbol 12', fix: 'look up by name' },
    problem: 'trace 3 is not one of the 1 traces given',
    valid: { trace: 1, cause: 'no symbol 12', fix: 'look the symbol up by its name' },
    summary: 'trace 1: no symbol 12; fix: look the symbol up by its name',
  },
  {
    posture: RED_TEAM,
    invalid: { breachPaths: [{ path: 'leaks the key', severity: 'critical' }] },
    problem: 'severity',
    valid: { breachPaths: [{ path: 'the address could carry the session key', severity: 'high' }] },
    summary: 'high: the address could carry the session key',
  },
] as const;

describe('a child run in a posture', () => {
  for (const { posture, invalid, problem, valid, summary } of CASES) {
    it(`holds the ${posture.name} to its schema: invalid output is sent back, then taken when valid`, async () => {
      const { engine, model } = parentWith([result(invalid), result(valid)]);
      const outcome = await runChild(model, posture as Posture<unknown>, task);
      expect(outcome).toMatchObject({ ok: true, value: valid });
      expect(outcome.run).toMatchObject({
        posture: posture.name,
        purpose: 'check the thing',
        result: valid,
        summary,
        usage: { requests: 2, toolCalls: 0 },
      });
      expect(engine.requests[1]!.messages.at(-1)!.content).toContain(problem);
      // Its own context: the posture's system prompt, never the parent's.
      expect(engine.requests[0]!.messages[0]).toEqual({ role: 'system', content: posture.system });
    });

    it(`stops the ${posture.name} with an invalid_output bottleneck once its retries are spent`, async () => {
      const { engine, model } = parentWith([result(invalid), result(invalid), result(invalid), result(valid)]);
      const outcome = await runChild(model, posture as Posture<unknown>, task);
      expect(outcome).toMatchObject({ ok: false, bottleneck: { kind: 'invalid_output' } });
      expect(outcome.run.bottleneck?.detail).toMatch(/^3 answers, none valid/);
      expect(outcome.run.result).toBeUndefined();
      expect(engine.requests).toHaveLength(3);
    });
  }

  it('samples with its posture settings over the session settings, which fill the rest', async () => {
    const { engine, model } = parentWith([result({ verdict: 'accept', problems: [] })], {
      settings: { temperature: 0.5, seed: 7 },
    });
    const outcome = await runChild(model, REVIEWER, task);
    expect(outcome.run.settings).toEqual({ temperature: 0, maxTokens: 384, seed: 7 });
    expect(engine.requests[0]).toMatchObject({ temperature: 0, max_tokens: 384, seed: 7 });
    expect(Object.keys(POSTURES)).toEqual(['expander', 'reviewer', 'repair', 'red-team']);
  });

  it("keeps a lower answer length the user set: the posture's own is a ceiling, not a floor", async () => {
    const { engine, model } = parentWith([result({ verdict: 'accept', problems: [] })], {
      settings: { maxTokens: 200 },
    });
    const outcome = await runChild(model, REVIEWER, task);
    expect(outcome.run.settings).toEqual({ temperature: 0, maxTokens: 200 });
    expect(engine.requests[0]).toMatchObject({ temperature: 0, max_tokens: 200 });
  });

  it("draws from the parent's budget: at the shared limit the child stops, and so does the parent", async () => {
    let clock = 0;
    const { budget, model } = parentWith(
      [{ text: '{"kind":"result","result":{"verdict":"accept"}}' }, result({ verdict: 'accept', problems: [] })],
      // Every reading of the clock moves it on 10 ms: the child's wall time is what passed while it ran.
      { limits: { requests: 2 }, now: () => (clock += 10) },
    );
    // The parent's own request first.
    budget.chargeRequest({ promptTokens: 10, completionTokens: 2 });
    const outcome = await runChild(model, REVIEWER, task);
    expect(outcome).toMatchObject({
      ok: false,
      bottleneck: { kind: 'budget_exhausted', detail: "the run's budget is spent: 2 requests, the limit is 2" },
    });
    expect(outcome.run.usage).toMatchObject({ requests: 1, toolCalls: 0 });
    expect(outcome.run.usage.wallMs).toBeGreaterThan(0);
    expect(budget.totals.requests).toBe(2);
    const parentNext = await structuredCall(model.provider, z.object({}), {
      name: 'next',
      prompt: 'go on',
      budget,
    });
    expect(parentNext).toMatchObject({ ok: false, bottleneck: { kind: 'budget_exhausted' } });
    expect(budget.spent()).toEqual({ limit: 'requests', used: 2, max: 2 });
  });

  it('asks nothing of a repair without a measured failure trace', async () => {
    const { engine, model } = parentWith([]);
    const outcome = await runChild(model, REPAIR, { purpose: 'fix it', prompt: 'It failed.' });
    expect(outcome).toMatchObject({
      ok: false,
      bottleneck: { kind: 'missing_input', detail: 'a repair needs at least one measured failure trace' },
    });
    expect(engine.requests).toHaveLength(0);
  });

  it('lets a granted tool be called first, counting the call in its usage and in the shared budget', async () => {
    const graph = graphOf([
      ['Dog', 'is-a', 'Mammal'],
      ['Cat', 'is-a', 'Mammal'],
    ]);
    const criteria = parseCriteria('', 'Is a dog a mammal?');
    if (!criteria.ok) throw new Error('criteria');
    const goal = {
      id: 1,
      sessionId: 's',
      description: 'Is a dog a mammal?',
      successCriteria: '',
      priority: 128,
      status: 'active' as const,
      cyclesWorked: 0,
      lastProgressCycle: 0,
      stallThreshold: 5,
      findings: [],
      toolsUsed: [],
      createdAt: 1,
    };
    const state: ToolState = {
      sessionId: 's',
      cycle: 1,
      now: 5,
      graph,
      similarity: new SimilarityIndex(graph),
      goal,
      criteria: criteria.value,
      goalSymbols: goalSymbols(graph, goal, criteria.value),
      inferredAtTripleCount: undefined,
      episodes: [],
      documents: [],
      webAccess: DEFAULT_WEB_ACCESS,
      isOnline: true,
    };
    const { engine, budget, model } = parentWith([
      { text: JSON.stringify({ kind: 'tool_call', tool: 'kg_query', input: { pattern: '?x is-a Mammal' } }) },
      result({ verdict: 'accept', problems: [] }),
    ]);
    const outcome = await runChild(model, REVIEWER, task, state);
    expect(outcome).toMatchObject({ ok: true, value: { verdict: 'accept' } });
    expect(outcome.run.usage).toMatchObject({ requests: 2, toolCalls: 1 });
    expect(budget.totals).toMatchObject({ requests: 2, toolCalls: 1 });
    expect(engine.requests[1]!.messages.at(-1)!.content).toBe(
      'You called tool=kg_query input={"pattern":"?x is-a Mammal"}: 2 answers to ?x is-a Mammal: Dog, Cat',
    );
  });
});
