import { z } from 'zod';
import { describeAction } from '#core/psyche/shadow.ts';
import {
  heldTriple,
  isChangeMade,
  MAX_REQUESTED_CHANGES,
  type RequestedChange,
  requestedChangeSchema,
} from '#core/kg/requested-change.ts';
import type { FactIds, Tool } from './tool.ts';

const NAME = 'kg_mutate';

/** A fact the user asked for in a goal is as sure as a fact they answered: they said it. */
const ASSERTED_CONFIDENCE = 1;

type KgMutateInput = { changes: RequestedChange[] };

/** The action kg_mutate takes for these changes, as the shadow and the goal's denied actions name it. */
export function kgMutateActionOf(changes: RequestedChange[]): string {
  return describeAction({ tool: NAME, input: { changes } satisfies KgMutateInput });
}

/**
 * Changes the graph as a goal asks in so many words ("Remember that Tux is a penguin", "Forget
 * that a whale is a fish"): asserting is cautious, retracting is dangerous (the default psyche
 * asks the user before it). Every change gets a provenance record naming the goal.
 */
export const kgMutate: Tool<KgMutateInput> = {
  name: NAME,
  description: 'assert facts (cautious) or retract them (dangerous), as a goal asks',
  archetype: undefined,
  danger: 'dangerous',
  dangerOf: (input) => (input.changes.some((change) => change.op === 'retract') ? 'dangerous' : 'cautious'),
  capabilities: ['writeKg'],
  input: z.object({ changes: z.array(requestedChangeSchema).min(1).max(MAX_REQUESTED_CHANGES) }),
  unavailableBecause: (state) => {
    if (state.criteria.kind !== 'changes') return 'the goal asks for no change to the graph';
    if (state.criteria.changes.every((change) => isChangeMade(state.graph, change)))
      return 'the graph is already as the goal asks';
    return undefined;
  },
  // The user asked for exactly this.
  baseScore: () => 1,
  proposeInput: (state) => ({
    changes:
      state.criteria.kind === 'changes'
        ? state.criteria.changes.filter((change) => !isChangeMade(state.graph, change))
        : [],
  }),
  run(input, state) {
    const { graph, goal } = state;
    const batch = graph.batch({ now: state.now });
    const asserted: FactIds[] = [];
    const done: string[] = [];
    const symbols = new Set<number>();
    for (const change of input.changes) {
      if (change.op === 'assert') {
        const fact: FactIds = [
          batch.resolve({ type: 'label', value: change.subject }, 'subject'),
          batch.resolve({ type: 'label', value: change.predicate }, 'predicate'),
          batch.resolve({ type: 'label', value: change.object }, 'object'),
        ];
        batch.assert(...fact, ASSERTED_CONFIDENCE);
        asserted.push(fact);
        symbols.add(fact[0]).add(fact[2]);
        done.push(`asserted ${change.subject} ${change.predicate} ${change.object}`);
        continue;
      }
      const held = heldTriple(graph, change);
      if (held && batch.retract(held.subject, held.predicate, held.object)) {
        symbols.add(held.subject).add(held.object);
        done.push(`retracted ${change.subject} ${change.predicate} ${change.object}`);
      } else done.push(`${change.subject} ${change.predicate} ${change.object} was not in the graph`);
    }
    const delta = batch.delta;
    const summary = done.join('; ');
    const label = (id: number) =>
      graph.symbol(id)?.label ?? delta.symbols.find((symbol) => symbol.id === id)?.label ?? `#${id}`;
    return {
      ok: true,
      summary,
      facts: asserted,
      symbols: [...symbols],
      ...(delta.addedTriples.length + delta.updatedTriples.length + delta.removedTriples.length > 0
        ? {
            graphChange: {
              delta,
              provenance: (triple) => {
                // The removed triples are these very objects (storage hands each triple of the delta back).
                const isRemoval = delta.removedTriples.includes(triple);
                return {
                  sessionId: state.sessionId,
                  kind: isRemoval ? 'retraction' : 'assertion',
                  sources: [`goal:${goal.id}`],
                  confidence: isRemoval ? 1 : ASSERTED_CONFIDENCE,
                  cycle: state.cycle,
                  detail: `${isRemoval ? 'retracted' : 'asserted'} ${label(triple.subject)} ${label(triple.predicate)} ${label(triple.object)}, as goal ${goal.id} asks ("${goal.description.slice(0, 200)}")`,
                  createdAt: state.now,
                };
              },
            },
          }
        : {}),
    };
  },
};
