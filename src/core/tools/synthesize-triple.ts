import { z } from 'zod';
import { rejectionOf } from '#core/records/rejection.ts';
import { proposeByAnalogy } from '#core/kg/analogy.ts';
import { fitting } from '#core/kg/analogy-fit.ts';
import type { FactIds, Tool, ToolOutcome, ToolState } from './tool.ts';
import { askForFacts, bottleneckOutcome, goalContextOf, modelFactsChange } from './model-facts.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';

/** Hypotheses by analogy are kept well below stated facts until something confirms them. */
export const ANALOGY_CONFIDENCE_CAP = 0.7;
const MIN_SIMILARITY = 0.6;
const MAX_PROPOSALS = 3;
/** Similar symbols consulted by analogy. */
const NEIGHBOURS = 10;
/**
 * Least share of the similar symbols' weight a proposal needs (see AnalogyProposal.share): a fact
 * only a few weakly similar symbols have is a guess. On WordNet's animals (npm run eval:analogy)
 * 0.3 gives precision 0.51 to 0.61 at recall 0.24 to 0.28; 0.2 and lower give up precision.
 */
const MIN_SHARE = 0.3;

/**
 * Proposes new facts. With a model bound, the model proposes them from the symbol's facts and
 * those of its most similar symbol, each at its confidence under the cap (or says why it cannot).
 * Without, by analogy ({@link proposeByAnalogy}): the relational facts the symbol's similar
 * symbols share and it lacks, best supported first, never names, codes, functional predicates
 * or facts the graph contradicts, and only those that fit it ({@link fitting}: the most specific
 * classes, no more objects of a predicate than its kin have); each at 0.8 x the similarity of
 * its sharers averaged over all similar symbols consulted, never above 0.7, with the analogy and
 * its support as provenance.
 */
export const synthesizeTriple: Tool<{ symbol: number; by: 'analogy' | 'model' }> = {
  name: 'synthesize_triple',
  description: 'propose new triples about a symbol, by analogy with the most similar symbol or from the bound model',
  archetype: 'sage',
  danger: 'cautious',
  capabilities: ['readKg', 'writeKg', 'llm'],
  capabilitiesOf: (input) => (input.by === 'model' ? ['readKg', 'writeKg', 'llm'] : ['readKg', 'writeKg']),
  input: z.object({ symbol: z.number().int().nonnegative(), by: z.enum(['analogy', 'model']).default('analogy') }),
  unavailableBecause: (state) =>
    state.goalSymbols.length === 0 ? 'the goal names no symbol the graph knows' : undefined,
  baseScore: (state) => (state.goal.cyclesWorked - state.goal.lastProgressCycle >= 2 ? 0.45 : 0.2),
  proposeInput: (state) => ({ symbol: state.goalSymbols[0]!, by: state.model ? 'model' : 'analogy' }),
  run(input, state) {
    if (input.by === 'model') {
      if (!state.model)
        return {
          ok: false,
          summary: 'synthesize_triple: no model is bound to this run',
          facts: [],
          symbols: [],
          rejection: rejectionOf('dependency_unavailable', 'a language model bound to the run', 'no model is bound'),
        };
      const [nearest] = state.similarity.nearest(input.symbol, { k: 1, minSimilarity: MIN_SIMILARITY });
      return synthesizeWithModel(input.symbol, nearest?.symbolId, { ...state, model: state.model });
    }
    return synthesizeByAnalogy(input.symbol, state);
  },
};

