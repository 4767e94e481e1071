import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import { engineProvider } from '#core/llm/chat-engine.ts';
import { UsageBudget } from '#core/llm/usage-budget.ts';
import type { CycleRecord } from '#core/records/cycle.ts';
import { rejectionOf } from '#core/records/rejection.ts';
import { loadGraph } from '#core/store/kg-repository.ts';
import { type ScriptedReply, ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { testService } from '#core/testing/test-database.ts';
import { systemPromptOf } from '#core/tools/model-facts.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { defineTool } from '#core/tools/tool.ts';
import { runCycle } from './run-cycle.ts';

/** A scale that knows only kilograms, and proposes pounds: refused with evidence each time, until the input says kg. */
const weigh = defineTool({
  name: 'weigh',
  description: 'weighs the goal on a scale',
  archetype: undefined,
  danger: 'safe',
  capabilities: [],
  input: z.object({ unit: z.enum(['kg', 'lb', 'stone']) }).strict(),
  unavailableBecause: () => undefined,
  baseScore: () => 1,
  proposeInput: () => ({ unit: 'lb' }),
  run: ({ unit }) =>
    unit === 'kg'
      ? { ok: true, summary: 'weighed: 4 kg', facts: [], symbols: [] }
      : {
          ok: false,
          summary: `the scale does not read ${unit}`,
          facts: [],
          symbols: [],
          rejection: rejectionOf('precondition_miss', 'a unit the scale reads (kg)', `the unit ${unit}`),
        },
});

const repair = (result: object): ScriptedReply => ({ text: JSON.stringify({ kind: 'result', result }) });
const KG = { trace: 2, cause: 'the scale reads only kg', fix: 'weigh in kg', input: { unit: 'kg' } };

/** `count` cycles of "Weigh the parcel" with weigh as the one tool and, unless `withModel` is false, a scripted model bound. */
async function cycles(count: number, script: ScriptedReply[], withModel = true) {
  const { db, service } = testService();
  const { session } = await service.open({});
  const sessionId = session.id;
  await service.goalAdd({ sessionId, description: 'Weigh the parcel', criteria: 'heavy' });
  const engine = new ScriptedEngine(script);
  const budget = new UsageBudget();
  const graph = await loadGraph(db, sessionId);
  const similarity = new SimilarityIndex(graph);
  const model = {
    provider: engineProvider(engine, { name: 'webllm', model: 'tiny' }),
    budget,
    system: systemPromptOf(TOOLS),
    confidenceCap: 0.7,
  };
  const records: CycleRecord[] = [];
  for (let at = 0; at < count; at++)
    records.push(
      (await runCycle({
        db,
        sessionId,
        graph,
        similarity,
        now: () => 1,
        documents: [],
        tools: [weigh],
        ...(withModel ? { model } : {}),
      }))!,
    );
  return { records, engine, budget };
}

describe('a repair works from measured refusals', () => {
  it('after two refusals, proposes an input that the tool checks, and the cycle runs with it', async () => {
    const { records, engine, budget } = await cycles(3, [repair(KG)]);
    expect(records.map((record) => [record.input, record.outcome])).toEqual([
      [{ unit: 'lb' }, 'failed'],
      [{ unit: 'lb' }, 'failed'],
      [{ unit: 'kg' }, 'no-change'],
    ]);
    expect(records[0]!.children).toBeUndefined();
    expect(records[1]!.children).toBeUndefined();
    expect(records[2]!.children).toMatchObject([
      { posture: 'repair', result: KG, summary: 'trace 2: the scale reads only kg; fix: weigh in kg' },
    ]);
    expect(records[2]!.decide).toContain('; input repaired from trace 2 (the scale reads only kg): {"unit":"kg"}');
    expect(records[2]!.act).toContain('weighed: 4 kg');
    // The repair read the refusals' evidence, numbered, in its own context.
    const asked = engine.requests[0]!.messages;
    expect(asked[0]!.content).toContain('You are a repair');
    expect(asked.at(-1)!.content).toContain(
      '1. cycle 1: weigh with {"unit":"lb"} was refused (precondition_miss): it required a unit the scale reads (kg); it observed the unit lb',
    );
    expect(budget.totals.requests).toBe(1);
  });

  it("does not use an input the tool's schema refuses, or one refused before, and says why", async () => {
    const ounces = await cycles(3, [repair({ ...KG, input: { unit: 'oz' } })]);
    expect(ounces.records[2]!.input).toEqual({ unit: 'lb' });
    expect(ounces.records[2]!.decide).toMatch(/; a repair's fix was not used: weigh would refuse its input \(unit: /);
    expect(ounces.records[2]!.outcome).toBe('failed');

    const again = await cycles(3, [repair({ ...KG, input: { unit: 'lb' } })]);
    expect(again.records[2]!.decide).toContain("a repair's fix was not used: its input is one that was refused before");

    const words = await cycles(3, [repair({ trace: 1, cause: 'pounds', fix: 'use another scale' })]);
    expect(words.records[2]!.decide).toContain(
      "a repair's fix was not used: it gave no input to run with, and a fix in words cannot be checked",
    );
  });

  it('asks for no repair before two refusals, nor without a model', async () => {
    const once = await cycles(1, []);
    expect(once.records[0]!.children).toBeUndefined();
    const symbolic = await cycles(3, [], false);
    expect(symbolic.records.map((record) => record.children)).toEqual([undefined, undefined, undefined]);
    expect(symbolic.engine.requests).toEqual([]);
  });
});
