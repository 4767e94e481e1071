import { describe, expect, it } from 'vitest';
import { graphOf } from '#core/testing/graph-of.ts';
import { parseCriteria, goalSymbols } from '#core/goals/goal.ts';
import type { Goal } from '#core/records/goal.ts';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import { TOOLS } from './registry.ts';
import type { GraphChange, ToolState } from './tool.ts';
import type { Triple } from '#core/kg/triple.ts';
import type { ProvenanceDraft } from '#core/kg/provenance.ts';
import { provenanceOfFact } from '#core/kg/inference.ts';
import { entriesOfColumns, isDerivationColumns } from '#core/kg/derivation-columns.ts';
import { DEFAULT_WEB_ACCESS } from './web-access.ts';

function stateFor(graph: KnowledgeGraph, description: string, criteria: string): ToolState {
  const parsed = parseCriteria(criteria, description);
  if (!parsed.ok) throw new Error('criteria');
  const goal: Goal = {
    id: 1,
    sessionId: 's',
    description,
    successCriteria: criteria,
    priority: 128,
    status: 'active',
    cyclesWorked: 0,
    lastProgressCycle: 0,
    stallThreshold: 5,
    findings: [],
    toolsUsed: [],
    createdAt: 1,
  };
  return {
    sessionId: 's',
    cycle: 1,
    now: 5,
    graph,
    similarity: new SimilarityIndex(graph),
    goal,
    criteria: parsed.value,
    goalSymbols: goalSymbols(graph, goal, parsed.value),
    inferredAtTripleCount: undefined,
    episodes: [],
    documents: [],
    webAccess: DEFAULT_WEB_ACCESS,
    isOnline: true,
  };
}

const tool = (name: string) => TOOLS.find((candidate) => candidate.name === name)!;
const labels = (graph: KnowledgeGraph, facts: number[][]) =>
  facts.map((fact) => fact.map((id) => graph.symbol(id)!.label).join(' '));

const ZOO = graphOf([
  ['Rex', 'is-a', 'Dog'],
  ['Dog', 'is-a', 'Canine'],
  ['Canine', 'is-a', 'Mammal'],
  ['Tom', 'is-a', 'Cat'],
  ['Cat', 'is-a', 'Mammal'],
  ['Dog', 'has-part', 'Tail'],
  ['Wolf', 'is-a', 'Canine'],
  ['Wolf', 'has-part', 'Tail'],
  ['Wolf', 'eats', 'Meat'],
  ['Wolf', 'lives-in', 'Forest'],
]);

/** How a change explains one of its triples: by its own record, or by its batch's record told for it. */
function provenanceOfChange(graph: KnowledgeGraph, change: GraphChange, triple: Triple): ProvenanceDraft {
  if (typeof change.provenance === 'function') return change.provenance(triple);
  const { derivations, ...batch } = change.provenance.perBatch([
    ...change.delta.addedTriples,
    ...change.delta.updatedTriples,
  ]);
  // As the store reads it back: the derivations listed.
  const listed = isDerivationColumns(derivations) ? entriesOfColumns(derivations) : derivations;
  return provenanceOfFact(graph, { ...batch, ...(listed ? { derivations: listed } : {}) }, [
    triple.subject,
    triple.predicate,
    triple.object,
  ]);
}

describe('reason (symbolic)', () => {
  it('proves every answer of a transitive pattern by its chain, and keeps each conclusion as a finding with its chain as provenance', async () => {
    const state = stateFor(ZOO, 'Find mammals', '?x is-a mammal, at least 3');
    const outcome = await tool('reason').run(tool('reason').proposeInput(state), state);
    expect(outcome.summary).toBe(
      'proved 6 is-a Mammal by chains: Canine, Cat, Dog, Wolf, Tom, Rex; 4 conclusions stored with their chains',
    );
    expect(labels(ZOO, outcome.facts)).toEqual([
      'Canine is-a Mammal',
      'Cat is-a Mammal',
      'Dog is-a Mammal',
      'Wolf is-a Mammal',
      'Tom is-a Mammal',
      'Rex is-a Mammal',
    ]);
    // What the graph states already (Canine, Cat) is not stored again; the rest is, each with its proof.
    const added = outcome.graphChange!.delta.addedTriples;
    expect(added).toHaveLength(4);
    const rex = added.find((triple) => ZOO.symbol(triple.subject)!.label === 'Rex')!;
    // One record explains the batch; asked about Rex, it tells Rex's proof.
    const rexProof = provenanceOfChange(ZOO, outcome.graphChange!, rex);
    expect(rexProof).toMatchObject({
      kind: 'inference',
      sources: ['rule:proof-by-chain', expect.any(String), expect.any(String), expect.any(String)],
    });
    expect(rexProof.detail).toMatch(
      /^Rex is-a Mammal \(\d\.\d\d\) by proof-by-chain from Rex is-a Dog \(\d\.\d\d\) and Dog is-a Canine \(\d\.\d\d\) and Canine is-a Mammal/,
    );
  });

  it('connects two goal symbols by the shortest chain of facts', async () => {
    const state = stateFor(ZOO, 'How are Rex and Tom related', 'related');
    const outcome = await tool('reason').run(tool('reason').proposeInput(state), state);
    expect(outcome.summary).toBe(
      'Rex connects to Tom through Rex is-a Dog, Dog is-a Canine, Canine is-a Mammal, Cat is-a Mammal, Tom is-a Cat',
    );
  });
});

