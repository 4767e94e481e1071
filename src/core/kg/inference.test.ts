import { describe, expect, it } from 'vitest';
import { graphOf } from '#core/testing/graph-of.ts';
import { KnowledgeGraph } from './graph.ts';
import { ForwardChaining, inferRules } from './forward-chaining.ts';
import type { InferenceResult } from './inference-rules.ts';
import { regionPositions, inferenceAround, stageDerivations } from './inference.ts';

/** Derivations as readable lines, sorted: "Dog is-a Mammal 0.950 (is-a-transitive)". */
function lines(graph: KnowledgeGraph, result: InferenceResult): string[] {
  const label = (id: number) => graph.symbol(id)?.label ?? `?${id}`;
  return result.derivations
    .map(
      (derivation) =>
        `${label(derivation.subject)} ${label(derivation.predicate)} ${label(derivation.object)} ${derivation.confidence.toFixed(3)} (${derivation.rule})`,
    )
    .sort();
}

describe('rule inference', () => {
  it('chains is-a transitively, multiplying confidences by 0.95 per step', () => {
    const graph = graphOf([
      ['Dog', 'is-a', 'Canine'],
      ['Canine', 'is-a', 'Carnivore', 0.8],
      ['Carnivore', 'is-a', 'Mammal'],
    ]);
    const result = inferRules(graph);
    expect(lines(graph, result)).toEqual([
      'Canine is-a Mammal 0.760 (is-a-transitive)',
      'Dog is-a Carnivore 0.760 (is-a-transitive)',
      // Either split gives 1 x 0.8 x 1 x 0.95 x 0.95.
      'Dog is-a Mammal 0.722 (is-a-transitive)',
    ]);
    expect(result.hasConverged).toBe(true);
  });

  it('chains part-of with 0.90 and has-a with 0.85', () => {
    const graph = graphOf([
      ['Heart', 'part-of', 'CirculatorySystem'],
      ['CirculatorySystem', 'part-of', 'Body'],
      ['Car', 'has-a', 'Engine'],
      ['Engine', 'has-a', 'Piston'],
    ]);
    expect(lines(graph, inferRules(graph))).toEqual([
      'Car has-a Piston 0.850 (has-a-transitive)',
      'Heart part-of Body 0.900 (part-of-transitive)',
    ]);
  });

  it('makes similar-to symmetric and parent/child and contains/part-of inverse', () => {
    const graph = graphOf([
      ['Dog', 'similar-to', 'Wolf', 0.9],
      ['Ann', 'parent-of', 'Bob'],
      ['Cid', 'child-of', 'Ann'],
      ['Box', 'contains', 'Ball'],
      ['Lid', 'part-of', 'Box'],
    ]);
    expect(lines(graph, inferRules(graph))).toEqual([
      'Ann parent-of Cid 1.000 (parent-child-inverse)',
      'Ball part-of Box 1.000 (contains-part-of-inverse)',
      'Bob child-of Ann 1.000 (parent-child-inverse)',
      'Box contains Lid 1.000 (contains-part-of-inverse)',
      'Wolf similar-to Dog 0.900 (similar-to-symmetric)',
    ]);
  });

  it('never invents a relation the graph does not use, but keeps used inverses in step', () => {
    const partOnly = graphOf([
      ['Heart', 'part-of', 'CirculatorySystem'],
      ['CirculatorySystem', 'part-of', 'Body'],
    ]);
    expect(lines(partOnly, inferRules(partOnly))).toEqual(['Heart part-of Body 0.900 (part-of-transitive)']);
    const both = graphOf([
      ['Body', 'has-part', 'Heart'],
      ['Valve', 'part-of', 'Heart'],
    ]);
    expect(lines(both, inferRules(both))).toEqual([
      'Body has-part Valve 0.900 (has-part-part-of-inverse)',
      'Heart has-part Valve 1.000 (has-part-part-of-inverse)',
      'Heart part-of Body 1.000 (has-part-part-of-inverse)',
      'Valve part-of Body 0.900 (part-of-transitive)',
    ]);
  });

  it('drops derivations under the minimum confidence', () => {
    const graph = graphOf([
      ['A', 'is-a', 'B', 0.4],
      ['B', 'is-a', 'C', 0.4],
      ['C', 'is-a', 'D'],
    ]);
    // A is-a C would be 0.4 x 0.4 x 0.95 = 0.152, and A is-a D 0.4 x 0.38 x 0.95 = 0.144.
    expect(lines(graph, inferRules(graph, { minConfidence: 0.16 }))).toEqual(['B is-a D 0.380 (is-a-transitive)']);
    expect(lines(graph, inferRules(graph, { minConfidence: 0.1 }))).toHaveLength(3);
  });

  it('stops after the iteration bound and says it has not converged', () => {
    const chain = Array.from(
      { length: 20 },
      (_, index) => [`C${index}`, 'is-a', `C${index + 1}`] as [string, string, string],
    );
    const graph = graphOf(chain);
    const bounded = inferRules(graph, { maxIterations: 1, minConfidence: 0 });
    expect(bounded.hasConverged).toBe(false);
    expect(bounded.derivations).toHaveLength(19);
    expect(inferRules(graph, { minConfidence: 0 }).derivations).toHaveLength((20 * 21) / 2 - 20);
  });

  it('never uses the agent metadata, and records each premise', () => {
    const graph = graphOf([
      ['Dog', 'is-a', 'Canine'],
      ['Canine', 'is-a', 'Mammal'],
      ['goal-1', 'agent:status', 'Active'],
    ]);
    const [derivation] = inferRules(graph).derivations;
    const dog = graph.symbolByLabel('Dog')!.id;
    const canine = graph.symbolByLabel('Canine')!.id;
    expect(derivation!.premises.map((premise) => [premise.subject, premise.object])).toEqual([
      [dog, canine],
      [canine, graph.symbolByLabel('Mammal')!.id],
    ]);
  });

  it('raises a stated fact when a chain supports it more strongly, and leaves stronger ones alone', () => {
    const graph = graphOf([
      ['Dog', 'is-a', 'Canine'],
      ['Canine', 'is-a', 'Mammal'],
      ['Dog', 'is-a', 'Mammal', 0.3],
      ['Cat', 'is-a', 'Feline'],
      ['Feline', 'is-a', 'Mammal'],
      ['Cat', 'is-a', 'Mammal', 0.99],
    ]);
    expect(lines(graph, inferRules(graph))).toEqual(['Dog is-a Mammal 0.950 (is-a-transitive)']);
  });
});

