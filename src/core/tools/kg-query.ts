import { countText, numberText } from '#core/count-text.ts';
import { rejectionOf } from '#core/records/rejection.ts';
import { z } from 'zod';
import { parseQuery, runQuery, triplesOfAnswer } from '#core/kg/query.ts';
import { domainTriplesAround, type FactIds, factIdsOf, type Tool } from './tool.ts';

/** A lookup returns at most this many answers or triples. */
export const LOOKUP_LIMIT = 200;

/**
 * Looks up what the graph knows: the answers of the goal's criteria pattern, or the triples
 * around a symbol. Scores high while the goal has seen less than half of what is there.
 */
export const kgQuery: Tool<{ pattern?: string; symbol?: number }> = {
  name: 'kg_query',
  description: 'triples around a symbol or matching a pattern',
  archetype: 'sage',
  danger: 'safe',
  capabilities: ['readKg'],
  input: z.object({ pattern: z.string().min(1).optional(), symbol: z.number().int().nonnegative().optional() }),
  unavailableBecause: (state) =>
    state.criteria.kind === 'keywords' && state.goalSymbols.length === 0
      ? 'the goal names no symbol the graph knows'
      : undefined,
  baseScore(state) {
    const around = domainTriplesAround(state.graph, state.goalSymbols, LOOKUP_LIMIT).length;
    const seen = state.goal.findings.length;
    return around === 0 && state.criteria.kind === 'keywords' ? 0.1 : seen * 2 < Math.max(1, around) ? 0.8 : 0.2;
  },
  proposeInput: (state) =>
    state.criteria.kind === 'pattern' ? { pattern: state.criteria.text } : { symbol: state.goalSymbols[0] },
  run(input, state) {
    if (input.pattern !== undefined) {
      const parsed = parseQuery(input.pattern);
      if (!parsed.ok)
        return {
          ok: false,
          summary: `cannot read the pattern ${input.pattern}`,
          facts: [],
          symbols: [],
          rejection: rejectionOf(
            'invalid_arguments',
            'a pattern of triples joined by " . "',
            `${input.pattern}: ${parsed.error.map((problem) => problem.message).join('; ')}`,
          ),
        };
      const answer = runQuery(state.graph, parsed.value, LOOKUP_LIMIT);
      const facts: FactIds[] = answer.rows.flatMap((row) => triplesOfAnswer(state.graph, parsed.value, row));
      const labels = answer.rows.slice(0, 8).map((row) =>
        Object.values(row)
          .map((id) => state.graph.symbol(id)?.label)
          .join(' '),
      );
      return {
        ok: true,
        summary: `${answer.isTruncated ? `${numberText(answer.rows.length)}+ answers` : countText(answer.rows.length, 'answer')} to ${input.pattern}${labels.length > 0 ? `: ${labels.join(', ')}` : ''}`,
        facts,
        symbols: [...new Set(answer.rows.flatMap((row) => Object.values(row)))],
      };
    }
    const symbol = input.symbol;
    if (symbol === undefined || !state.graph.symbol(symbol))
      return {
        ok: false,
        summary: 'no symbol to look up',
        facts: [],
        symbols: [],
        rejection: rejectionOf(
          'invalid_arguments',
          'a pattern, or the id of a symbol in the graph',
          symbol === undefined ? 'neither was given' : `the graph has no symbol ${symbol}`,
        ),
      };
    const triples = domainTriplesAround(state.graph, [symbol], LOOKUP_LIMIT);
    return {
      ok: true,
      summary: `${triples.length} triples around ${state.graph.symbol(symbol)!.label}`,
      facts: triples.map(factIdsOf),
      symbols: [...new Set(triples.flatMap((triple) => [triple.subject, triple.object]))],
    };
  },
};
