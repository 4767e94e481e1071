import { z } from 'zod';
import { BUILT_IN_RULES } from '../kg/inference.ts';
import { shortestPath, transitiveClosure } from '../kg/traversal.ts';
import { factIdsOf, type FactIds, type Tool } from './tool.ts';

const TRANSITIVE = BUILT_IN_RULES.filter((rule) => rule.kind === 'transitive').map((rule) => rule.predicate);

/**
 * Derives an answer without a model, by proof: for a pattern `?x P C` over a transitive
 * relation, every x that reaches C through P-chains, each with its chain as the proof; for two
 * goal symbols, the chain of facts that connects them. Nothing is stored: the proof is the answer.
 */
export const reason: Tool<{ mode: 'closure'; predicate: number; target: number } | { mode: 'connect'; from: number; to: number }> = {
  name: 'reason',
  description: 'derive an answer by proof over the graph (symbolic)',
  archetype: 'sage',
  danger: 'safe',
  capabilities: ['readKg', 'reason'],
  input: z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('closure'), predicate: z.number().int(), target: z.number().int() }),
    z.object({ mode: z.literal('connect'), from: z.number().int(), to: z.number().int() }),
  ]),
  unavailableBecause: (state) => (closureOf(state) === undefined && state.goalSymbols.length < 2 ? 'nothing to prove: no transitive pattern and fewer than two goal symbols' : undefined),
  baseScore: (state) => (closureOf(state) !== undefined ? 0.6 : 0.3),
  proposeInput(state) {
    const closure = closureOf(state);
    return closure ? { mode: 'closure', ...closure } : { mode: 'connect', from: state.goalSymbols[0]!, to: state.goalSymbols[1]! };
  },
  run(input, state) {
    const { graph } = state;
    const label = (id: number) => graph.symbol(id)?.label ?? `#${id}`;
    if (input.mode === 'connect') {
      const path = shortestPath(graph, input.from, input.to);
      if (!path) return { ok: true, summary: `no chain of facts connects ${label(input.from)} and ${label(input.to)}`, facts: [], symbols: [input.from, input.to] };
      return {
        ok: true,
        summary: `${label(input.from)} connects to ${label(input.to)} through ${path.map((step) => `${label(step.triple.subject)} ${label(step.triple.predicate)} ${label(step.triple.object)}`).join(', ')}`,
        facts: path.map((step) => factIdsOf(step.triple)),
        symbols: [...new Set(path.flatMap((step) => [step.triple.subject, step.triple.object]))],
      };
    }
    const reached = transitiveClosure(graph, input.predicate, input.target);
    // The proof of each answer: the chain from it up to the target (the triples it stands on).
    const facts: FactIds[] = [];
    for (const symbol of reached.slice(0, 200)) {
      const path = shortestPath(graph, symbol, input.target);
      for (const step of path ?? []) if (step.isForward && step.triple.predicate === input.predicate) facts.push(factIdsOf(step.triple));
    }
    return {
      ok: true,
      summary: `proved ${reached.length} ${label(input.predicate)} ${label(input.target)} by chains: ${reached.slice(0, 10).map(label).join(', ')}${reached.length > 10 ? ', ...' : ''}`,
      facts,
      symbols: reached.slice(0, 50),
    };
  },
};

/** The closure a goal's pattern asks for: a single `?x P C` pattern whose P is transitive. */
function closureOf(state: Parameters<Tool['baseScore']>[0]): { predicate: number; target: number } | undefined {
  if (state.criteria.kind !== 'pattern' || state.criteria.patterns.length !== 1) return undefined;
  const [subject, predicate, object] = state.criteria.patterns[0]!;
  if (subject.type !== 'variable' || predicate.type !== 'label' || object.type !== 'label') return undefined;
  if (!TRANSITIVE.includes(predicate.value.toLowerCase())) return undefined;
  const predicateId = state.graph.symbolsNamed(predicate.value)[0]?.id;
  const target = state.graph.symbolsNamed(object.value).find((symbol) => symbol.kind === 'entity')?.id;
  return predicateId !== undefined && target !== undefined ? { predicate: predicateId, target } : undefined;
}
