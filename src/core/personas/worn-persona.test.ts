import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { messageText } from '#core/llm/chat-engine.ts';
import type { AgentApi, CycleRecord } from '#core/api.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { currentPsyche } from '#core/psyche/psyche-store.ts';
import { exportSnapshot } from '#core/sessions/snapshot.ts';
import { parseSnapshot } from '#core/sessions/snapshot-check.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { ScriptedWebLlmHost } from '#core/testing/scripted-webllm-host.ts';
import { systemPromptOf } from '#core/tools/model-facts.ts';
import { TOOLS } from '#core/tools/registry.ts';

const STARTER = readFileSync(new URL('../../../public/starter-graph.ttl', import.meta.url), 'utf8');

async function expectOk<T extends { ok: boolean }>(pending: Promise<T>): Promise<Extract<T, { ok: true }>> {
  const result = await pending;
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result as Extract<T, { ok: true }>;
}

/** A careful persona whose guardrail forbids graph queries. */
async function carefulPersona(service: AgentApi, guardrail: { triggers: string[]; requireApproval?: boolean }) {
  await expectOk(service.personaCreate({ fields: { name: 'Careful Clerk', summary: 'You double-check everything.' } }));
  await expectOk(service.partCreate({ fields: { name: 'clerk-tone', type: 'tone', summary: 'Speak plainly.' } }));
  await expectOk(
    service.guardrailCreate({
      fields: { name: 'no-queries', description: 'The clerk never queries the graph.', ...guardrail },
    }),
  );
  await expectOk(service.personaLink({ persona: 'Careful Clerk', kind: 'part', name: 'clerk-tone' }));
  await expectOk(service.personaLink({ persona: 'Careful Clerk', kind: 'guardrail', name: 'no-queries' }));
}

async function run(service: AgentApi, sessionId: string, maxCycles: number) {
  const cycles: CycleRecord[] = [];
  const outcome = await service.agentRun({ sessionId, operationId: 'run', maxCycles }, (record) => cycles.push(record));
  return { outcome, cycles };
}

