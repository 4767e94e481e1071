import { describe, expect, it } from 'vitest';
import { graphOf } from '#core/testing/graph-of.ts';
import type { Decision } from './cycle.ts';
import { decideAlone } from '#core/testing/decide-alone.ts';
import { decomposeIfStalled, evaluateGoal } from './evaluate-goal.ts';
import type { Goal } from '#core/records/goal.ts';

const graph = graphOf([
  ['Mars', 'is-a', 'Planet'],
  ['Mars', 'orbits', 'Sun'],
]);

function decisionFor(goal: Goal): Decision {
  return decideAlone(graph, goal, { cycle: 40 });
}

const goal: Goal = {
  id: 1,
  sessionId: 's',
  description: 'Learn about Mars',
  successCriteria: 'volcano, crater',
  priority: 128,
  status: 'active',
  cyclesWorked: 2,
  lastProgressCycle: 0,
  stallThreshold: 5,
  findings: [],
  toolsUsed: [],
  createdAt: 1,
};

describe('goal progress', () => {
  it("is counted in the goal's own cycles, whatever the session's cycle number", () => {
    const mars = graph.symbolByLabel('Mars')!.id;
    const orbits = graph.symbolByLabel('orbits')!.id;
    const sun = graph.symbolByLabel('Sun')!.id;
    const advanced = evaluateGoal(graph, decisionFor(goal), {
      ok: true,
      summary: 'found',
      facts: [[mars, orbits, sun]],
      symbols: [],
    });
    expect(advanced).toMatchObject({ outcome: 'advanced', goal: { cyclesWorked: 3, lastProgressCycle: 3 } });
    const stale = evaluateGoal(graph, decisionFor(advanced.goal), {
      ok: true,
      summary: 'nothing',
      facts: [],
      symbols: [],
    });
    expect(stale).toMatchObject({ outcome: 'no-change', goal: { cyclesWorked: 4, lastProgressCycle: 3 } });
  });

  it('splits a goal once it has gone its stall threshold of its own cycles without progress', () => {
    expect(decomposeIfStalled({ ...goal, cyclesWorked: 7, lastProgressCycle: 3 }, 1)).toBeUndefined();
    expect(
      decomposeIfStalled({ ...goal, cyclesWorked: 8, lastProgressCycle: 3 }, 1)?.children.map(
        (child) => child.successCriteria,
      ),
    ).toEqual(['volcano', 'crater']);
  });

  it('no longer counts a finding as met once its fact was taken out of the graph', () => {
    const volcanoes = graphOf([['Mars', 'has-part', 'Volcano']]);
    const ids = (label: string) => volcanoes.symbolByLabel(label)!.id;
    const fact: [number, number, number] = [ids('Mars'), ids('has-part'), ids('Volcano')];
    const found: Goal = { ...goal, successCriteria: 'volcano', findings: [fact] };
    const decision = { ...decisionFor(found), goal: found };
    const nothingNew = { ok: true, summary: 'nothing', facts: [], symbols: [] };
    expect(evaluateGoal(volcanoes, decision, nothingNew).outcome).toBe('completed');
    volcanoes.apply({
      symbols: [],
      addedTriples: [],
      updatedTriples: [],
      removedTriples: [volcanoes.triple(...fact)!],
    });
    expect(evaluateGoal(volcanoes, decision, nothingNew).outcome).toBe('no-change');
  });
});