describe('inference focused on some symbols', () => {
  it('follows chains up from and down to the focus, never sideways through a shared ancestor', () => {
    const graph = graphOf([
      ['Rex', 'is-a', 'Dog'],
      ['Dog', 'is-a', 'Mammal'],
      ['Mammal', 'is-a', 'Animal'],
      ['Tom', 'is-a', 'Cat'],
      ['Cat', 'is-a', 'Mammal'],
      ['Tweety', 'is-a', 'Bird'],
      ['Bird', 'is-a', 'Animal'],
      ['Dog', 'similar-to', 'Wolf'],
    ]);
    const dog = graph.symbolByLabel('Dog')!.id;
    const focused = inferRules(graph, { positions: regionPositions(graph, [dog]) });
    expect(lines(graph, focused)).toEqual([
      'Dog is-a Animal 0.950 (is-a-transitive)',
      'Rex is-a Animal 0.902 (is-a-transitive)',
      'Rex is-a Mammal 0.950 (is-a-transitive)',
      'Wolf similar-to Dog 1.000 (similar-to-symmetric)',
    ]);
    // The whole graph also derives facts about Tom and Tweety, which say nothing about Dog.
    expect(inferRules(graph).derivations.length).toBeGreaterThan(focused.derivations.length);
  });
});

describe('focused inference through inverse relations', () => {
  it('follows has-part as reversed part-of, deriving what the whole graph would about the focus', () => {
    const graph = graphOf([
      ['Car', 'has-part', 'Engine'],
      ['Piston', 'part-of', 'Engine'],
    ]);
    const car = graph.symbolByLabel('Car')!.id;
    expect(lines(graph, inferRules(graph, { positions: regionPositions(graph, [car]) }))).toEqual(
      lines(graph, inferRules(graph)),
    );
    expect(lines(graph, inferRules(graph, { positions: regionPositions(graph, [car]) }))).toContain(
      'Piston part-of Car 0.900 (part-of-transitive)',
    );
  });
});

