import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import type { InferenceSettings } from '#core/llm/inference-settings.ts';
import { addPsycheVersion } from '#core/psyche/psyche-store.ts';
import { defaultPsyche } from '#core/records/psyche.ts';
import { describeProblem } from '#core/result.ts';
import { exportSnapshot } from '#core/sessions/snapshot.ts';
import { parseSnapshot } from '#core/sessions/snapshot-check.ts';
import { restoreSnapshot } from '#core/sessions/snapshot-restore.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { type ScriptedReply, ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { ScriptedWebLlmHost } from '#core/testing/scripted-webllm-host.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';

const WEBLLM: InferenceSettings = {
  provider: 'webllm',
  webllmModel: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
  limits: {},
  confidenceCap: 0.7,
};

/** A session with these facts and this goal, whose runs bind a scripted engine in place of WebLLM's. */
async function sessionWith(data: string, goal: { description: string; criteria?: string }) {
  const db = new AnimaDatabase('anima', freshIndexedDb());
  const { service } = testService({ db });
  const sessionId = (await service.open({})).session.id;
  await service.kgImport({ sessionId, operationId: 'op', fileName: 'facts.csv', data });
  await service.goalAdd({ sessionId, ...goal });
  const idOf = async (text: string) => (await service.kgSearch({ sessionId, text, limit: 1 })).hits[0]!.symbol.id;
  /** Runs the agent with these replies from the model, or with the symbolic engine alone. */
  const run = async (
    replies: ScriptedReply[] | undefined,
    maxCycles: number,
    inference: InferenceSettings = WEBLLM,
  ) => {
    const engine = new ScriptedEngine(replies ?? []);
    const host = new ScriptedWebLlmHost(engine);
    host.cached.add(WEBLLM.webllmModel!);
    const running = testService({ db, ...(replies ? { providerReach: { webLlm: host } } : {}) });
    await running.service.open({});
    const cycles: CycleRecord[] = [];
    const result = await running.service.agentRun(
      { sessionId, operationId: 'run', maxCycles, ...(replies ? { inference } : {}) },
      (record) => cycles.push(record),
    );
    return { service: running.service, result, cycles, engine };
  };
  return { db, sessionId, idOf, run };
}

const MONEY = 'DE,has-currency,Euro\nFR,has-currency,Euro\nJP,has-currency,Yen\n';
const QUESTION = { description: 'Which lands pay in euros?' };
const review = (verdict: 'accept' | 'reject', problems: string[] = []) => ({
  text: JSON.stringify({ kind: 'result', result: { verdict, problems } }),
});

/** The model's reading of the question: every x that has-currency Euro (the words alone have no name for "lands" or "pay"). */
async function euroReading(idOf: (text: string) => Promise<number>): Promise<ScriptedReply> {
  return {
    text: JSON.stringify({
      form: 'list',
      find: 'x',
      patterns: [
        { subject: { variable: 'x' }, predicate: await idOf('has-currency'), object: { symbol: await idOf('Euro') } },
      ],
    }),
  };
}

describe("a reviewer child run checks the model's reading of a question", () => {
  it('lets an accepted reading answer the goal, and logs the child under the cycle with its usage', async () => {
    const { sessionId, idOf, run } = await sessionWith(MONEY, QUESTION);
    const { service, cycles, engine } = await run([await euroReading(idOf), review('accept')], 3);
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(goal).toMatchObject({ status: 'completed', answer: { reading: 'every ?x with ?x has-currency Euro' } });
    expect(cycles[0]!.children).toEqual([
      {
        posture: 'reviewer',
        purpose: `review the model's reading of "Which lands pay in euros?"`,
        provider: 'webllm',
        model: WEBLLM.webllmModel,
        settings: { temperature: 0, maxTokens: 384 },
        usage: expect.objectContaining({ requests: 1, toolCalls: 0 }),
        result: { verdict: 'accept', problems: [] },
        summary: 'accepted',
      },
    ]);
    // The reviewer saw the reading in words, and sampled with its own settings.
    expect(engine.requests[1]!.messages.at(-1)!.content).toContain(
      'A model read it as: every ?x with ?x has-currency Euro',
    );
    expect(engine.requests[1]).toMatchObject({ temperature: 0, max_tokens: 384 });
  });

  it("gives way to the words' reading, saying why, when the reviewer rejects the model's", async () => {
    const { sessionId, idOf, run } = await sessionWith(MONEY, QUESTION);
    const { service, cycles } = await run(
      [await euroReading(idOf), review('reject', ['the question asks about lands, the query about currencies'])],
      1,
    );
    expect(cycles[0]!.children?.[0]).toMatchObject({ posture: 'reviewer', result: { verdict: 'reject' } });
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(goal!.answer?.reading).toContain(
      "a reviewer rejected the model's reading (the question asks about lands, the query about currencies); read from the words instead",
    );
  });

  it("stops the parent at the shared limit: the child's request counts against the run's", async () => {
    const { idOf, run } = await sessionWith(MONEY, QUESTION);
    const { result, cycles, engine } = await run([await euroReading(idOf), review('accept')], 5, {
      ...WEBLLM,
      limits: { requests: 1 },
    });
    // The reading took the one request; the reviewer found the budget spent and asked nothing.
    expect(engine.requests).toHaveLength(1);
    expect(cycles[0]!.children?.[0]).toMatchObject({
      posture: 'reviewer',
      usage: { requests: 0 },
      bottleneck: { kind: 'budget_exhausted', detail: "the run's budget is spent: 1 request, the limit is 1" },
      summary: "stopped: budget exhausted (the run's budget is spent: 1 request, the limit is 1)",
    });
    expect(result).toMatchObject({ ok: true, stoppedBecause: 'budget', budgetSpent: { limit: 'requests', max: 1 } });

    // With room for two, the reviewer takes the second, and the parent stops there too.
    const second = await sessionWith(MONEY, QUESTION);
    const both = await second.run([await euroReading(second.idOf), review('accept'), review('accept')], 5, {
      ...WEBLLM,
      limits: { requests: 2 },
    });
    expect(both.engine.requests).toHaveLength(2);
    expect(both.cycles[0]!.children?.[0]).toMatchObject({ usage: { requests: 1 }, result: { verdict: 'accept' } });
    expect(both.result).toMatchObject({
      ok: true,
      stoppedBecause: 'budget',
      budgetSpent: { limit: 'requests', used: 2, max: 2 },
      usage: { requests: 2 },
    });
  });

  it('delegates nothing with the symbolic engine alone', async () => {
    const { sessionId, run } = await sessionWith(MONEY, QUESTION);
    const { service, cycles } = await run(undefined, 2);
    expect(cycles.every((record) => record.children === undefined)).toBe(true);
    expect((await service.goalList({ sessionId })).goals[0]!.answer?.reading).not.toContain('reviewer');
  });
});

