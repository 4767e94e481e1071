import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { loadGraph } from '#core/store/kg-repository.ts';
import { runCycle } from '#core/agent/run-cycle.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { type ScriptedReply, ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { ScriptedWebLlmHost } from '#core/testing/scripted-webllm-host.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { defineTool } from '#core/tools/tool.ts';
import { synthesizeTriple } from '#core/tools/synthesize-triple.ts';
import { systemPromptOf } from '#core/tools/model-facts.ts';
import { engineProvider, messageText } from './chat-engine.ts';
import { LOST_WHILE_IDLE } from './engine-keeper.ts';
import { UsageBudget } from './usage-budget.ts';
import type { InferenceSettings } from './inference-settings.ts';

const FACTS = 'Mars,is-a,Planet\nMars,orbits,Sun\nPlanet,is-a,CelestialBody\nSun,is-a,Star\n';
const ZORBLAX_IS_A_MOON = JSON.stringify({
  kind: 'final',
  answer: 'Zorblax is a moon of Kepler.',
  triples: [{ subject: 'Zorblax', predicate: 'is-a', object: 'Moon', confidence: 0.9 }],
});
/** A reviewer child run's verdict: the facts it is shown hold. */
const REVIEWER_ACCEPTS = JSON.stringify({ kind: 'result', result: { verdict: 'accept', problems: [] } });
const WEBLLM: InferenceSettings = {
  provider: 'webllm',
  webllmModel: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
  limits: {},
  confidenceCap: 0.7,
};

/** A session with a few facts and the goal "What is Zorblax", whose runs bind a scripted engine in place of WebLLM's. */
async function zorblaxSession(script: ScriptedReply[], options: { loads?: boolean } = {}) {
  const engine = new ScriptedEngine(script);
  const host = new ScriptedWebLlmHost(engine);
  host.cached.add(WEBLLM.webllmModel!);
  const { db, service } = testService({
    db: new AnimaDatabase('anima', freshIndexedDb()),
    providerReach: options.loads === false ? {} : { webLlm: host },
  });
  const loaded = host.loads;
  const { session } = await service.open({});
  const sessionId = session.id;
  await service.kgImport({ sessionId, operationId: 'op', fileName: 'mars.csv', data: FACTS });
  await service.goalAdd({ sessionId, description: 'What is Zorblax', criteria: 'Zorblax is-a ?x' });
  return { db, service, sessionId, engine, host, loaded };
}

async function run(
  service: Awaited<ReturnType<typeof zorblaxSession>>['service'],
  sessionId: string,
  maxCycles: number,
  inference: InferenceSettings | undefined = WEBLLM,
) {
  const cycles: CycleRecord[] = [];
  const result = await service.agentRun(
    { sessionId, operationId: 'run', maxCycles, ...(inference ? { inference } : {}) },
    (record) => cycles.push(record),
  );
  return { result, cycles };
}