describe('a session wearing a persona', () => {
  it("vetoes what the persona's guardrail forbids, and stops once the persona is taken off", async () => {
    const { db, service } = testService({
      db: new AnimaDatabase('anima', freshIndexedDb()),
      loadStarterGraph: async () => STARTER,
    });
    const { session } = await service.open({});
    const sessionId = session.id;
    await carefulPersona(service, { triggers: ['tool=kg_query'] });
    await expectOk(service.sessionPersonaSet({ sessionId, persona: 'Careful Clerk' }));
    await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
    const worn = await run(service, sessionId, 2);
    expect(worn.cycles[1]).toMatchObject({
      tool: 'kg_query',
      outcome: 'failed',
      shadow: { pattern: 'guardrail: no-queries' },
    });
    expect(worn.cycles[1]!.act).toContain('The clerk never queries the graph.');
    // The encounter is counted in the stored psyche; the guardrail itself never enters it.
    const stored = (await currentPsyche(db, sessionId)).psyche;
    expect(stored.selfIntegration.shadowEncounters).toBe(1);
    expect(stored.shadow.vetoPatterns.map((pattern) => pattern.name)).not.toContain('guardrail: no-queries');

    await expectOk(service.sessionPersonaSet({ sessionId, persona: null }));
    await service.goalAdd({ sessionId, description: 'Learn about Jupiter', criteria: 'moons', priority: 255 });
    const bare = await run(service, sessionId, 4);
    expect(bare.cycles.some((record) => record.tool === 'kg_query' && record.outcome !== 'failed')).toBe(true);
  });

  it('holds the forbidden action for approval when the guardrail asks for it', async () => {
    const { service } = testService({
      db: new AnimaDatabase('anima', freshIndexedDb()),
      loadStarterGraph: async () => STARTER,
    });
    const { session } = await service.open({});
    await carefulPersona(service, { triggers: ['kg_query'], requireApproval: true });
    await expectOk(service.sessionPersonaSet({ sessionId: session.id, persona: 'Careful Clerk' }));
    await service.goalAdd({ sessionId: session.id, description: 'Learn about Mars', criteria: 'volcano crater' });
    const { cycles } = await run(service, session.id, 3);
    expect(cycles[1]).toMatchObject({ tool: 'kg_query', outcome: 'waiting' });
    expect((await service.approvalList({ sessionId: session.id })).approvals[0]).toMatchObject({
      pattern: 'guardrail: no-queries',
      status: 'pending',
    });
  });

  it("puts the persona's prompt (compiled when compiled) before the tools in a bound model's system prompt", async () => {
    const nothingKnown = {
      text: JSON.stringify({ kind: 'bottleneck', bottleneck: { kind: 'missing_input', detail: 'nothing known' } }),
    };
    const engine = new ScriptedEngine([nothingKnown, nothingKnown]);
    const host = new ScriptedWebLlmHost(engine);
    host.cached.add('SmolLM2-360M-Instruct-q4f32_1-MLC');
    const { service } = testService({
      db: new AnimaDatabase('anima', freshIndexedDb()),
      providerReach: { webLlm: host },
    });
    const { session } = await service.open({});
    const sessionId = session.id;
    await carefulPersona(service, { triggers: ['never matches this'] });
    await expectOk(service.sessionPersonaSet({ sessionId, persona: 'Careful Clerk' }));
    await service.kgImport({ sessionId, operationId: 'op', fileName: 'mars.csv', data: 'Mars,is-a,Planet\n' });
    await service.goalAdd({ sessionId, description: 'What is Zorblax', criteria: 'Zorblax is-a ?x' });
    await service.agentRun({
      sessionId,
      operationId: 'run',
      maxCycles: 2,
      inference: {
        provider: 'webllm',
        webllmModel: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
        limits: {},
        confidenceCap: 0.7,
      },
    });
    const assembled = await service.personaGet({ name: 'Careful Clerk' });
    if (!assembled.ok) throw new Error('not assembled');
    expect(engine.requests[0]!.messages[0]).toEqual({
      role: 'system',
      content: `${assembled.assembled.text}\n\n${systemPromptOf(TOOLS)}`,
    });
    expect(assembled.assembled.text).toContain('Speak plainly.');

    // Once compiled, the compiled summary is what runs use, until it is compiled again.
    const compiled = await expectOk(service.personaCompile({ name: 'Careful Clerk' }));
    await expectOk(service.partUpdate({ name: 'clerk-tone', changes: { summary: 'Speak in riddles.' } }));
    await service.goalAdd({ sessionId, description: 'What is Quuxor', criteria: 'Quuxor is-a ?x' });
    await service.agentRun({
      sessionId,
      operationId: 'run-2',
      maxCycles: 2,
      inference: {
        provider: 'webllm',
        webllmModel: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
        limits: {},
        confidenceCap: 0.7,
      },
    });
    // The agent's own calls (a child run in a posture has its posture's system prompt).
    const agentCalls = engine.requests.filter((request) =>
      messageText(request.messages[0]!.content).includes(systemPromptOf(TOOLS)),
    );
    const system = messageText(agentCalls.at(-1)!.messages[0]!.content);
    expect(system.startsWith(compiled.compiled.summary)).toBe(true);
    expect(system).not.toContain('riddles');
  });

  it('carries the worn persona in a session snapshot as a bundle, not by its device-local id', async () => {
    const { db, service } = testService();
    const { session } = await service.open({});
    await carefulPersona(service, { triggers: ['never matches this'] });
    await expectOk(service.sessionPersonaSet({ sessionId: session.id, persona: 'Careful Clerk' }));
    const snapshot = await exportSnapshot(db, session.id);
    expect(snapshot.session).not.toHaveProperty('personaId');
    expect(snapshot.persona).toMatchObject({
      persona: { name: 'Careful Clerk' },
      guardrails: [{ name: 'no-queries' }],
    });
    expect(parseSnapshot(JSON.parse(JSON.stringify(snapshot))).ok).toBe(true);
  });

  it('writes findings under the name of the persona it wears', async () => {
    const { service } = testService({
      db: new AnimaDatabase('anima', freshIndexedDb()),
      loadStarterGraph: async () => STARTER,
    });
    const { session } = await service.open({});
    await carefulPersona(service, { triggers: ['never matches this'] });
    await expectOk(service.sessionPersonaSet({ sessionId: session.id, persona: 'Careful Clerk' }));
    const goal = await service.goalAdd({
      sessionId: session.id,
      description: 'Learn about Mars',
      criteria: 'volcano crater',
    });
    if (!goal.ok) throw new Error('no goal');
    await run(service, session.id, 3);
    const written = await service.synthesize({ sessionId: session.id, goalId: goal.goal.id, grammar: 'narrative' });
    expect(written).toMatchObject({ ok: true, text: expect.stringMatching(/^As Careful Clerk, /) });
  });
});