describe('inference around a goal, a slice at a time', () => {
  /** A taxonomy of branching 3, four levels under Root, and a goal's symbol in the middle. */
  function taxonomy(): KnowledgeGraph {
    const facts: [string, string, string][] = [];
    const level = (parents: string[]) =>
      parents.flatMap((parent) =>
        [0, 1, 2].map((child) => {
          facts.push([`${parent}.${child}`, 'is-a', parent]);
          return `${parent}.${child}`;
        }),
      );
    level(level(level(level(['Root']))));
    facts.push(['Root.1', 'part-of', 'World'], ['World', 'has-part', 'Sea']);
    return graphOf(facts);
  }
  const about = (graph: KnowledgeGraph, result: InferenceResult, symbol: number) =>
    lines(graph, {
      ...result,
      derivations: result.derivations.filter((fact) => fact.subject === symbol || fact.object === symbol),
    });

  it('derives every fact about the goal the whole graph would, and none about other symbols', () => {
    const graph = taxonomy();
    const goal = graph.symbolByLabel('Root.1')!.id;
    const chaining = new ForwardChaining(graph, {
      positions: regionPositions(graph, [goal]),
      concerning: new Set([goal]),
    });
    chaining.advance();
    const taken = chaining.take(Number.MAX_SAFE_INTEGER);
    expect(taken.length).toBeGreaterThan(30);
    expect(taken.every((fact) => fact.subject === goal || fact.object === goal)).toBe(true);
    expect(lines(graph, { ...chaining.result(), derivations: taken })).toEqual(about(graph, inferRules(graph), goal));
  });

  it('stopped after every few facts, goes on where it stopped and ends with the same facts', () => {
    const graph = taxonomy();
    const goal = graph.symbolByLabel('Root.1')!.id;
    const whole = new ForwardChaining(graph, { concerning: new Set([goal]) });
    whole.advance();
    const sliced = new ForwardChaining(graph, { concerning: new Set([goal]) });
    let slices = 0;
    while (!sliced.isDone) {
      let checks = 0;
      sliced.advance({ shouldStop: () => checks++ > 0 });
      slices++;
    }
    expect(slices).toBeGreaterThan(3);
    expect(lines(graph, { ...sliced.result(), derivations: sliced.take(10_000) })).toEqual(
      lines(graph, { ...whole.result(), derivations: whole.take(10_000) }),
    );
  });

  it('is kept between calls: what was taken and stored is not derived again, a new rule fact starts it anew', () => {
    const graph = taxonomy();
    const goal = graph.symbolByLabel('Root.1')!.id;
    const first = inferenceAround(graph, [goal], { minConfidence: 0.1 });
    first.advance();
    const total = first.waiting;
    const taken = first.take(10);
    const staged = stageDerivations(graph, taken, 2);
    graph.apply(staged.delta);
    // The graph grew by what the inference itself derived: the same work goes on.
    const again = inferenceAround(graph, [goal], { minConfidence: 0.1 });
    expect(again).toBe(first);
    expect(again.take(total)).toHaveLength(total - 10);
    // A rule fact far from the goal's region (another taxonomy) changes nothing there: the work goes on.
    const elsewhere = graph.batch({ now: 3 });
    elsewhere.assert(
      elsewhere.resolve({ type: 'label', value: 'Oak' }, 'subject'),
      elsewhere.resolve({ type: 'label', value: 'is-a' }, 'predicate'),
      elsewhere.resolve({ type: 'label', value: 'Tree' }, 'object'),
      1,
    );
    graph.apply(elsewhere.delta);
    expect(inferenceAround(graph, [goal], { minConfidence: 0.1 })).toBe(first);
    // A new fact of a rule relation in the region changes what the rules derive: the work starts again, knowing what is stored.
    const batch = graph.batch({ now: 3 });
    batch.assert(
      batch.resolve({ type: 'label', value: 'Root.1.0.0.0.0' }, 'subject'),
      batch.resolve({ type: 'label', value: 'is-a' }, 'predicate'),
      batch.resolve({ type: 'label', value: 'Root.1.0.0.0' }, 'object'),
      1,
    );
    graph.apply(batch.delta);
    const anew = inferenceAround(graph, [goal], { minConfidence: 0.1 });
    expect(anew).not.toBe(first);
    anew.advance();
    expect(anew.take(total + 1)).toHaveLength(total - 10 + 1);
  });
});
