import { describe, expect, it } from 'vitest';
import { graphOf } from '#core/testing/graph-of.ts';
import { type Goal, MAX_FINDINGS } from '#core/records/goal.ts';
import { decideAlone } from '#core/testing/decide-alone.ts';
import { evaluateGoal } from './evaluate-goal.ts';

const graph = graphOf([
  ['Mars', 'is-a', 'Planet'],
  ['Mars', 'orbits', 'Sun'],
]);
const id = (label: string) => graph.symbolByLabel(label)!.id;

/** A goal with room for two findings more: the first it holds is a fact about Mars. */
const nearlyFull: Goal = {
  id: 1,
  sessionId: 's',
  description: 'Learn about Mars',
  successCriteria: 'volcano, crater',
  priority: 128,
  status: 'active',
  cyclesWorked: 2,
  lastProgressCycle: 0,
  stallThreshold: 5,
  findings: [
    [id('Mars'), id('is-a'), id('Planet')],
    ...Array.from({ length: MAX_FINDINGS - 3 }, (_, index): [number, number, number] => [1000 + index, 1, 2]),
  ],
  toolsUsed: [],
  createdAt: 1,
};

function decisionFor(goal: Goal) {
  return decideAlone(graph, goal, { cycle: 40 });
}

describe("a goal's findings", () => {
  it('keep each new fact once, up to their cap, and only a fact kept is progress', () => {
    const marsOrbitsSun: [number, number, number] = [id('Mars'), id('orbits'), id('Sun')];
    const sunOrbitsMars: [number, number, number] = [id('Sun'), id('orbits'), id('Mars')];
    const found = evaluateGoal(graph, decisionFor(nearlyFull), {
      ok: true,
      summary: 'found',
      facts: [[id('Mars'), id('is-a'), id('Planet')], marsOrbitsSun, marsOrbitsSun, sunOrbitsMars],
      symbols: [],
    });
    expect(found.outcome).toBe('advanced');
    expect(found.goal.findings).toHaveLength(MAX_FINDINGS);
    expect(found.goal.findings.slice(-3)).toEqual([[1000 + MAX_FINDINGS - 4, 1, 2], marsOrbitsSun, sunOrbitsMars]);
    // Full: nothing more is kept, and a tool's fact with no room is no progress.
    const full = evaluateGoal(graph, decisionFor(found.goal), {
      ok: true,
      summary: 'found',
      facts: [[id('Planet'), id('orbits'), id('Sun')]],
      symbols: [],
    });
    expect(full.outcome).toBe('no-change');
    expect(full.goal.findings).toEqual(found.goal.findings);
  });
});