/** Asserts the best supported analogy proposals for a symbol (see {@link synthesizeTriple}). */
function synthesizeByAnalogy(symbol: number, state: ToolState): ToolOutcome {
  const { graph } = state;
  const label = (id: number) => graph.symbol(id)?.label ?? `#${id}`;
  const { neighbours, proposals } = proposeByAnalogy(graph, state.similarity, symbol, {
    neighbours: NEIGHBOURS,
    minSimilarity: MIN_SIMILARITY,
  });
  if (neighbours.length === 0)
    return {
      ok: true,
      summary: `no symbol is similar enough to ${label(symbol)} to reason by analogy`,
      facts: [],
      symbols: [symbol],
    };
  const similar = neighbours.map((hit) => hit.symbolId);
  const chosen = fitting(
    graph,
    symbol,
    proposals.filter((proposal) => proposal.share >= MIN_SHARE),
    neighbours,
  ).slice(0, MAX_PROPOSALS);
  const consulted = `${neighbours.length} similar symbol${neighbours.length === 1 ? '' : 's'} (${neighbours.map((hit) => `${label(hit.symbolId)} ${hit.similarity.toFixed(2)}`).join(', ')})`;
  if (chosen.length === 0)
    return {
      ok: true,
      summary: `${label(symbol)} lacks no fact that its ${consulted} share and the graph allows`,
      facts: [],
      symbols: [symbol, ...similar],
    };
  const confidenceOf = (proposal: (typeof chosen)[number]) => Math.min(ANALOGY_CONFIDENCE_CAP, proposal.strength * 0.8);
  const byFact = new Map(chosen.map((proposal) => [`${proposal.predicate} ${proposal.object}`, proposal]));
  const batch = graph.batch({ now: state.now });
  for (const proposal of chosen) batch.assert(symbol, proposal.predicate, proposal.object, confidenceOf(proposal));
  const delta = batch.delta;
  const facts: FactIds[] = [...delta.addedTriples, ...delta.updatedTriples].map((triple) => [
    triple.subject,
    triple.predicate,
    triple.object,
  ]);
  const supportOf = (proposal: (typeof chosen)[number]) =>
    `support ${proposal.support}/${neighbours.length}, share ${proposal.share.toFixed(2)}`;
  return {
    ok: true,
    summary: `by analogy with ${consulted}: ${chosen.map((proposal) => `${label(symbol)} ${label(proposal.predicate)} ${label(proposal.object)} (${supportOf(proposal)}) at ${confidenceOf(proposal).toFixed(2)}`).join(', ')}`,
    facts,
    symbols: [symbol, ...similar],
    graphChange: {
      delta,
      provenance: (triple) => {
        const proposal = byFact.get(`${triple.predicate} ${triple.object}`)!;
        return {
          sessionId: state.sessionId,
          kind: 'analogy',
          sources: proposal.sharers.map((sharer) => `triple:${sharer} ${triple.predicate} ${triple.object}`),
          confidence: confidenceOf(proposal),
          cycle: state.cycle,
          detail: `${label(triple.subject)} ${label(triple.predicate)} ${label(triple.object)} by analogy: ${proposal.sharers.map(label).join(', ')} ha${proposal.support === 1 ? 's' : 've'} it (${supportOf(proposal)})`,
          createdAt: state.now,
        };
      },
    },
  };
}

/** New facts about a symbol from the model, given its facts and those of its most similar symbol. */
async function synthesizeWithModel(
  symbol: number,
  similar: number | undefined,
  state: ToolState & { model: ModelAccess },
): Promise<ToolOutcome> {
  const label = (id: number) => state.graph.symbol(id)?.label ?? `#${id}`;
  const answer = await askForFacts(state.model, {
    name: 'synthesize_triple',
    prompt: `${goalContextOf(state, similar !== undefined ? [symbol, similar] : [symbol])}\nPropose new facts about ${label(symbol)} that the known facts lack and that help the goal${similar !== undefined ? ` (${label(similar)} is the most similar symbol)` : ''}.`,
  });
  const symbols = similar !== undefined ? [symbol, similar] : [symbol];
  if (!answer.ok) return bottleneckOutcome('synthesize_triple', answer, symbols);
  if (answer.triples.length === 0)
    return {
      ok: true,
      summary: `the model proposed no new fact about ${label(symbol)}: ${answer.answer}`,
      facts: [],
      symbols,
      modelUse: answer.use,
    };
  const { change, facts } = modelFactsChange(state, answer.triples, {
    tool: 'synthesize_triple',
    answer: answer.answer,
  });
  return {
    ok: true,
    summary: `the model (${state.model.provider.model}) proposed ${facts.length} facts about ${label(symbol)} at ${state.model.confidenceCap} or less: ${answer.triples
      .slice(0, 5)
      .map((triple) => `${triple.subject} ${triple.predicate} ${triple.object}`)
      .join(', ')}`,
    facts,
    symbols: [...new Set([...symbols, ...facts.flatMap(([subject, , object]) => [subject, object])])].slice(0, 50),
    graphChange: change,
    modelUse: answer.use,
  };
}
