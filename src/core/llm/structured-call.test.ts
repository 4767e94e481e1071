import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { engineProvider } from './chat-engine.ts';
import { structuredCall } from './structured-call.ts';
import { UsageBudget } from './usage-budget.ts';

const fact = z.object({
  subject: z.string().min(1),
  predicate: z.string().min(1),
  object: z.string().min(1),
  confidence: z.number().min(0).max(1),
});
const ask = { name: 'fact', system: 'You are Anima.', prompt: 'Give one fact about Mars.' };

function providerWith(
  script: ConstructorParameters<typeof ScriptedEngine>[0],
  options: ConstructorParameters<typeof ScriptedEngine>[1] = {},
) {
  const engine = new ScriptedEngine(script, options);
  return { engine, provider: engineProvider(engine, { name: 'webllm', model: 'scripted-1' }) };
}

describe('the structured call', () => {
  it('returns the typed value, and sends the schema as WebLLM takes it', async () => {
    const { engine, provider } = providerWith([
      { text: '{"subject":"Mars","predicate":"has","object":"Volcano","confidence":0.9}' },
    ]);
    const outcome = await structuredCall(provider, fact, ask);
    expect(outcome).toMatchObject({
      ok: true,
      value: { subject: 'Mars', predicate: 'has', object: 'Volcano', confidence: 0.9 },
      usage: { promptTokens: 8, completionTokens: 1 },
    });
    expect(outcome.attempts).toHaveLength(1);
    const [request] = engine.requests;
    expect(request!.messages).toEqual([
      { role: 'system', content: 'You are Anima.' },
      { role: 'user', content: 'Give one fact about Mars.' },
    ]);
    expect(request!.response_format!.type).toBe('json_object');
    expect(JSON.parse(request!.response_format!.schema!)).toMatchObject({
      type: 'object',
      required: ['subject', 'predicate', 'object', 'confidence'],
    });
  });

  it("sends no limits a decoder's grammar pays for, and holds the answer to them all the same", async () => {
    const named = z.object({
      name: z.string().min(2).max(5),
      tags: z.array(z.string()).max(2),
      score: z.number().min(0).max(1),
    });
    const { engine, provider } = providerWith([
      { text: '{"name":"Phobos","tags":[],"score":0.5}' },
      { text: '{"name":"Deimos","tags":[],"score":0.5}' },
    ]);
    const outcome = await structuredCall(provider, named, { ...ask, retries: 1 });
    const sent = engine.requests[0]!.response_format!.schema!;
    expect(JSON.parse(sent)).toMatchObject({
      type: 'object',
      properties: {
        name: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        score: { type: 'number' },
      },
    });
    expect(sent).not.toMatch(/minLength|maxLength|maxItems|minimum|maximum/);
    expect(outcome).toMatchObject({ ok: false, bottleneck: { kind: 'invalid_output' } });
    expect(outcome.attempts[0]!.problems).toEqual(['at name: Too big: expected string to have <=5 characters']);
  });

  it("leaves the oldest steps of a conversation out when it outgrows the model's context window", async () => {
    const step = (index: number) => [
      { role: 'assistant' as const, content: `{"call": ${index}}` },
      { role: 'user' as const, content: `result ${index}: ${'lorem '.repeat(40)}` },
    ];
    const history = [
      { role: 'user' as const, content: 'Give one fact about Mars, calling tools first.' },
      ...step(1),
      ...step(2),
      ...step(3),
    ];
    // 3 + 8 words for the system prompt and the question, 44 a step (the last one's result is the prompt),
    // 8 of template a message and 16 a prompt: 223 tokens; with 100 kept for the answer, 150 fit.
    const { engine, provider } = providerWith(
      [{ text: '{"subject":"Mars","predicate":"has","object":"Volcano","confidence":0.9}' }],
      { contextTokens: 250 },
    );
    const outcome = await structuredCall(provider, fact, {
      ...ask,
      history: history.slice(0, -1),
      prompt: history.at(-1)!.content,
      maxTokens: 100,
    });
    expect(outcome.ok).toBe(true);
    expect(engine.requests[0]!.messages.map((message) => message.content)).toEqual([
      'You are Anima.',
      history[0]!.content,
      '{"call": 3}',
      history.at(-1)!.content,
    ]);
  });

  it('ends in a budget bottleneck, without sending it, when the question alone does not fit, or when the engine finds it too long', async () => {
    const { engine, provider } = providerWith([], { contextTokens: 64 });
    const outcome = await structuredCall(provider, fact, { ...ask, prompt: 'lorem '.repeat(50), maxTokens: 16 });
    expect(outcome).toEqual({
      ok: false,
      bottleneck: {
        kind: 'budget_exhausted',
        detail:
          "webllm (scripted-1): the question needs 101 tokens with room for the answer, and the model's context window holds 64",
      },
      attempts: [],
      usage: { promptTokens: 0, completionTokens: 0 },
    });
    expect(engine.requests).toHaveLength(0);
    const overflowing = providerWith([
      { fail: 'Prompt tokens exceed context window size: number of prompt tokens: 4200; context window size: 4096' },
    ]).provider;
    expect(await structuredCall(overflowing, fact, ask)).toMatchObject({
      ok: false,
      bottleneck: {
        kind: 'budget_exhausted',
        detail:
          "webllm (scripted-1): the prompt is longer than the model's context window (Prompt tokens exceed context window size: number of prompt tokens: 4200; context window size: 4096)",
      },
    });
  });

  it('re-asks with the problems of invalid output, and takes the valid answer that follows', async () => {
    const { engine, provider } = providerWith([
      { text: '{"subject":"Mars","predicate":"has","confidence":2}' },
      { text: 'sure!' },
      { text: '{"subject":"Mars","predicate":"has","object":"Crater","confidence":0.8}' },
    ]);
    const outcome = await structuredCall(provider, fact, ask);
    expect(outcome).toMatchObject({ ok: true, value: { object: 'Crater' } });
    expect(outcome.attempts.map((attempt) => attempt.problems)).toEqual([
      [
        'at object: Invalid input: expected string, received undefined',
        'at confidence: Too big: expected number to be <=1',
      ],
      [expect.stringMatching(/^not JSON: /)],
      undefined,
    ]);
    // The second request carries the first answer and what was wrong with it.
    expect(engine.requests[1]!.messages.slice(2)).toEqual([
      { role: 'assistant', content: '{"subject":"Mars","predicate":"has","confidence":2}' },
      {
        role: 'user',
        content:
          'That answer is not valid:\n- at object: Invalid input: expected string, received undefined\n- at confidence: Too big: expected number to be <=1\nAnswer again with only JSON that matches the schema.',
      },
    ]);
  });

  it('ends in an invalid_output bottleneck after the retries, never an invented answer', async () => {
    const { engine, provider } = providerWith([
      { text: '{}' },
      { text: '{}' },
      { text: '{}' },
      { text: '{"subject":"x","predicate":"y","object":"z","confidence":1}' },
    ]);
    const outcome = await structuredCall(provider, fact, ask);
    expect(outcome).toMatchObject({
      ok: false,
      bottleneck: {
        kind: 'invalid_output',
        detail: expect.stringMatching(/^3 answers, none valid; the last: at subject: /),
      },
    });
    expect(engine.requests).toHaveLength(3);
    expect(await structuredCall(providerWith([{ text: '{}' }]).provider, fact, { ...ask, retries: 0 })).toMatchObject({
      ok: false,
      attempts: [{ text: '{}' }],
    });
  });

  it('cancels a slow answer: the engine is interrupted and the call throws an AbortError', async () => {
    const { engine, provider } = providerWith([
      { text: '{"subject":"Mars","predicate":"has","object":"Volcano","confidence":0.9}', delayMs: 10_000 },
    ]);
    const controller = new AbortController();
    const started = Date.now();
    const call = structuredCall(provider, fact, { ...ask, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(engine.interrupts).toBe(1);
  });

  it('says the device was lost as a dependency_unavailable bottleneck with what to do', async () => {
    const { provider } = providerWith([{ fail: 'GPUDeviceLostInfo: Device was lost' }]);
    expect(await structuredCall(provider, fact, ask)).toMatchObject({
      ok: false,
      bottleneck: {
        kind: 'dependency_unavailable',
        detail: expect.stringContaining('webllm (scripted-1): the GPU device was lost'),
      },
    });
  });

  it('stops with budget_exhausted once the run spent its requests, shared with a child call', async () => {
    const { engine, provider } = providerWith([{ text: '{}' }, { text: '{}' }, { text: '{}' }]);
    const budget = new UsageBudget({ requests: 2 });
    const outcome = await structuredCall(provider, fact, { ...ask, budget });
    expect(outcome).toMatchObject({
      ok: false,
      bottleneck: { kind: 'budget_exhausted', detail: "the run's budget is spent: 2 requests, the limit is 2" },
    });
    expect(engine.requests).toHaveLength(2);
    // A child call drawing from the same budget stops at once.
    expect(await structuredCall(provider, fact, { ...ask, budget })).toMatchObject({
      ok: false,
      attempts: [],
      bottleneck: { kind: 'budget_exhausted' },
    });
    // 8 prompt words, then 59 with the first answer and its problems sent back.
    expect(budget.totals).toMatchObject({ requests: 2, inputTokens: 67 });
  });

  it('cuts a request that outlasts the wall time the run has left: a budget_exhausted bottleneck, the engine interrupted', async () => {
    const { engine, provider } = providerWith([{ text: '{}', delayMs: 60_000 }]);
    const budget = new UsageBudget({ wallSeconds: 0.05 });
    const started = Date.now();
    const outcome = await structuredCall(provider, fact, { ...ask, budget });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcome).toMatchObject({
      ok: false,
      bottleneck: {
        kind: 'budget_exhausted',
        detail: expect.stringMatching(/^the run's budget is spent: [\d.]+ seconds of wall time, the limit is 0.05$/),
      },
    });
    expect(engine.interrupts).toBe(1);
  });

  it('continues a conversation given as history', async () => {
    const { engine, provider } = providerWith([
      { text: '{"subject":"Mars","predicate":"has","object":"Olympus Mons","confidence":0.8}' },
    ]);
    const history = [
      { role: 'user' as const, content: 'Give one fact about Mars.' },
      { role: 'assistant' as const, content: '{"kind":"tool_call"}' },
    ];
    const outcome = await structuredCall(provider, fact, { ...ask, history, prompt: 'The tool said: Olympus Mons.' });
    expect(engine.requests[0]!.messages).toEqual([
      { role: 'system', content: 'You are Anima.' },
      ...history,
      { role: 'user', content: 'The tool said: Olympus Mons.' },
    ]);
    expect(outcome).toMatchObject({ ok: true, value: { object: 'Olympus Mons' } });
  });

  it('sets no timer for a wall-time limit longer than a timer can wait', async () => {
    const { provider } = providerWith([
      { text: '{"subject":"Mars","predicate":"has","object":"Volcano","confidence":0.9}', delayMs: 20 },
    ]);
    const outcome = await structuredCall(provider, fact, {
      ...ask,
      budget: new UsageBudget({ wallSeconds: 90 * 24 * 3600 }),
    });
    expect(outcome).toMatchObject({ ok: true, value: { object: 'Volcano' } });
  });

  it('streams the text as it comes', async () => {
    const { provider } = providerWith([
      { text: '{"subject": "Mars", "predicate": "has", "object": "Dust", "confidence": 0.5}' },
    ]);
    const pieces: string[] = [];
    const completion = await provider.complete({
      messages: [{ role: 'user', content: 'go' }],
      onText: (piece) => pieces.push(piece),
    });
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(completion.text);
    expect(completion.usage).toEqual({ promptTokens: 1, completionTokens: 8 });
  });
});
