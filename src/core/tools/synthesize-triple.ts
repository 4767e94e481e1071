import { z } from 'zod';
import { RDFS_LABEL } from '../kg/term.ts';
import type { FactIds, Tool } from './tool.ts';

/** Hypotheses by analogy are kept well below stated facts until something confirms them. */
export const ANALOGY_CONFIDENCE_CAP = 0.7;
const MIN_SIMILARITY = 0.6;
const MAX_PROPOSALS = 3;

/**
 * Proposes new facts by analogy (the symbolic form; a model does better): when the goal's
 * symbol is very similar to another, the facts the other has and it lacks are asserted for it,
 * at a confidence of similarity x 0.8, never above 0.7, each with the analogy as provenance.
 */
export const synthesizeTriple: Tool<{ symbol: number }> = {
  name: 'synthesize_triple',
  description: 'propose new triples by analogy with the most similar symbol',
  archetype: 'sage',
  danger: 'cautious',
  capabilities: ['readKg', 'writeKg'],
  input: z.object({ symbol: z.number().int().nonnegative() }),
  unavailableBecause: (state) => (state.goalSymbols.length === 0 ? 'the goal names no symbol the graph knows' : undefined),
  baseScore: (state) => (state.goal.cyclesWorked - state.goal.lastProgressCycle >= 2 ? 0.45 : 0.2),
  proposeInput: (state) => ({ symbol: state.goalSymbols[0]! }),
  run(input, state) {
    const { graph } = state;
    const label = (id: number) => graph.symbol(id)?.label ?? `#${id}`;
    const [nearest] = state.similarity.nearest(input.symbol, { k: 1, minSimilarity: MIN_SIMILARITY });
    if (!nearest) return { ok: true, summary: `no symbol is similar enough to ${label(input.symbol)} to reason by analogy`, facts: [], symbols: [input.symbol] };
    const labelPredicate = graph.symbolByIri(RDFS_LABEL)?.id;
    const own = new Set(graph.outgoing(input.symbol).map((triple) => `${triple.predicate} ${triple.object}`));
    const proposals = graph
      .outgoing(nearest.symbolId)
      .filter((triple) => !graph.isMetadata(triple) && triple.predicate !== labelPredicate && triple.object !== input.symbol && !own.has(`${triple.predicate} ${triple.object}`))
      .slice(0, MAX_PROPOSALS);
    if (proposals.length === 0) return { ok: true, summary: `${label(input.symbol)} already has what ${label(nearest.symbolId)} has`, facts: [], symbols: [input.symbol, nearest.symbolId] };
    const confidence = Math.min(ANALOGY_CONFIDENCE_CAP, nearest.similarity * 0.8);
    const batch = graph.batch({ now: state.now });
    for (const triple of proposals) batch.assert(input.symbol, triple.predicate, triple.object, confidence);
    const delta = batch.delta;
    const facts: FactIds[] = [...delta.addedTriples, ...delta.updatedTriples].map((triple) => [triple.subject, triple.predicate, triple.object]);
    return {
      ok: true,
      summary: `by analogy with ${label(nearest.symbolId)} (similarity ${nearest.similarity.toFixed(2)}): ${facts.map(([, predicate, object]) => `${label(input.symbol)} ${label(predicate)} ${label(object)}`).join(', ')} at ${confidence.toFixed(2)}`,
      facts,
      symbols: [input.symbol, nearest.symbolId],
      graphChange: {
        delta,
        provenance: (triple) => ({
          sessionId: state.sessionId,
          kind: 'analogy',
          sources: [`symbol:${nearest.symbolId}`, `triple:${nearest.symbolId} ${triple.predicate} ${triple.object}`],
          confidence,
          cycle: state.cycle,
          detail: `${label(triple.subject)} ${label(triple.predicate)} ${label(triple.object)} by analogy: ${label(nearest.symbolId)} has it, and is ${nearest.similarity.toFixed(2)} similar`,
          createdAt: state.now,
        }),
      },
    };
  },
};
