import { describe, expect, it } from 'vitest';
import { graphOf } from '#core/testing/graph-of.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { decideFor } from '#core/testing/decide-alone.ts';
import type { Goal } from '#core/records/goal.ts';
import { makePlan, needsOf } from './plan.ts';

const graph = graphOf([
  ['Dog', 'is-a', 'Canine'],
  ['Canine', 'is-a', 'Carnivore'],
  ['Carnivore', 'is-a', 'Mammal'],
  ['Cat', 'is-a', 'Mammal'],
]);

function stateFor(description: string, successCriteria: string) {
  const goal: Goal = {
    id: 1,
    sessionId: 's',
    description,
    successCriteria,
    priority: 128,
    status: 'active',
    cyclesWorked: 0,
    lastProgressCycle: 0,
    stallThreshold: 5,
    findings: [],
    toolsUsed: [],
    createdAt: 0,
  };
  return decideFor(graph, goal, { cycle: 1 }).state;
}

describe('the planner', () => {
  it('reads what a goal needs from its words, their forms, and nothing else', () => {
    expect(needsOf('Find mammals').needs).toEqual(['knowledge']);
    expect(needsOf('Finding and classifying mammals, and why').words).toEqual({
      knowledge: ['finding'],
      reasoning: ['classifying', 'why'],
    });
    expect(needsOf('Infer what is similar to dogs, then fetch their pages').needs).toEqual([
      'reasoning',
      'external',
      'similarity',
    ]);
    expect(needsOf('Build links between planets').needs).toEqual(['creation']);
    // No strategy word at all: finding things out is the default.
    expect(needsOf('Mars').needs).toEqual(['knowledge']);
  });

  it('explores first on even attempts and reasons first on odd ones, planning only tools that can work now (no episodes yet: no memory_recall)', () => {
    const state = stateFor('Find mammals', '?x is-a mammal, at least 3');
    const first = makePlan(TOOLS, state, 0);
    expect(first.strategy).toBe(
      'explore first (attempt 0); needs knowledge: kg_query -> infer_rules -> reason -> gap_analysis',
    );
    // The planner looks the pattern up itself: a cycle spent on it would find nothing the criteria check does not.
    expect(first.steps.map((step) => [step.tool, step.rationale, step.status])).toEqual([
      ['kg_query', 'knowledge: look up what the graph holds about the goal', 'completed'],
      ['infer_rules', 'reasoning: derive the facts the rules imply', 'pending'],
      ['reason', 'reasoning: prove answers by chains of facts', 'pending'],
      ['gap_analysis', 'reasoning: find what the graph is missing', 'pending'],
    ]);
    expect(first.steps[0]).toMatchObject({
      input: { pattern: '?x is-a mammal' },
      result: 'looked up while planning: 2 answers to ?x is-a mammal, 3 needed',
    });
    const second = makePlan(TOOLS, state, 1);
    expect(second.strategy).toBe(
      'reason first (attempt 1); needs knowledge: infer_rules -> reason -> gap_analysis -> kg_query',
    );
    expect(second.steps.map((step) => step.tool)).not.toEqual(first.steps.map((step) => step.tool));
  });
});
