import { describe, expect, it } from 'vitest';
import { exportSnapshot } from '#core/sessions/snapshot.ts';
import { parseSnapshot } from '#core/sessions/snapshot-check.ts';
import { restoreSnapshot } from '#core/sessions/snapshot-restore.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { ScriptedWebLlmHost } from '#core/testing/scripted-webllm-host.ts';
import type { InferenceSettings } from '#core/llm/inference-settings.ts';

const WEBLLM: InferenceSettings = {
  provider: 'webllm',
  webllmModel: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
  limits: {},
  confidenceCap: 0.7,
};
const ZORBLAX_IS_A_MOON = JSON.stringify({
  kind: 'final',
  answer: 'Zorblax is a moon of Kepler.',
  triples: [{ subject: 'Zorblax', predicate: 'is-a', object: 'Moon', confidence: 0.9 }],
});

async function session() {
  const engine = new ScriptedEngine([{ text: ZORBLAX_IS_A_MOON }]);
  const host = new ScriptedWebLlmHost(engine);
  host.cached.add(WEBLLM.webllmModel!);
  const db = new AnimaDatabase('anima', freshIndexedDb());
  const { service } = testService({ db, providerReach: { webLlm: host } });
  const { session } = await service.open({});
  return { db, service, sessionId: session.id, engine };
}

describe("a session's model settings", () => {
  it("are sent with every model call of the session's runs", async () => {
    const { service, sessionId, engine } = await session();
    expect(await service.inferenceSet({ settings: WEBLLM })).toMatchObject({ ok: true });
    expect(
      await service.modelSettingsSet({ sessionId, settings: { temperature: 0.4, topP: 0.9, seed: 5, maxTokens: 300 } }),
    ).toEqual({ ok: true, settings: { temperature: 0.4, topP: 0.9, seed: 5, maxTokens: 300 }, notes: [] });
    await service.kgImport({ sessionId, operationId: 'op', fileName: 'mars.csv', data: 'Mars,is-a,Planet\n' });
    await service.goalAdd({ sessionId, description: 'What is Zorblax', criteria: 'Zorblax is-a ?x' });
    await service.agentRun({ sessionId, operationId: 'run', maxCycles: 3 }, () => undefined);
    expect(engine.requests).toHaveLength(1);
    expect(engine.requests[0]).toMatchObject({ temperature: 0.4, top_p: 0.9, seed: 5, max_tokens: 300 });
  });

  it("are refused whole, in one sentence naming the field, when one is out of range or beyond the chosen model's context window", async () => {
    const { service, sessionId } = await session();
    await service.modelSettingsSet({ sessionId, settings: { temperature: 1 } });
    expect(await service.modelSettingsSet({ sessionId, settings: { temperature: 0.5, topP: 0 } })).toEqual({
      ok: false,
      problems: [{ path: 'topP', message: 'top-p is above 0' }],
    });
    await service.inferenceSet({ settings: WEBLLM });
    expect(await service.modelSettingsSet({ sessionId, settings: { maxTokens: 5000 } })).toEqual({
      ok: false,
      problems: [{ path: 'maxTokens', message: "max tokens is at most 4,096, the chosen model's context window" }],
    });
    expect(await service.modelSettingsGet({ sessionId })).toEqual({ settings: { temperature: 1 }, notes: [] });
  });

  it('say in words what an endpoint may ignore', async () => {
    const { service, sessionId } = await session();
    await service.inferenceSet({
      settings: {
        provider: 'openai-compatible',
        openAi: { baseUrl: 'http://127.0.0.1:9/v1', model: 'tiny' },
        limits: {},
        confidenceCap: 0.7,
      },
    });
    const set = await service.modelSettingsSet({ sessionId, settings: { seed: 1 } });
    expect(set).toMatchObject({ ok: true, notes: [expect.stringContaining('many servers ignore it')] });
  });

  it('travel in snapshots and come back as they were', async () => {
    const { db, service, sessionId } = await session();
    await service.modelSettingsSet({ sessionId, settings: { temperature: 0.2, seed: 9 } });
    const snapshot = await exportSnapshot(db, sessionId);
    expect(snapshot.session.modelSettings).toEqual({ temperature: 0.2, seed: 9 });
    const other = new AnimaDatabase('anima', freshIndexedDb());
    const parsed = parseSnapshot(JSON.parse(JSON.stringify(snapshot)));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
    await restoreSnapshot(other, parsed.value);
    expect((await other.sessions.get(sessionId))?.modelSettings).toEqual({ temperature: 0.2, seed: 9 });
  });
});
