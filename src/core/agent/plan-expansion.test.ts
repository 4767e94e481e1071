import { describe, expect, it } from 'vitest';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import { engineProvider } from '#core/llm/chat-engine.ts';
import { UsageBudget } from '#core/llm/usage-budget.ts';
import type { CycleRecord } from '#core/records/cycle.ts';
import { loadGraph } from '#core/store/kg-repository.ts';
import { type ScriptedReply, ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { testService } from '#core/testing/test-database.ts';
import { systemPromptOf } from '#core/tools/model-facts.ts';
import { TOOLS } from '#core/tools/registry.ts';
import type { AgentTool } from '#core/tools/tool.ts';
import { runCycle } from './run-cycle.ts';

const FACTS = 'Mars,is-a,Planet\nMars,orbits,Sun\nPlanet,is-a,CelestialBody\nSun,is-a,Star\n';
const NAMES = ['kg_query', 'infer_rules', 'gap_analysis', 'similarity_search', 'synthesize_triple'];

/** The tools the test gives, with infer_rules failing every time it runs: the failure a plan must back out of. */
const TOOLSET: AgentTool[] = TOOLS.filter((tool) => NAMES.includes(tool.name)).map((tool) =>
  tool.name === 'infer_rules'
    ? { ...tool, run: async () => ({ ok: false, summary: 'injected failure', facts: [], symbols: [] }) }
    : tool,
);

const options = (...entries: [string, string][]): ScriptedReply => ({
  text: JSON.stringify({ kind: 'result', result: { options: entries.map(([option, why]) => ({ option, why })) } }),
});

/** Two cycles on "Learn about Mars": the first plan fails at infer_rules, the second is made with the model bound. */
async function twoCycles(script: ScriptedReply[], withModel = true) {
  const { db, service } = testService();
  const { session } = await service.open({});
  const sessionId = session.id;
  await service.kgImport({ sessionId, operationId: 'op', fileName: 'mars.csv', data: FACTS });
  await service.goalAdd({ sessionId, description: 'Learn about Mars', criteria: 'volcano crater' });
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
  for (let cycle = 0; cycle < 2; cycle++) {
    const record = await runCycle({
      db,
      sessionId,
      graph,
      similarity,
      now: () => 1,
      documents: [],
      tools: TOOLSET,
      ...(withModel ? { model } : {}),
    });
    records.push(record!);
  }
  const plans = await db.plans.where('goalId').equals(1).sortBy('id');
  return { records, plans, engine, budget };
}

describe('an expander opens options when a plan failed', () => {
  it("adds the options that name a tool the new plan lacks, ranked by the planner, not by the expander's order", async () => {
    const { records, plans, engine, budget } = await twoCycles([
      options(
        ['synthesize_triple: propose facts about Mars', 'the graph may lack them'],
        ['gap_analysis again, on Planet', 'the plan has it already'],
        ['ask a geologist', 'names no tool'],
        ['similarity_search for symbols like Mars', 'a similar planet may have volcanoes'],
      ),
    ]);
    // The choice of the cycle is the planner's and the score's, as without the expander.
    expect(records.map((record) => [record.tool, record.outcome])).toEqual([
      ['infer_rules', 'failed'],
      ['kg_query', 'advanced'],
    ]);
    // The first plan had nothing to back out of: no expander.
    expect(records[0]!.children).toBeUndefined();
    expect(records[1]!.children).toMatchObject([
      {
        posture: 'expander',
        purpose: 'open options for "Learn about Mars", whose plan failed',
        usage: { requests: 1 },
      },
    ]);
    const asked = engine.requests[0]!.messages.at(-1)!.content as string;
    expect(asked).toContain('Its last plan failed: step 2 (infer_rules) failed: injected failure');
    expect(asked).toContain('- similarity_search: ');
    // Options the plan lacks, in the planner's order (by name: neither serves the goal's needs); gap_analysis it has.
    expect(plans[1]!.steps.map((step) => step.tool)).toEqual([
      'infer_rules',
      'gap_analysis',
      'kg_query',
      'similarity_search',
      'synthesize_triple',
    ]);
    expect(plans[1]!.steps[3]!.rationale).toBe(
      "an expander's option: similarity_search for symbols like Mars (a similar planet may have volcanoes)",
    );
    expect(plans[1]!.strategy).toMatch(
      /; then an expander's options, ranked by the planner: similarity_search -> synthesize_triple$/,
    );
    expect(budget.totals.requests).toBe(1);
  });

  it('an expander that stops short leaves the plan as the planner made it, and the log shows why', async () => {
    const { records, plans } = await twoCycles([
      options(['similarity_search: find like', 'it may help']),
      { text: 'no json' },
      { text: 'no json' },
    ]);
    expect(records[1]!.children).toMatchObject([
      { posture: 'expander', bottleneck: { kind: 'invalid_output' }, usage: { requests: 3 } },
    ]);
    expect(plans[1]!.steps.map((step) => step.tool)).toEqual(['infer_rules', 'gap_analysis', 'kg_query']);
  });

  it('without a model the plan is the planner alone', async () => {
    const { records, plans, engine } = await twoCycles([], false);
    expect(records[1]!.children).toBeUndefined();
    expect(plans[1]!.steps.map((step) => step.tool)).toEqual(['infer_rules', 'gap_analysis', 'kg_query']);
    expect(engine.requests).toEqual([]);
  });
});
