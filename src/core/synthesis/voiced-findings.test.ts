import { describe, expect, it } from 'vitest';
import { AnimaDatabase } from '#core/store/database.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { type ScriptedReply, ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { ScriptedWebLlmHost } from '#core/testing/scripted-webllm-host.ts';

const MODEL = 'SmolLM2-360M-Instruct-q4f32_1-MLC';

/** A session whose goal "Learn about Dog" found two facts, wearing a persona, with a scripted WebLLM engine chosen. */
async function writerSession(script: ScriptedReply[], options: { chooseModel?: boolean } = {}) {
  const engine = new ScriptedEngine(script);
  const host = new ScriptedWebLlmHost(engine);
  host.cached.add(MODEL);
  const { service } = testService({
    db: new AnimaDatabase('anima', freshIndexedDb()),
    providerReach: { webLlm: host },
  });
  const { session } = await service.open({});
  const sessionId = session.id;
  await service.kgImport({
    sessionId,
    operationId: 'op',
    fileName: 'dog.csv',
    data: 'Dog,is-a,Mammal\nDog,has,Tail\n',
  });
  const added = await service.goalAdd({ sessionId, description: 'Learn about Dog', criteria: 'mammal tail' });
  if (!added.ok) throw new Error('no goal');
  await service.agentRun({
    sessionId,
    operationId: 'run',
    maxCycles: 3,
    inference: { provider: 'none', limits: {}, confidenceCap: 0.7 },
  });
  await service.personaCreate({ fields: { name: 'Old Sailor', summary: 'You speak like an old sailor.' } });
  await service.sessionPersonaSet({ sessionId, persona: 'Old Sailor' });
  if (options.chooseModel !== false)
    await service.inferenceSet({ settings: { provider: 'webllm', webllmModel: MODEL } });
  return { service, sessionId, goalId: added.goal.id, engine, host };
}

const final = (text: string, cites: number[]) => ({ text: JSON.stringify({ kind: 'final', text, cites }) });

describe("findings written in the persona's voice", () => {
  it('has the bound model write prose as the worn persona, citing the findings, which are listed beneath', async () => {
    const { service, sessionId, goalId, engine, host } = await writerSession([
      final('Arr, the dog be a mammal [1], and it wags a tail [2].', [2, 1]),
    ]);
    const goal = (await service.goalList({ sessionId })).goals[0]!;
    expect(goal.findingsTotal).toBeGreaterThan(0);
    const written = await service.synthesizeInVoice({ sessionId, goalId, operationId: 'write' });
    expect(written).toMatchObject({
      ok: true,
      persona: 'Old Sailor',
      text: 'Arr, the dog be a mammal [1], and it wags a tail [2].',
      cites: [1, 2],
      model: { provider: 'webllm', model: MODEL, requests: 1 },
    });
    expect(written.ok && written.findings).toEqual(
      expect.arrayContaining(['Dog -> is-a -> Mammal [1.00]', 'Dog -> has -> Tail [1.00]']),
    );
    const [request] = engine.requests;
    expect(request!.messages[0]!.content).toMatch(/^# Old Sailor\nYou speak like an old sailor\./);
    expect(request!.messages[1]!.content).toContain('[1] Dog -> ');
    // One of the schemas the engine prepared at its load, so the write-up compiles no grammar.
    expect(host.prepared).toEqual([expect.arrayContaining([request!.response_format!.schema])]);
  });

  it('sends a citation of a finding that does not exist back to the model, and takes the corrected answer', async () => {
    const { service, sessionId, goalId, engine } = await writerSession([
      final('The dog is a fish [9].', [9]),
      final('The dog is a mammal [1].', [1]),
    ]);
    const written = await service.synthesizeInVoice({ sessionId, goalId, operationId: 'write' });
    expect(written).toMatchObject({ ok: true, text: 'The dog is a mammal [1].', model: { requests: 2 } });
    expect(engine.requests[1]!.messages.at(-1)!.content).toMatch(/there are only \d findings/);
  });

  it('sends back a citation in the prose of a finding that does not exist, or one left out of the list', async () => {
    const { service, sessionId, goalId, engine } = await writerSession([
      final('The dog is a fish [9].', [1]),
      final('The dog is a mammal [1] with a tail [2].', [1]),
      final('The dog is a mammal [1].', [1]),
    ]);
    const written = await service.synthesizeInVoice({ sessionId, goalId, operationId: 'write' });
    expect(written).toMatchObject({ ok: true, text: 'The dog is a mammal [1].', model: { requests: 3 } });
    expect(engine.requests[1]!.messages.at(-1)!.content).toMatch(/so not \[9\]/);
    expect(engine.requests[2]!.messages.at(-1)!.content).toContain('[2] is cited in the text: list it in cites');
  });

  it('says truthfully when the model gives a bottleneck, and when no model is chosen', async () => {
    const stuck = await writerSession([
      {
        text: JSON.stringify({
          kind: 'bottleneck',
          bottleneck: { kind: 'missing_input', detail: 'too few findings to write about' },
        }),
      },
    ]);
    expect(
      await stuck.service.synthesizeInVoice({ sessionId: stuck.sessionId, goalId: stuck.goalId, operationId: 'write' }),
    ).toMatchObject({
      ok: false,
      reason: 'bottleneck',
      problems: [{ message: 'the model did not write it (missing_input): too few findings to write about' }],
      model: { requests: 1 },
    });
    const none = await writerSession([], { chooseModel: false });
    expect(
      await none.service.synthesizeInVoice({ sessionId: none.sessionId, goalId: none.goalId, operationId: 'write' }),
    ).toMatchObject({ ok: false, reason: 'no-model' });
    expect(
      await none.service.synthesizeInVoice({ sessionId: none.sessionId, goalId: 99, operationId: 'write' }),
    ).toMatchObject({ ok: false, reason: 'not-found' });
  });
});
