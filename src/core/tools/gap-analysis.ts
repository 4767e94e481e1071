import { z } from 'zod';
import { GraphVocabulary } from '#core/kg/vocabulary.ts';
import { RDFS_LABEL } from '#core/kg/standard-terms.ts';
import type { Tool } from './tool.ts';

const MAX_PARENTS = 2;
const MAX_SIBLINGS = 200;

/**
 * Looks for what the graph lacks around the goal: relations that the symbol's siblings (sharing
 * an is-a parent) have and it has not, and dead ends (symbols with nothing going out).
 */
export const gapAnalysis: Tool<{ symbol: number }> = {
  name: 'gap_analysis',
  description: 'dead ends, missing predicates, coverage of the goal',
  archetype: 'healer',
  danger: 'safe',
  capabilities: ['readKg'],
  input: z.object({ symbol: z.number().int().nonnegative() }),
  unavailableBecause: (state) =>
    state.goalSymbols.length === 0 ? 'the goal names no symbol the graph knows' : undefined,
  baseScore: (state) => (state.goal.cyclesWorked - state.goal.lastProgressCycle >= 2 ? 0.5 : 0.25),
  proposeInput: (state) => ({ symbol: state.goalSymbols[0]! }),
  run(input, state) {
    const { graph } = state;
    const label = (id: number) => graph.symbol(id)?.label ?? `#${id}`;
    const isA = new Set(GraphVocabulary.of(graph).relationNamed('is-a').ids);
    // Names (rdfs:label) are not knowledge a symbol lacks; literal values are not places to go.
    const labelPredicate = graph.symbolByIri(RDFS_LABEL)?.id;
    const own = new Set(
      graph
        .outgoing(input.symbol)
        .filter((triple) => !graph.isMetadata(triple))
        .map((triple) => triple.predicate),
    );
    // The closest parents only (stated before derived, so the most confident), and a bounded number
    // of their children: after inference every ancestor is a parent, and the root's children are all.
    const parents = graph
      .outgoing(input.symbol)
      .filter((triple) => isA.has(triple.predicate))
      .sort((a, b) => b.confidence - a.confidence)
      .slice(0, MAX_PARENTS)
      .map((triple) => triple.object);
    const siblingPredicates = new Map<number, number>();
    const { subjects, predicates } = graph.columns;
    const siblingsOf = (parent: number) => {
      const siblings: number[] = [];
      for (const position of graph.positionsTo(parent)) {
        if (isA.has(predicates[position]!)) siblings.push(subjects[position]!);
        if (siblings.length >= MAX_SIBLINGS) break;
      }
      return siblings;
    };
    for (const parent of parents)
      for (const sibling of siblingsOf(parent)) {
        if (sibling === input.symbol) continue;
        for (const predicate of new Set(
          graph
            .outgoing(sibling)
            .filter((triple) => !graph.isMetadata(triple) && triple.predicate !== labelPredicate)
            .map((triple) => triple.predicate),
        ))
          siblingPredicates.set(predicate, (siblingPredicates.get(predicate) ?? 0) + 1);
      }
    const missing = [...siblingPredicates]
      .filter(([predicate]) => !own.has(predicate))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5);
    const deadEnds = graph
      .outgoing(input.symbol)
      .map((triple) => triple.object)
      .filter((object) => graph.symbol(object)?.kind === 'entity' && graph.outgoing(object).length === 0)
      .slice(0, 5);
    return {
      ok: true,
      summary:
        `${label(input.symbol)}: ${missing.length > 0 ? `siblings have ${missing.map(([predicate]) => label(predicate)).join(', ')}, it has not` : 'no relation its siblings have is missing'}; ` +
        `${deadEnds.length > 0 ? `dead ends ${deadEnds.map(label).join(', ')}` : 'no dead ends'}`,
      facts: [],
      symbols: [input.symbol, ...deadEnds],
    };
  },
};
