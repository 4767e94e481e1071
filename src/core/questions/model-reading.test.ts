import { describe, expect, it } from 'vitest';
import { engineProvider } from '#core/llm/chat-engine.ts';
import { ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { graphOf } from '#core/testing/graph-of.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { ScriptedWebLlmHost } from '#core/testing/scripted-webllm-host.ts';
import { answerReading } from './answer.ts';
import { readWithModel } from './model-reading.ts';

const graph = graphOf([
  ['DE', 'has-currency', 'Euro'],
  ['FR', 'has-currency', 'Euro'],
  ['JP', 'has-currency', 'Yen'],
  ['DE', 'is-a', 'Country'],
  ['FR', 'is-a', 'Country'],
  ['JP', 'is-a', 'Country'],
]);
const id = (label: string) => graph.symbolByLabel(label)!.id;
const provider = (...replies: string[]) => {
  const engine = new ScriptedEngine(replies.map((text) => ({ text })));
  return { engine, provider: engineProvider(engine, { name: 'webllm', model: 'scripted' }) };
};

describe('a question read by the model, decided by the graph', () => {
  it('runs the query the model gives over the graph, never the model’s own answer', async () => {
    const query = {
      form: 'list',
      find: 'x',
      patterns: [{ subject: { variable: 'x' }, predicate: id('has-currency'), object: { symbol: id('Euro') } }],
    };
    const { engine, provider: model } = provider(JSON.stringify(query));
    const read = await readWithModel(graph, 'Which lands pay in euros?', model);
    if (!read.ok) throw new Error('refused');
    expect(read.value).toMatchObject({ readBy: 'model', text: 'every ?x with ?x has-currency Euro' });
    expect(
      answerReading(graph, read.value)
        .entities.map((entity) => entity.label)
        .sort(),
    ).toEqual(['DE', 'FR']);
    // The model was shown the symbols the words matched, by id.
    expect(JSON.stringify(engine.requests[0]!.messages)).toContain(`${id('Euro')}: Euro`);
  });

  it('sends a reading naming symbols the graph lacks back with the problems, then takes the corrected one', async () => {
    const wrong = {
      form: 'list',
      find: 'x',
      patterns: [{ subject: { variable: 'x' }, predicate: 9999, object: { symbol: id('Euro') } }],
    };
    const right = {
      form: 'count',
      find: 'x',
      patterns: [{ subject: { variable: 'x' }, predicate: id('has-currency'), object: { symbol: id('Euro') } }],
    };
    const { engine, provider: model } = provider(JSON.stringify(wrong), JSON.stringify(right));
    const read = await readWithModel(graph, 'How many countries use the euro?', model);
    expect(read.ok && read.value.readBy).toBe('model');
    expect(JSON.stringify(engine.requests[1]!.messages)).toContain('there is no relation 9999');
    if (read.ok) expect(answerReading(graph, read.value)).toMatchObject({ kind: 'count', value: 2 });
  });

  it('falls back to the words’ reading, saying so, when the model keeps being refused', async () => {
    const bad = JSON.stringify({
      form: 'list',
      find: 'y',
      patterns: [{ subject: { variable: 'x' }, predicate: 9999, object: { symbol: 8888 } }],
    });
    const { provider: model } = provider(bad, bad, bad);
    const read = await readWithModel(graph, 'Which countries use the euro?', model);
    if (!read.ok) throw new Error('refused');
    expect(read.value.readBy).toBe('words');
    expect(read.value.fallback).toContain("the model's reading was refused");
    expect(
      answerReading(graph, read.value)
        .entities.map((entity) => entity.label)
        .sort(),
    ).toEqual(['DE', 'FR']);
  });

  it('refuses bad input before any model is asked', async () => {
    const { engine, provider: model } = provider('{}');
    expect((await readWithModel(graph, '🦄🦄', model)).ok).toBe(false);
    expect(engine.requests).toHaveLength(0);
  });
});

describe('an agent run with a model bound', () => {
  it('answers a question goal from the model’s reading, checked and run by the graph', async () => {
    const webllm = {
      provider: 'webllm' as const,
      webllmModel: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
      limits: {},
      confidenceCap: 0.7,
    };
    const db = new AnimaDatabase('anima', freshIndexedDb());
    const importing = testService({ db });
    const sessionId = (await importing.service.open({})).session.id;
    await importing.service.kgImport({
      sessionId,
      operationId: 'op',
      fileName: 'money.csv',
      data: 'DE,has-currency,Euro\nFR,has-currency,Euro\nJP,has-currency,Yen\n',
    });
    const idOf = async (text: string) =>
      (await importing.service.kgSearch({ sessionId, text, limit: 1 })).hits[0]!.symbol.id;
    // The words alone have no name for "lands" or "pay"; the model reads them with the graph's ids.
    const query = {
      form: 'list',
      find: 'x',
      patterns: [
        { subject: { variable: 'x' }, predicate: await idOf('has-currency'), object: { symbol: await idOf('Euro') } },
      ],
    };
    // A reviewer child run accepts the reading before it is used (see agent/delegation.test.ts).
    const accepted = JSON.stringify({ kind: 'result', result: { verdict: 'accept', problems: [] } });
    const host = new ScriptedWebLlmHost(new ScriptedEngine([{ text: JSON.stringify(query) }, { text: accepted }]));
    host.cached.add(webllm.webllmModel);
    const { service } = testService({ db, providerReach: { webLlm: host } });
    await service.open({});
    await service.goalAdd({ sessionId, description: 'Which lands pay in euros?' });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 3, inference: webllm });
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(goal).toMatchObject({
      status: 'completed',
      answer: { kind: 'entities', reading: 'every ?x with ?x has-currency Euro' },
    });
    expect(goal!.answer!.entities.map((entity) => entity.label).sort()).toEqual(['DE', 'FR']);
  });
});
