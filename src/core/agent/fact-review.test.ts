import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import type { InferenceSettings } from '#core/llm/inference-settings.ts';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import { engineProvider } from '#core/llm/chat-engine.ts';
import { UsageBudget } from '#core/llm/usage-budget.ts';
import { loadGraph } from '#core/store/kg-repository.ts';
import { type ScriptedReply, ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { ScriptedWebLlmHost } from '#core/testing/scripted-webllm-host.ts';
import { testService } from '#core/testing/test-database.ts';
import { systemPromptOf } from '#core/tools/model-facts.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { synthesizeTriple } from '#core/tools/synthesize-triple.ts';
import { defineTool } from '#core/tools/tool.ts';
import { runCycle } from './run-cycle.ts';

/** The model's proposal for "Learn about Mars": a volcano on it. */
const OLYMPUS = JSON.stringify({
  kind: 'final',
  answer: 'Mars has the volcano Olympus Mons.',
  triples: [{ subject: 'OlympusMons', predicate: 'part-of', object: 'Mars', confidence: 0.9 }],
});
const WEBLLM: InferenceSettings = {
  provider: 'webllm',
  webllmModel: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
  limits: {},
  confidenceCap: 0.7,
};
const verdict = (value: 'accept' | 'reject', problems: string[] = []): ScriptedReply => ({
  text: JSON.stringify({ kind: 'result', result: { verdict: value, problems } }),
});

/** One cycle of a session about Mars whose bound model answers with `script`; synthesize_triple is the one tool. */
async function cycleWith(script: ScriptedReply[], options: { maxRequests?: number } = {}) {
  const { db, service } = testService();
  const { session } = await service.open({});
  const sessionId = session.id;
  await service.kgImport({ sessionId, operationId: 'op', fileName: 'mars.csv', data: 'Mars,is-a,Planet\n' });
  await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano' });
  const engine = new ScriptedEngine(script);
  const graph = await loadGraph(db, sessionId);
  const budget = new UsageBudget(options.maxRequests ? { requests: options.maxRequests } : {});
  const record = await runCycle({
    db,
    sessionId,
    graph,
    similarity: new SimilarityIndex(graph),
    now: () => 5,
    documents: [],
    tools: [defineTool(synthesizeTriple)],
    model: {
      provider: engineProvider(engine, { name: 'webllm', model: 'tiny' }),
      budget,
      system: systemPromptOf(TOOLS),
      confidenceCap: 0.7,
    },
  });
  const stored = await db.provenance.where('sessionId').equals(sessionId).toArray();
  return { record: record!, engine, budget, graph, byKind: (kind: string) => stored.filter((p) => p.kind === kind) };
}

describe("a reviewer checks a model's facts before they are stored", () => {
  it('accepted: stored, the review in their provenance, the reviewer a child run on the same budget', async () => {
    const { record, engine, budget, graph, byKind } = await cycleWith([{ text: OLYMPUS }, verdict('accept')]);
    expect(record).toMatchObject({ tool: 'synthesize_triple', outcome: 'advanced' });
    expect(record.children).toMatchObject([
      { posture: 'reviewer', summary: 'accepted', usage: { requests: 1 }, result: { verdict: 'accept' } },
    ]);
    // The reviewer is shown the facts by name, in its own context (its posture's system prompt).
    const asked = engine.requests[1]!.messages;
    expect(asked[0]!.content).toContain('You are a reviewer');
    expect(asked.at(-1)!.content).toContain('- OlympusMons part-of Mars');
    expect(graph.symbolByLabel('OlympusMons')).toBeDefined();
    expect(byKind('model')).toMatchObject([
      {
        sources: expect.arrayContaining(['review:accepted by tiny']),
        detail: expect.stringMatching(/\(a reviewer accepted it\)$/),
      },
    ]);
    expect(budget.totals.requests).toBe(2);
  });

  it('rejected: not stored, and the cycle log says why', async () => {
    const { record, graph, byKind } = await cycleWith([
      { text: OLYMPUS },
      verdict('reject', ['Olympus Mons is a mountain on Mars, not a part of it']),
    ]);
    expect(record.outcome).toBe('failed');
    expect(record.act).toContain(
      'the 1 facts the model proposed are not stored: a reviewer rejected them (Olympus Mons is a mountain on Mars, not a part of it)',
    );
    expect(record.rejection).toMatchObject({ class: 'policy_block', required: 'facts a reviewer accepts' });
    expect(record.children).toMatchObject([{ posture: 'reviewer', result: { verdict: 'reject' } }]);
    expect(graph.symbolByLabel('OlympusMons')).toBeUndefined();
    expect(byKind('model')).toEqual([]);
  });

  it("rejected in a document's reading: the model's facts go, the sentences' facts stay", async () => {
    const reading = JSON.stringify({
      kind: 'final',
      answer: 'A volcano.',
      triples: [{ subject: 'OlympusMons', predicate: 'made-of', object: 'Cheese', confidence: 0.9 }],
    });
    const host = new ScriptedWebLlmHost(
      new ScriptedEngine([{ text: reading }, verdict('reject', ['nothing says cheese'])]),
    );
    host.cached.add(WEBLLM.webllmModel!);
    const { db, service } = testService({ providerReach: { webLlm: host } });
    const { session } = await service.open({});
    const sessionId = session.id;
    await service.documentImport({ sessionId, fileName: 'mars.txt', text: 'OlympusMons is a volcano.' });
    await service.goalAdd({ sessionId, description: 'Learn about OlympusMons', criteria: 'olympusmons' });
    const cycles: CycleRecord[] = [];
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 1, inference: WEBLLM }, (record) =>
      cycles.push(record),
    );
    expect(cycles[0]).toMatchObject({ tool: 'text_ingest', input: { by: 'model' } });
    expect(cycles[0]!.act).toContain('not stored: a reviewer rejected them (nothing says cheese)');
    const stored = await db.provenance.where('sessionId').equals(sessionId).toArray();
    expect(stored.filter((entry) => entry.kind === 'model')).toEqual([]);
    expect(stored.filter((entry) => entry.kind === 'extraction').map((entry) => entry.detail)).toEqual([
      'mars.txt: "OlympusMons is a volcano"',
    ]);
  });

  it('a reviewer that stops at a bottleneck: the facts are not stored, and the log says the reviewer stopped', async () => {
    // One request is the run's limit: the tool's call spends it, so the reviewer cannot ask.
    const { record, graph, byKind } = await cycleWith([{ text: OLYMPUS }], { maxRequests: 1 });
    expect(record.outcome).toBe('failed');
    expect(record.act).toMatch(
      /the 1 facts the model proposed are not stored: the reviewer stopped \(budget exhausted: .*\), and unchecked facts are not stored/,
    );
    expect(record.rejection).toMatchObject({ class: 'dependency_unavailable', retryable: true });
    expect(record.children).toMatchObject([{ posture: 'reviewer', bottleneck: { kind: 'budget_exhausted' } }]);
    expect(graph.symbolByLabel('OlympusMons')).toBeUndefined();
    expect(byKind('model')).toEqual([]);
  });
});