describe('a language model in the loop', () => {
  it('reaches a goal the symbolic engine cannot: reason asks the model, whose fact is stored capped at 0.7 with the model as provenance', async () => {
    const { db, service, sessionId, engine, host, loaded } = await zorblaxSession([{ text: ZORBLAX_IS_A_MOON }]);
    const { result, cycles } = await run(service, sessionId, 5);
    expect(loaded).toEqual(['SmolLM2-360M-Instruct-q4f32_1-MLC']);
    expect(cycles.map((record) => [record.tool, record.outcome])).toEqual([
      ['kg_query', 'no-change'],
      ['reason', 'completed'],
    ]);
    expect(cycles[1]!.input).toEqual({ mode: 'model', question: 'What is Zorblax' });
    // Tokens as the engine counted them (a word each).
    const [request] = engine.requests;
    const promptWords = request!.messages.reduce(
      (sum, message) => sum + messageText(message.content).split(/\s+/).filter(Boolean).length,
      0,
    );
    const completionWords = ZORBLAX_IS_A_MOON.split(/\s+/).length;
    expect(cycles[1]!.model).toEqual({
      provider: 'webllm',
      model: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
      requests: 1,
      promptTokens: promptWords,
      completionTokens: completionWords,
      steps: [{ promptTokens: promptWords, completionTokens: completionWords }],
    });
    expect(result).toMatchObject({
      ok: true,
      stoppedBecause: 'no-active-goal',
      usage: {
        provider: 'webllm',
        model: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
        requests: 1,
        toolCalls: 2,
        inputTokens: promptWords,
      },
    });
    // The system message is the run's stable prefix; the schema constrains decoding.
    expect(request!.messages[0]).toEqual({ role: 'system', content: systemPromptOf(TOOLS) });
    expect(request!.messages[1]!.content).toContain('Goal: What is Zorblax');
    expect(JSON.parse(request!.response_format!.schema!)).toMatchObject({ oneOf: expect.any(Array) });
    // One of the schemas the engine prepared at its load, so the first step compiles no grammar.
    expect(host.prepared).toEqual([expect.arrayContaining([request!.response_format!.schema])]);

    const answer = await service.kgQuery({ sessionId, query: 'Zorblax is-a ?x', limit: 10 });
    expect(answer.ok && answer.rows.map((row) => row.x!.label)).toEqual(['Moon']);
    const graph = await loadGraph(db, sessionId);
    const [zorblax, isA, moon] = ['Zorblax', 'is-a', 'Moon'].map((label) => graph.symbolByLabel(label)!.id);
    expect(graph.triple(zorblax!, isA!, moon!)?.confidence).toBe(0.7);
    const provenance = await db.provenance
      .where('sessionId')
      .equals(sessionId)
      .filter((record) => record.kind === 'model')
      .toArray();
    expect(provenance).toHaveLength(1);
    expect(provenance[0]).toMatchObject({
      confidence: 0.7,
      cycle: 2,
      sources: ['model:webllm/SmolLM2-360M-Instruct-q4f32_1-MLC', 'tool:reason', 'goal:1'],
    });
    expect(provenance[0]!.detail).toBe(
      'Zorblax is-a Moon, said by SmolLM2-360M-Instruct-q4f32_1-MLC (webllm) for "What is Zorblax": Zorblax is a moon of Kepler.',
    );
  });

  it("a model's fact stays at the cap until something else confirms it: the same fact imported from a file raises it, both sources kept", async () => {
    const { db, service, sessionId } = await zorblaxSession([{ text: ZORBLAX_IS_A_MOON }]);
    await run(service, sessionId, 5);
    const confidence = async () => {
      const graph = await loadGraph(db, sessionId);
      const [zorblax, isA, moon] = ['Zorblax', 'is-a', 'Moon'].map((label) => graph.symbolByLabel(label)!.id);
      return graph.triple(zorblax!, isA!, moon!)?.confidence;
    };
    expect(await confidence()).toBe(0.7);
    await service.kgImport({ sessionId, operationId: 'confirm', fileName: 'confirm.csv', data: 'Zorblax,is-a,Moon\n' });
    expect(await confidence()).toBe(1);
    const provenance = await db.provenance.where('sessionId').equals(sessionId).toArray();
    expect(provenance.filter((record) => record.kind === 'model').map((record) => record.detail)).toEqual([
      expect.stringMatching(/^Zorblax is-a Moon, said by /),
    ]);
    expect(provenance.at(-1)).toMatchObject({
      kind: 'import',
      sources: ['confirm.csv'],
      detail: 'csv import of confirm.csv: 1 statements, 0 new triples, 1 raised in confidence',
    });
  });

  it('without a model the same goal cannot be reached, and reason says why it is not a candidate', async () => {
    const { service, sessionId } = await zorblaxSession([]);
    const { result, cycles } = await run(service, sessionId, 4, { provider: 'none', limits: {}, confidenceCap: 0.7 });
    expect(result).toMatchObject({
      ok: true,
      stoppedBecause: 'max-cycles',
      usage: { provider: 'none', requests: 0, toolCalls: 4 },
    });
    expect(cycles.every((record) => record.outcome !== 'completed' && record.model === undefined)).toBe(true);
    expect(cycles[0]!.candidates.find((candidate) => candidate.tool === 'reason')?.skippedBecause).toBe(
      'nothing to prove: no transitive pattern and fewer than two goal symbols, and no model is bound',
    );
  });

  it('re-asks after invalid output with the problems fed back, and counts every request', async () => {
    const { service, sessionId, engine } = await zorblaxSession([
      {
        text: '{"kind":"final","answer":"a moon","triples":[{"subject":"agent:self","predicate":"is-a","object":"Moon","confidence":2}]}',
      },
      { text: ZORBLAX_IS_A_MOON },
    ]);
    const { cycles } = await run(service, sessionId, 5);
    expect(cycles.at(-1)).toMatchObject({ tool: 'reason', outcome: 'completed', model: { requests: 2 } });
    const feedback = engine.requests[1]!.messages.at(-1)!.content;
    expect(feedback).toContain('at triples.0.subject: names starting with "agent:" are the agent\'s own');
    expect(feedback).toContain('at triples.0.confidence: Too big');
  });

  it('ends in a truthful bottleneck when the output stays invalid, and stores nothing the model said', async () => {
    const { db, service, sessionId } = await zorblaxSession([
      { text: 'Zorblax is a moon.' },
      { text: '{"kind":"final"}' },
      { text: '[]' },
    ]);
    const { cycles } = await run(service, sessionId, 2);
    expect(cycles[1]).toMatchObject({
      tool: 'reason',
      outcome: 'failed',
      model: { requests: 3, bottleneck: { kind: 'invalid_output' } },
    });
    expect(cycles[1]!.act).toContain('reason asked the model and got no answer: invalid output (3 answers, none valid');
    expect(
      await db.provenance
        .where('sessionId')
        .equals(sessionId)
        .filter((record) => record.kind === 'model')
        .count(),
    ).toBe(0);
  });

  it('records the bottleneck a model states (missing input) instead of an answer', async () => {
    const { service, sessionId } = await zorblaxSession([
      {
        text: JSON.stringify({
          kind: 'bottleneck',
          bottleneck: { kind: 'missing_input', detail: 'nothing is known about Zorblax' },
        }),
      },
    ]);
    const { cycles } = await run(service, sessionId, 2);
    expect(cycles[1]).toMatchObject({
      tool: 'reason',
      model: { requests: 1, bottleneck: { kind: 'missing_input', detail: 'nothing is known about Zorblax' } },
    });
    expect(cycles[1]!.outcome).not.toBe('completed');
  });

  it('stops the run when a limit is spent, saying which', async () => {
    const { service, sessionId } = await zorblaxSession([{ text: 'not json' }, { text: ZORBLAX_IS_A_MOON }]);
    const { result, cycles } = await run(service, sessionId, 10, { ...WEBLLM, limits: { requests: 1 } });
    expect(cycles[1]).toMatchObject({
      tool: 'reason',
      model: {
        requests: 1,
        bottleneck: { kind: 'budget_exhausted', detail: "the run's budget is spent: 1 request, the limit is 1" },
      },
    });
    expect(result).toMatchObject({
      ok: true,
      stoppedBecause: 'budget',
      budgetSpent: { limit: 'requests', used: 1, max: 1 },
      cyclesRun: 2,
      usage: { requests: 1 },
    });
  });

  it('falls back to the symbolic engine when the GPU device is lost, and the session goes on', async () => {
    const { service, sessionId, engine } = await zorblaxSession([{ fail: 'GPUDeviceLostInfo: device was lost' }]);
    const { result, cycles } = await run(service, sessionId, 4);
    expect(cycles[1]).toMatchObject({ tool: 'reason', model: { bottleneck: { kind: 'dependency_unavailable' } } });
    expect(result).toMatchObject({ ok: true, stoppedBecause: 'max-cycles', cyclesRun: 4 });
    expect(result.ok && result.usage.fellBack?.kind).toBe('stopped-answering');
    expect(result.ok && result.usage.fellBack?.because).toMatch(
      /^webllm \(SmolLM2-360M-Instruct-q4f32_1-MLC\): the GPU device was lost/,
    );
    // No further call: reason is no candidate without a model.
    expect(engine.requests).toHaveLength(1);
    expect(cycles[3]!.candidates.find((candidate) => candidate.tool === 'reason')?.skippedBecause).toMatch(
      /no model is bound/,
    );
  });

  it("keeps its model when a question is longer than the model's context window: that call ends in a budget bottleneck, and the next is asked", async () => {
    const overflow =
      'Prompt tokens exceed context window size: number of prompt tokens: 4200; context window size: 4096';
    // Between the two, the failed plan's successor opens with an expander's options.
    const expanded = JSON.stringify({
      kind: 'result',
      result: {
        options: [
          { option: 'reason again with fewer facts', why: 'the prompt was too long' },
          { option: 'gap_analysis on Zorblax', why: 'find what is missing' },
        ],
      },
    });
    const { service, sessionId, engine } = await zorblaxSession([
      { fail: overflow },
      { text: expanded },
      { text: ZORBLAX_IS_A_MOON },
    ]);
    const { result, cycles } = await run(service, sessionId, 6);
    const asked = cycles.filter((record) => record.model);
    expect(asked[0]).toMatchObject({
      tool: 'reason',
      outcome: 'failed',
      model: {
        bottleneck: {
          kind: 'budget_exhausted',
          detail: expect.stringContaining("the prompt is longer than the model's context window"),
        },
      },
    });
    expect(asked[1]).toMatchObject({ tool: 'reason', outcome: 'completed' });
    expect(cycles.flatMap((record) => record.children ?? []).map((child) => child.posture)).toEqual(['expander']);
    expect(engine.requests).toHaveLength(3);
    expect(result).toMatchObject({ ok: true, stoppedBecause: 'no-active-goal', usage: { provider: 'webllm' } });
    expect(result.ok && result.usage.fellBack).toBeUndefined();
  });

  it('keeps its model when the engine cannot build the grammar of an answer: the question is asked again without it', async () => {
    const { service, sessionId, engine } = await zorblaxSession([
      { fail: 'Failed to initialize the grammar matcher for response format `grammar`: invalid rule' },
      { text: ZORBLAX_IS_A_MOON },
    ]);
    const { result, cycles } = await run(service, sessionId, 5);
    expect(cycles[1]).toMatchObject({ tool: 'reason', outcome: 'completed', model: { requests: 1 } });
    expect(engine.requests.map((request) => request.response_format?.type)).toEqual(['json_object', undefined]);
    expect(result.ok && result.usage.fellBack).toBeUndefined();
  });

  it('loads its model again when the GPU lost it while the app was idle, keeps it, and says so', async () => {
    const { service, sessionId, host } = await zorblaxSession([
      { text: ZORBLAX_IS_A_MOON },
      { text: ZORBLAX_IS_A_MOON },
    ]);
    await run(service, sessionId, 1);
    host.loseModels();
    const { result, cycles } = await run(service, sessionId, 4);
    expect(host.loads).toEqual([WEBLLM.webllmModel, WEBLLM.webllmModel]);
    expect(cycles.find((record) => record.model)).toMatchObject({ tool: 'reason', outcome: 'completed' });
    expect(result).toMatchObject({ ok: true, usage: { provider: 'webllm', reloaded: LOST_WHILE_IDLE } });
    expect(result.ok && result.usage.fellBack).toBeUndefined();
    expect(host.liveEngines).toBe(1);
  });

  it('runs on the symbolic engine, and says why, when the chosen engine cannot be had here', async () => {
    const { service, sessionId } = await zorblaxSession([], { loads: false });
    const { result } = await run(service, sessionId, 1);
    expect(result).toMatchObject({
      ok: true,
      cyclesRun: 1,
      usage: {
        provider: 'none',
        fellBack: { kind: 'not-here', because: 'WebLLM runs only in the browser, on WebGPU' },
      },
    });
  });

  it('a cancel during a model call ends the run and commits nothing of that cycle', async () => {
    const { db, service, sessionId, engine } = await zorblaxSession([{ text: ZORBLAX_IS_A_MOON, delayMs: 10_000 }]);
    const cycles: CycleRecord[] = [];
    const running = service.agentRun({ sessionId, operationId: 'slow', maxCycles: 5, inference: WEBLLM }, (record) =>
      cycles.push(record),
    );
    await expect.poll(() => engine.requests.length).toBe(1);
    await service.cancel({ operationId: 'slow' });
    expect(await running).toMatchObject({ ok: true, stoppedBecause: 'cancelled', cyclesRun: 1 });
    expect(engine.interrupts).toBe(1);
    expect((await db.sessions.get(sessionId))!.cycle).toBe(1);
    expect(await db.cycles.count()).toBe(1);
  });

  it("synthesize_triple asks the model for new facts about the goal's symbol, capped", async () => {
    const { db, service, sessionId } = await zorblaxSession([]);
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano', priority: 255 });
    const engine = new ScriptedEngine([
      {
        text: JSON.stringify({
          kind: 'final',
          answer: 'Mars has the volcano Olympus Mons.',
          triples: [
            { subject: 'OlympusMons', predicate: 'is-a', object: 'Volcano', confidence: 0.95 },
            { subject: 'OlympusMons', predicate: 'part-of', object: 'Mars', confidence: 0.5 },
          ],
        }),
      },
      { text: REVIEWER_ACCEPTS },
    ]);
    const graph = await loadGraph(db, sessionId);
    const provider = engineProvider(engine, { name: 'webllm', model: 'tiny' });
    const budget = new UsageBudget();
    const record = await runCycle({
      db,
      sessionId,
      graph,
      similarity: new SimilarityIndex(graph),
      now: () => 5,
      documents: [],
      tools: [defineTool(synthesizeTriple)],
      model: { provider, budget, system: systemPromptOf(TOOLS), confidenceCap: 0.7 },
    });
    expect(record).toMatchObject({
      tool: 'synthesize_triple',
      input: { by: 'model' },
      outcome: 'completed',
      model: { requests: 1 },
    });
    expect(engine.requests[0]!.messages[1]!.content).toContain('Propose new facts about Mars');
    const stored = await db.provenance
      .where('sessionId')
      .equals(sessionId)
      .filter((entry) => entry.kind === 'model')
      .toArray();
    expect(stored.map((entry) => entry.confidence).sort()).toEqual([0.5, 0.7]);
    // A reviewer checked them first, on the run's budget: its request counts with the tool's.
    expect(record!.children).toMatchObject([{ posture: 'reviewer', summary: 'accepted' }]);
    expect(stored.every((entry) => entry.detail.endsWith('(a reviewer accepted it)'))).toBe(true);
    expect(budget.totals.requests).toBe(2);
  });
});