/** A psyche that holds every kg_query for the user's approval. */
async function askBeforeQuerying(db: AnimaDatabase, sessionId: string) {
  const psyche = defaultPsyche();
  psyche.shadow.vetoPatterns = [
    {
      name: 'ask_before_querying',
      triggers: ['kg_query'],
      capabilityTriggers: [],
      severity: 0.5,
      explanation: 'Queries wait for your approval.',
      requireApproval: true,
    },
  ];
  await db.transaction('rw', db.psyches, () =>
    addPsycheVersion(db, { sessionId, psyche, cycle: 0, reason: 'test', now: 1 }),
  );
}

const ZOO = 'Dog,is-a,Canine\nCanine,is-a,Mammal\nDog,has-part,Tail\n';
const LEARN = { description: 'Learn about Dog', criteria: 'whiskers' };

describe('a red-team child run before an action that needs approval', () => {
  it('looks for breach paths, and its finding is kept and shown with the approval', async () => {
    const { db, sessionId, run } = await sessionWith(ZOO, LEARN);
    await askBeforeQuerying(db, sessionId);
    const finding = { breachPaths: [{ path: 'the lookup could reveal what the user keeps private', severity: 'low' }] };
    const { service, cycles, engine } = await run([{ text: JSON.stringify({ kind: 'result', result: finding }) }], 3);
    const held = cycles.find((record) => record.outcome === 'waiting')!;
    expect(held.children).toEqual([
      expect.objectContaining({
        posture: 'red-team',
        purpose: 'look for breach paths in kg_query before it waits for approval',
        result: finding,
        summary: 'low: the lookup could reveal what the user keeps private',
        settings: { temperature: 0.7, topP: 0.9, maxTokens: 512 },
      }),
    ]);
    expect(engine.requests[0]!.messages.at(-1)!.content).toContain(
      "The user's pattern ask_before_querying holds it for approval: Queries wait for your approval.",
    );
    const { approvals } = await service.approvalList({ sessionId });
    expect(approvals).toMatchObject([{ status: 'pending', tool: 'kg_query', redTeam: finding }]);

    // The finding and the child's record travel with the session's snapshot.
    const snapshot = await exportSnapshot(db, sessionId);
    const parsed = parseSnapshot(JSON.parse(JSON.stringify(snapshot)));
    if (!parsed.ok) throw new Error(parsed.error.map(describeProblem).join('\n'));
    const elsewhere = new AnimaDatabase('elsewhere', freshIndexedDb());
    await restoreSnapshot(elsewhere, parsed.value);
    const restored = await exportSnapshot(elsewhere, sessionId);
    expect(restored.approvals[0]!.redTeam).toEqual(finding);
    expect(restored.cycles.find((record) => record.outcome === 'waiting')!.children).toEqual(held.children);
  });

  it("keeps the red team's bottleneck with the approval when it gives no valid finding", async () => {
    const { db, sessionId, run } = await sessionWith(ZOO, LEARN);
    await askBeforeQuerying(db, sessionId);
    const unranked = {
      text: JSON.stringify({ kind: 'result', result: { breachPaths: [{ path: 'x', severity: 'dire' }] } }),
    };
    const { service } = await run([unranked, unranked, unranked], 3);
    const { approvals } = await service.approvalList({ sessionId });
    expect(approvals[0]!.redTeam).toMatchObject({ bottleneck: { kind: 'invalid_output' } });
    expect(approvals[0]!.redTeam!.breachPaths).toBeUndefined();
  });

  it('asks for approval without a red team when no model is bound', async () => {
    const { db, sessionId, run } = await sessionWith(ZOO, LEARN);
    await askBeforeQuerying(db, sessionId);
    const { service, cycles } = await run(undefined, 3);
    const { approvals } = await service.approvalList({ sessionId });
    expect(approvals).toMatchObject([{ status: 'pending', tool: 'kg_query' }]);
    expect(approvals[0]!.redTeam).toBeUndefined();
    expect(cycles.every((record) => record.children === undefined)).toBe(true);
  });
});