describe('synthesize_triple (symbolic analogy)', () => {
  it('proposes what similar symbols have, with its support, at a capped confidence with the analogy as provenance', async () => {
    const state = stateFor(ZOO, 'Learn about Dog', 'diet habitat');
    const outcome = await tool('synthesize_triple').run(tool('synthesize_triple').proposeInput(state), state);
    expect(outcome.summary).toMatch(
      /^by analogy with 1 similar symbol \(Wolf 0\.\d\d\): Dog eats Meat \(support 1\/1, share 1\.00\) at 0\.\d\d, Dog lives-in Forest \(support 1\/1, share 1\.00\) at 0\.\d\d$/,
    );
    const added = outcome.graphChange!.delta.addedTriples;
    expect(added).toHaveLength(2);
    expect(added.every((triple) => triple.confidence <= 0.7)).toBe(true);
    expect(provenanceOfChange(ZOO, outcome.graphChange!, added[0]!)).toMatchObject({
      kind: 'analogy',
      sources: [expect.stringMatching(/^triple:\d+ \d+ \d+$/)],
      detail: expect.stringContaining('Wolf has it (support 1/1'),
    });
  });

  it('leaves out a fact that few of the similar symbols share', async () => {
    const canid = (name: string): [string, string, string][] => [
      [name, 'is-a', 'Canine'],
      [name, 'has-part', 'Tail'],
      [name, 'has-part', 'Fur'],
    ];
    // eats has two objects for Wolf, so it is not functional; lives-in, with one subject each, is not judged.
    const graph = graphOf([
      ...canid('Dog'),
      ...['Wolf', 'Fox', 'Coyote', 'Jackal'].flatMap((name): [string, string, string][] => [
        ...canid(name),
        [name, 'eats', 'Meat'],
      ]),
      ['Wolf', 'eats', 'Carrion'],
      ['Jackal', 'lives-in', 'Burrow'],
      ['Fox', 'lives-in', 'Den'],
    ]);
    const state = stateFor(graph, 'Learn about Dog', 'diet');
    const outcome = await tool('synthesize_triple').run(tool('synthesize_triple').proposeInput(state), state);
    expect(labels(graph, outcome.facts)).toEqual(['Dog eats Meat']);
  });

  it('never copies a label between similar symbols (dog label canine)', async () => {
    const graph = graphOf([
      ['Dog', 'is-a', 'Mammal'],
      ['Dog', 'has-part', 'Tail'],
      ['Dog', 'label', 'dog'],
      ['Wolf', 'is-a', 'Mammal'],
      ['Wolf', 'has-part', 'Tail'],
      ['Wolf', 'label', 'canine'],
      ['Wolf', 'eats', 'Meat'],
    ]);
    const state = stateFor(graph, 'Learn about Dog', 'diet');
    const outcome = await tool('synthesize_triple').run(tool('synthesize_triple').proposeInput(state), state);
    expect(labels(graph, outcome.facts)).toEqual(['Dog eats Meat']);
  });
});

describe('tool input checks', () => {
  it('turns an input that fails the schema into a refused outcome instead of an exception', async () => {
    const state = stateFor(ZOO, 'Learn about Dog', 'diet habitat');
    expect(await tool('kg_query').run({ symbol: 'Dog' }, state)).toMatchObject({
      ok: false,
      rejection: {
        class: 'invalid_arguments',
        required: "input that kg_query's schema takes",
        observed: expect.stringContaining('symbol'),
        retryable: false,
      },
      summary: expect.stringContaining('kg_query refused its input'),
    });
  });
});