describe('text_ingest with a model', () => {
  it("adds what the model reads in a document to the sentences' facts, each with its own provenance", async () => {
    const read = JSON.stringify({
      kind: 'final',
      answer: 'Zorblax is an icy moon with a nine-day orbit.',
      triples: [
        { subject: 'Zorblax', predicate: 'covered-in', object: 'Ice', confidence: 0.85 },
        { subject: 'Zorblax', predicate: 'orbit-period', object: 'NineDays', confidence: 0.6 },
        { subject: 'Zorblax', predicate: 'is-a', object: 'Moon', confidence: 0.9 },
      ],
    });
    const { db, service, sessionId, engine, host } = await zorblaxSession([{ text: read }, { text: REVIEWER_ACCEPTS }]);
    await service.goalUpdate({ sessionId, goalId: 1, status: 'failed' });
    await service.documentImport({
      sessionId,
      fileName: 'zorblax.txt',
      text: 'Zorblax is a moon. Its surface is covered in ice, and its orbit takes nine days.',
    });
    await service.goalAdd({ sessionId, description: 'Learn about Zorblax', criteria: 'zorblax' });
    const { cycles } = await run(service, sessionId, 1);
    expect(cycles[0]).toMatchObject({
      tool: 'text_ingest',
      input: { by: 'model' },
      outcome: 'completed',
      model: { requests: 1 },
    });
    expect(cycles[0]!.act).toContain('zorblax.txt: 1 facts from its sentences, 3 read by the model, 3 about the goal');
    expect(cycles[0]!.children).toMatchObject([{ posture: 'reviewer', summary: 'accepted' }]);
    expect(engine.requests[0]!.messages[1]!.content).toContain('Its surface is covered in ice');
    expect(host.prepared).toEqual([expect.arrayContaining([engine.requests[0]!.response_format!.schema])]);
    const provenance = await db.provenance
      .where('sessionId')
      .equals(sessionId)
      .filter((record) => record.kind === 'model' || record.kind === 'extraction')
      .toArray();
    // The sentence keeps "is-a Moon" (0.8, extraction); the model's two others are its own, capped at 0.7.
    expect(provenance.map((record) => [record.kind, record.confidence]).sort()).toEqual([
      ['extraction', 0.8],
      ['model', 0.6],
      ['model', 0.7],
    ]);
  });
});

