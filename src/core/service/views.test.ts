import { describe, expect, it } from 'vitest';
import type { Goal } from '#core/records/goal.ts';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { goalViewOf } from './views.ts';

/** A graph of three facts "X is-a mammal", and a goal that found all three. */
function goalWithThreeFindings() {
  const graph = new KnowledgeGraph();
  const batch = graph.batch({ now: 1 });
  const [isA, mammal] = [
    batch.resolve({ type: 'label', value: 'is-a' }, 'predicate'),
    batch.resolve({ type: 'label', value: 'mammal' }, 'object'),
  ];
  const animals = ['Dog', 'Cat', 'Whale'].map((name) => batch.resolve({ type: 'label', value: name }, 'subject'));
  for (const animal of animals) batch.assert(animal, isA, mammal, 0.9);
  graph.apply(batch.delta);
  const findings = animals.map((animal) => [animal, isA, mammal] as [number, number, number]);
  const goal: Goal = {
    id: 1,
    sessionId: 's',
    description: 'Find mammals',
    successCriteria: 'mammal',
    priority: 5,
    status: 'active',
    cyclesWorked: 3,
    lastProgressCycle: 3,
    stallThreshold: 5,
    findings,
    toolsUsed: [],
    createdAt: 0,
  };
  return { graph, goal, findings };
}

describe('a goal as the Goals screen shows it', () => {
  it('counts the findings its list holds: a fact forgotten since it was found is in neither', () => {
    const { graph, goal, findings } = goalWithThreeFindings();
    expect(goalViewOf(graph, goal)).toMatchObject({
      findingsTotal: 3,
      findings: [{ subject: { label: 'Dog' } }, { subject: { label: 'Cat' } }, { subject: { label: 'Whale' } }],
    });
    const forget = graph.batch({ now: 2 });
    forget.retract(...findings[1]!);
    graph.apply(forget.delta);
    const view = goalViewOf(graph, goal);
    expect(view.findingsTotal).toBe(2);
    expect(view.findings.map((fact) => fact.subject.label)).toEqual(['Dog', 'Whale']);
    // Cut short, the list says how many there are in all.
    expect(goalViewOf(graph, goal, 1)).toMatchObject({ findingsTotal: 2, findings: [{ subject: { label: 'Dog' } }] });
  });
});
