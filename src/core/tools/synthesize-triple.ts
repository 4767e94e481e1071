import { z } from 'zod';
import { RDFS_LABEL } from '../kg/term.ts';
import type { FactIds, Tool, ToolOutcome, ToolState } from './tool.ts';
import { askForFacts, bottleneckOutcome, goalContextOf, type ModelAccess, modelFactsChange } from './model-facts.ts';

/** Hypotheses by analogy are kept well below stated facts until something confirms them. */
export const ANALOGY_CONFIDENCE_CAP = 0.7;
const MIN_SIMILARITY = 0.6;
const MAX_PROPOSALS = 3;

/**
 * Proposes new facts. With a model bound, the model proposes them from the symbol's facts and
 * those of its most similar symbol, each at its confidence under the cap (or says why it cannot).
 * Without, by analogy: when the goal's
 * symbol is very similar to another, the facts the other has and it lacks are asserted for it,
 * at a confidence of similarity x 0.8, never above 0.7, each with the analogy as provenance.
 */
export const synthesizeTriple: Tool<{ symbol: number; by: 'analogy' | 'model' }> = {
  name: 'synthesize_triple',
  description: 'propose new triples about a symbol, by analogy with the most similar symbol or from the bound model',
  archetype: 'sage',
  danger: 'cautious',
  capabilities: ['readKg', 'writeKg', 'llm'],
  capabilitiesOf: (input) => (input.by === 'model' ? ['readKg', 'writeKg', 'llm'] : ['readKg', 'writeKg']),
  input: z.object({ symbol: z.number().int().nonnegative(), by: z.enum(['analogy', 'model']).default('analogy') }),
  unavailableBecause: (state) => (state.goalSymbols.length === 0 ? 'the goal names no symbol the graph knows' : undefined),
  baseScore: (state) => (state.goal.cyclesWorked - state.goal.lastProgressCycle >= 2 ? 0.45 : 0.2),
  proposeInput: (state) => ({ symbol: state.goalSymbols[0]!, by: state.model ? 'model' : 'analogy' }),
  run(input, state) {
    const { graph } = state;
    const label = (id: number) => graph.symbol(id)?.label ?? `#${id}`;
    const [nearest] = state.similarity.nearest(input.symbol, { k: 1, minSimilarity: MIN_SIMILARITY });
    if (input.by === 'model') {
      if (!state.model) return { ok: false, summary: 'synthesize_triple: no model is bound to this run', facts: [], symbols: [], rejection: 'dependency_unavailable' };
      return synthesizeWithModel(input.symbol, nearest?.symbolId, { ...state, model: state.model });
    }
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

/** New facts about a symbol from the model, given its facts and those of its most similar symbol. */
async function synthesizeWithModel(symbol: number, similar: number | undefined, state: ToolState & { model: ModelAccess }): Promise<ToolOutcome> {
  const label = (id: number) => state.graph.symbol(id)?.label ?? `#${id}`;
  const answer = await askForFacts(state.model, {
    name: 'synthesize_triple',
    prompt: `${goalContextOf(state, similar !== undefined ? [symbol, similar] : [symbol])}\nPropose new facts about ${label(symbol)} that the known facts lack and that help the goal${similar !== undefined ? ` (${label(similar)} is the most similar symbol)` : ''}.`,
  });
  const symbols = similar !== undefined ? [symbol, similar] : [symbol];
  if (!answer.ok) return bottleneckOutcome('synthesize_triple', answer, symbols);
  if (answer.triples.length === 0) return { ok: true, summary: `the model proposed no new fact about ${label(symbol)}: ${answer.answer}`, facts: [], symbols, modelUse: answer.use };
  const { change, facts } = modelFactsChange(state, answer.triples, { tool: 'synthesize_triple', answer: answer.answer });
  return {
    ok: true,
    summary: `the model (${state.model.provider.model}) proposed ${facts.length} facts about ${label(symbol)} at ${state.model.confidenceCap} or less: ${answer.triples.slice(0, 5).map((triple) => `${triple.subject} ${triple.predicate} ${triple.object}`).join(', ')}`,
    facts,
    symbols: [...new Set([...symbols, ...facts.flatMap(([subject, , object]) => [subject, object])])].slice(0, 50),
    graphChange: change,
    modelUse: answer.use,
  };
}