describe('the inference settings', () => {
  it('keep the API key on the device: never returned, kept when not given, removed when empty', async () => {
    const { service } = testService();
    expect(await service.inferenceGet({})).toEqual({ provider: 'none', limits: {}, confidenceCap: 0.7 });
    const endpoint = { baseUrl: 'http://localhost:8080/v1', model: 'llama-3' };
    const saved = await service.inferenceSet({
      settings: {
        provider: 'openai-compatible',
        openAi: { ...endpoint, apiKey: 'sk-secret' },
        limits: { requests: 20 },
      },
    });
    expect(saved).toEqual({
      ok: true,
      settings: {
        provider: 'openai-compatible',
        openAi: { ...endpoint, apiKeyStored: true, baseUrlCredentialsStored: false },
        limits: { requests: 20 },
        confidenceCap: 0.7,
      },
    });
    expect(JSON.stringify(await service.inferenceGet({}))).not.toContain('sk-secret');
    await service.inferenceSet({
      settings: { provider: 'openai-compatible', openAi: { ...endpoint, model: 'llama-3.1' } },
    });
    expect((await service.inferenceGet({})).openAi).toEqual({
      ...endpoint,
      model: 'llama-3.1',
      apiKeyStored: true,
      baseUrlCredentialsStored: false,
    });
    await service.inferenceSet({ settings: { provider: 'openai-compatible', openAi: { ...endpoint, apiKey: '' } } });
    expect((await service.inferenceGet({})).openAi).toEqual({
      ...endpoint,
      apiKeyStored: false,
      baseUrlCredentialsStored: false,
    });
  });

  it('show a base URL with its credentials masked, keep them when it is saved as shown, and drop them when they are taken out', async () => {
    const { db, service } = testService();
    const baseUrl = 'http://ada:pw-secret-77@llm.example:8080/v1?key=qk-secret-31';
    const shownUrl = 'http://[redacted]@llm.example:8080/v1?key=[redacted]';
    const saved = await service.inferenceSet({
      settings: { provider: 'openai-compatible', openAi: { baseUrl, model: 'tiny' } },
    });
    expect(saved).toMatchObject({
      ok: true,
      settings: { openAi: { baseUrl: shownUrl, baseUrlCredentialsStored: true } },
    });
    expect(JSON.stringify(await service.inferenceGet({}))).not.toMatch(/secret/);
    // Saved again as the form shows it: the stored address keeps its credentials.
    await service.inferenceSet({
      settings: { provider: 'openai-compatible', openAi: { baseUrl: shownUrl, model: 'tiny-2' } },
    });
    expect((await db.settings.get('inference'))?.value).toMatchObject({ openAi: { baseUrl, model: 'tiny-2' } });
    // Edited around the mask: refused, since the mask itself would be sent; nothing changes.
    expect(
      await service.inferenceSet({
        settings: {
          provider: 'openai-compatible',
          openAi: { baseUrl: shownUrl.replace('llm.example', 'llm2.example'), model: 'tiny-2' },
        },
      }),
    ).toEqual({
      ok: false,
      problems: [
        {
          path: 'openAi.baseUrl',
          message:
            'the base URL holds [redacted] where a credential was: type the credential again, or keep the address as it was shown',
        },
      ],
    });
    expect((await db.settings.get('inference'))?.value).toMatchObject({ openAi: { baseUrl } });
    // Taken out of the address: what is given is stored.
    await service.inferenceSet({
      settings: { provider: 'openai-compatible', openAi: { baseUrl: 'http://llm.example:8080/v1', model: 'tiny-2' } },
    });
    expect((await service.inferenceGet({})).openAi).toEqual({
      baseUrl: 'http://llm.example:8080/v1',
      model: 'tiny-2',
      apiKeyStored: false,
      baseUrlCredentialsStored: false,
    });
    expect((await db.settings.get('inference'))?.value).toMatchObject({
      openAi: { baseUrl: 'http://llm.example:8080/v1' },
    });
  });

  it('refuse what is not complete or not valid, naming the field, and change nothing', async () => {
    const { service } = testService();
    expect(await service.inferenceSet({ settings: { provider: 'openai-compatible' } })).toEqual({
      ok: false,
      problems: [{ path: 'openAi', message: 'give the endpoint: its base URL and model' }],
    });
    expect(
      await service.inferenceSet({
        settings: {
          provider: 'openai-compatible',
          openAi: { baseUrl: 'ftp://x', model: 'm' },
          limits: { requests: 0 },
        },
      }),
    ).toMatchObject({
      ok: false,
      problems: [
        { path: 'openAi.baseUrl', message: 'the base URL must be an http(s) address, like http://localhost:8080/v1' },
        { path: 'limits.requests' },
      ],
    });
    expect(await service.inferenceSet({ settings: { provider: 'webllm' } })).toEqual({
      ok: false,
      problems: [{ path: 'webllmModel', message: 'choose a WebLLM model' }],
    });
    expect(await service.inferenceGet({})).toEqual({ provider: 'none', limits: {}, confidenceCap: 0.7 });
  });

  it('check the chosen model with one structured call', async () => {
    const engine = new ScriptedEngine([{ text: '{"town":"Paris"}' }, { text: '{"city":"Paris"}' }]);
    const host = new ScriptedWebLlmHost(engine);
    host.cached.add('SmolLM2-360M-Instruct-q4f32_1-MLC');
    const { service } = testService({ providerReach: { webLlm: host } });
    expect(await service.inferenceCheck({ operationId: 'check' })).toEqual({
      ok: false,
      problems: [{ message: 'no model is chosen: the agent runs on the symbolic engine alone' }],
    });
    await service.inferenceSet({ settings: { provider: 'webllm', webllmModel: 'SmolLM2-360M-Instruct-q4f32_1-MLC' } });
    expect(await service.inferenceCheck({ operationId: 'check' })).toMatchObject({
      ok: true,
      check: { provider: 'webllm', model: 'SmolLM2-360M-Instruct-q4f32_1-MLC', answer: 'Paris', attempts: 2 },
    });
  });
});

