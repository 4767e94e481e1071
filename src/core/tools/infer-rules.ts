import { z } from 'zod';
import { derivationsProvenance, inferenceAround, stageDerivations } from '#core/kg/inference.ts';
import { GraphVocabulary } from '#core/kg/vocabulary.ts';
import type { FactIds, Tool } from './tool.ts';

/** The time one cycle gives the rules; what they have not finished goes on in the next cycle. */
const SLICE_MS = 40;
/**
 * Facts a slice joins before the clock may stop it: small work always ends in one cycle, so what
 * the agent does next depends on the graph, not on how busy the machine is.
 */
const FACTS_BEFORE_THE_CLOCK = 4096;
/** Derived facts one cycle stores at most (each with its own provenance record); the rest wait for the next. */
const FACTS_PER_CYCLE = 400;

/**
 * Runs the built-in rules around the goal's symbols and stores what they derive about them, a
 * slice at a time (see inferenceAround: the work goes on where the last cycle left it; facts about
 * no goal symbol are not stored: `kg infer` materialises everything). Scores high when the graph
 * has changed since the last run and the goal's symbols take part in rule relations (is-a,
 * part-of, ...), i.e. when chains may hold facts nobody has stated yet.
 */
export const inferRules: Tool<{ minConfidence: number }> = {
  name: 'infer_rules',
  description: 'forward chaining with the built-in rules',
  archetype: 'sage',
  danger: 'safe',
  capabilities: ['readKg', 'writeKg'],
  input: z.object({ minConfidence: z.number().min(0).max(1) }),
  unavailableBecause: (state) =>
    state.inferredAtTripleCount === state.graph.tripleCount
      ? 'the rules have already run around this goal on the graph as it is'
      : undefined,
  baseScore(state) {
    const vocabulary = GraphVocabulary.of(state.graph);
    const ruleRelations = [
      'is-a',
      'part-of',
      'has-a',
      'has-part',
      'similar-to',
      'parent-of',
      'child-of',
      'contains',
    ].flatMap((name) => vocabulary.relationNamed(name).ids);
    // Positions and columns, with an early exit: goal symbols can have very many facts.
    const { predicates } = state.graph.columns;
    const usesRule = (positions: readonly number[]) =>
      positions.some((position) => ruleRelations.includes(predicates[position]!));
    const chains = state.goalSymbols.some(
      (symbol) => usesRule(state.graph.positionsTo(symbol)) || usesRule(state.graph.positionsFrom(symbol)),
    );
    return chains ? 0.85 : 0.2;
  },
  proposeInput: () => ({ minConfidence: 0.1 }),
  run(input, state) {
    // Only around the goal: its cost follows the goal's neighbourhood, not the size of the graph.
    const chaining = inferenceAround(state.graph, state.goalSymbols, { minConfidence: input.minConfidence });
    // The rules run only when fewer facts wait than a cycle stores: what they derived first is stored first.
    let taken = chaining.take(FACTS_PER_CYCLE);
    if (taken.length < FACTS_PER_CYCLE && !chaining.isDone) {
      const stopAt = performance.now() + SLICE_MS;
      // advance asks every 64 facts joined.
      let joined = 0;
      chaining.advance({ shouldStop: () => (joined += 64) > FACTS_BEFORE_THE_CLOCK && performance.now() >= stopAt });
      taken = chaining.take(FACTS_PER_CYCLE);
    }
    const { delta, derivationOf } = stageDerivations(state.graph, taken, state.now);
    const more = chaining.waiting - taken.length;
    const isFinished = chaining.isDone && more === 0;
    const facts: FactIds[] = [...delta.addedTriples, ...delta.updatedTriples].map((triple) => [
      triple.subject,
      triple.predicate,
      triple.object,
    ]);
    // Not chaining.result(): it copies every derivation so far, thousands on a big closure, each cycle.
    const iterations = chaining.progress.rounds;
    const { hasConverged } = chaining;
    const progress = isFinished
      ? `in ${iterations} rounds${hasConverged ? '' : ', not converged'}`
      : `so far (round ${iterations}${more > 0 ? `, ${more} more derived` : ''}; the rules go on next cycle)`;
    return {
      ok: true,
      summary: `derived ${delta.addedTriples.length} new facts about the goal ${progress}`,
      facts,
      symbols: [...new Set(facts.flatMap(([subject, , object]) => [subject, object]))],
      graphChange: {
        delta,
        provenance: {
          perBatch: (triples) =>
            derivationsProvenance(triples.map(derivationOf), {
              sessionId: state.sessionId,
              cycle: state.cycle,
              createdAt: state.now,
            }),
        },
        // After storing, the graph holds the derived facts too: the rules have run around the goal on all of it.
        ...(isFinished ? { inferredAtTripleCount: state.graph.tripleCount + delta.addedTriples.length } : {}),
      },
    };
  },
};