describe('a model calling tools while it reasons', () => {
  const toolCall = (input: unknown) => ({ text: JSON.stringify({ kind: 'tool_call', tool: 'kg_query', input }) });

  it('sends an invalid call back with its problems, runs the valid one, and reads its result before answering', async () => {
    const { service, sessionId, engine } = await zorblaxSession([
      toolCall({ pattern: 5 }),
      toolCall({ pattern: '?x is-a Planet' }),
      { text: ZORBLAX_IS_A_MOON },
    ]);
    const { result, cycles } = await run(service, sessionId, 5);
    expect(cycles.map((record) => [record.tool, record.outcome])).toEqual([
      ['kg_query', 'no-change'],
      ['reason', 'completed'],
    ]);
    // The invalid input was answered with what is wrong, in the same step (a retry of the call).
    expect(engine.requests[1]!.messages.at(-1)!.content).toContain(
      'at input.pattern: kg_query does not take this input',
    );
    // The next step continues from the first request and the valid call, word for word; the retry's
    // turns are left out. Then the tool's result.
    const next = engine.requests[2]!.messages;
    expect(next.slice(0, 2)).toEqual(engine.requests[0]!.messages);
    expect(next[2]).toEqual({ role: 'assistant', content: toolCall({ pattern: '?x is-a Planet' }).text });
    expect(next).toHaveLength(4);
    expect(next[3]!.role).toBe('user');
    expect(next[3]!.content).toContain('You called tool=kg_query');
    expect(next[3]!.content).toContain('Mars');
    expect(cycles[1]!.act).toContain('consulted kg_query');
    // Each request's tokens, in order: the invalid call, its retry, the answer after the result.
    expect(cycles[1]!.model!.steps!.map((step) => step.promptTokens)).toEqual(
      engine.requests.map((request) =>
        request.messages.reduce(
          (sum, message) => sum + messageText(message.content).split(/\s+/).filter(Boolean).length,
          0,
        ),
      ),
    );
    expect(cycles[1]!.model).toMatchObject({ requests: 3 });
    // The model's tool call draws from the run's budget like the cycles' own.
    expect(result).toMatchObject({ ok: true, usage: { requests: 3, toolCalls: 3 } });
    expect((await service.kgQuery({ sessionId, query: 'Zorblax is-a ?x', limit: 10 })).ok).toBe(true);
  });

  it('continues the conversation between steps, so WebLLM keeps its KV cache: each request is the one before, its answer, and the result', async () => {
    const { service, sessionId, engine } = await zorblaxSession([
      toolCall({ pattern: '?x is-a Planet' }),
      toolCall({ pattern: 'Mars ?p ?o' }),
      { text: ZORBLAX_IS_A_MOON },
    ]);
    await run(service, sessionId, 5);
    expect(engine.requests).toHaveLength(3);
    for (const index of [1, 2]) {
      const before = engine.requests[index - 1]!.messages;
      const request = engine.requests[index]!.messages;
      expect(request.slice(0, before.length)).toEqual(before);
      expect(request[before.length]).toEqual({
        role: 'assistant',
        content: toolCall(index === 1 ? { pattern: '?x is-a Planet' } : { pattern: 'Mars ?p ?o' }).text,
      });
      expect(request).toHaveLength(before.length + 2);
    }
  });

  it("stops a model's tool calls at the run's tool-call limit, shared with the cycles' own, with a budget bottleneck", async () => {
    const { service, sessionId, engine } = await zorblaxSession([
      toolCall({ pattern: '?x is-a Planet' }),
      toolCall({ pattern: '?x is-a Moon' }),
    ]);
    const { result, cycles } = await run(service, sessionId, 5, { ...WEBLLM, limits: { toolCalls: 2 } });
    // The first cycle's kg_query is one call, the model's kg_query the second: the model is not asked again.
    expect(engine.requests).toHaveLength(1);
    expect(cycles[1]).toMatchObject({
      tool: 'reason',
      outcome: 'failed',
      model: {
        bottleneck: { kind: 'budget_exhausted', detail: "the run's budget is spent: 2 tool calls, the limit is 2" },
      },
    });
    expect(result).toMatchObject({ ok: true, stoppedBecause: 'budget', usage: { toolCalls: 3 } });
  });

  it('runs no tool a model asks for once its request spent the budget', async () => {
    const { service, sessionId } = await zorblaxSession([toolCall({ pattern: '?x is-a Planet' })]);
    const { result, cycles } = await run(service, sessionId, 5, { ...WEBLLM, limits: { outputTokens: 1 } });
    expect(cycles[1]).toMatchObject({
      tool: 'reason',
      outcome: 'failed',
      model: {
        bottleneck: { kind: 'budget_exhausted', detail: expect.stringContaining('output tokens, the limit is 1') },
      },
    });
    // The two cycles' own tool calls, and not the model's.
    expect(result).toMatchObject({ ok: true, stoppedBecause: 'budget', usage: { toolCalls: 2 } });
  });

  it('refuses a call the shadow vetoes as a policy block, without retrying it; asking again ends in a policy_block bottleneck', async () => {
    const forbidden = { pattern: '?x forbidden-lore ?y' };
    const { service, sessionId, engine } = await zorblaxSession([toolCall(forbidden), toolCall(forbidden)]);
    await service.personaCreate({ fields: { name: 'Keeper', summary: 'Keeps secrets.' } });
    await service.guardrailCreate({
      fields: { name: 'no-lore', description: 'Never look up forbidden lore.', triggers: ['forbidden-lore'] },
    });
    await service.personaLink({ persona: 'Keeper', kind: 'guardrail', name: 'no-lore' });
    await service.sessionPersonaSet({ sessionId, persona: 'Keeper' });
    const { cycles } = await run(service, sessionId, 2);
    expect(engine.requests).toHaveLength(2);
    expect(engine.requests[1]!.messages.at(-1)!.content).toContain(
      "(refused: policy block, do not call it again): the agent's shadow blocks this (guardrail: no-lore",
    );
    expect(cycles[1]).toMatchObject({
      tool: 'reason',
      outcome: 'failed',
      model: { requests: 2, bottleneck: { kind: 'policy_block' } },
    });
  });
});
