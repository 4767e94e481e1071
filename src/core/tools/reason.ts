import { z } from 'zod';
import { BUILT_IN_RULES } from '#core/kg/inference.ts';
import { shortestPath, transitiveClosure } from '#core/kg/traversal.ts';
import { GraphVocabulary } from '#core/kg/vocabulary.ts';
import { factIdsOf, type FactIds, type Tool, type ToolOutcome, type ToolState } from './tool.ts';
import { bottleneckOutcome, goalContextOf, type ModelAccess, modelFactsChange } from './model-facts.ts';
import { askWithTools } from './model-steps.ts';

const TRANSITIVE = BUILT_IN_RULES.filter((rule) => rule.kind === 'transitive').map((rule) => rule.predicate);

/**
 * Derives an answer. Without a model, by proof: for a pattern `?x P C` over a transitive relation,
 * every x that reaches C through P-chains, each with its chain as the proof; for two goal symbols,
 * the chain of facts that connects them (nothing is stored: the proof is the answer). With a model
 * bound, where no proof applies, the model answers from the facts around the goal: its answer and
 * the facts it stands on (stored at a capped confidence), or a truthful bottleneck.
 */
export const reason: Tool<{ mode: 'closure'; predicate: number; target: number; relation?: string } | { mode: 'connect'; from: number; to: number } | { mode: 'model'; question: string }> = {
  name: 'reason',
  description: 'derive an answer by proof over the graph, or ask the bound model from the facts around the goal',
  archetype: 'sage',
  // A proof only reads; a model's answer adds facts to the graph.
  danger: 'cautious',
  dangerOf: (input) => (input.mode === 'model' ? 'cautious' : 'safe'),
  capabilities: ['readKg', 'reason', 'writeKg', 'llm'],
  capabilitiesOf: (input) => (input.mode === 'model' ? ['readKg', 'reason', 'writeKg', 'llm'] : ['readKg', 'reason']),
  input: z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('closure'), predicate: z.number().int(), target: z.number().int(), relation: z.string().min(1).max(200).optional() }),
    z.object({ mode: z.literal('connect'), from: z.number().int(), to: z.number().int() }),
    z.object({ mode: z.literal('model'), question: z.string().min(1).max(2000) }),
  ]),
  unavailableBecause: (state) =>
    closureOf(state) === undefined && state.goalSymbols.length < 2 && !state.model ? 'nothing to prove: no transitive pattern and fewer than two goal symbols, and no model is bound' : undefined,
  baseScore: (state) => (closureOf(state) !== undefined ? 0.6 : state.model ? 0.5 : 0.3),
  proposeInput(state) {
    const closure = closureOf(state);
    if (closure) return { mode: 'closure', ...closure };
    return state.model ? { mode: 'model', question: state.goal.description } : { mode: 'connect', from: state.goalSymbols[0]!, to: state.goalSymbols[1]! };
  },
  run(input, state) {
    const { graph } = state;
    if (input.mode === 'model') return state.model ? reasonWithModel(input.question, { ...state, model: state.model }) : { ok: false, summary: 'reason: no model is bound to this run', facts: [], symbols: [], rejection: 'dependency_unavailable' };
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
    // The relation as the vocabulary defines it: is-a is also rdf:type up rdfs:subClassOf chains.
    const vocabulary = GraphVocabulary.of(graph);
    const relation = input.relation !== undefined ? vocabulary.relationNamed(input.relation) : vocabulary.relationOf(input.predicate);
    const types = vocabulary.typeIds();
    const members = new Set([input.predicate, ...relation.ids]);
    const reached = transitiveClosure(graph, { members, chain: [...members].filter((id) => !types.has(id)), inverseIds: relation.inverseIds }, input.target);
    // The proof of each answer: the chain from it up to the target (the triples it stands on).
    const facts: FactIds[] = [];
    for (const symbol of reached.slice(0, 200)) {
      const path = shortestPath(graph, symbol, input.target);
      for (const step of path ?? []) if (step.isForward ? members.has(step.triple.predicate) : relation.inverseIds.includes(step.triple.predicate)) facts.push(factIdsOf(step.triple));
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
function closureOf(state: Parameters<Tool['baseScore']>[0]): { predicate: number; target: number; relation: string } | undefined {
  if (state.criteria.kind !== 'pattern' || state.criteria.patterns.length !== 1) return undefined;
  const [subject, predicate, object] = state.criteria.patterns[0]!;
  if (subject.type !== 'variable' || predicate.type !== 'label' || object.type !== 'label') return undefined;
  if (!TRANSITIVE.includes(predicate.value.toLowerCase())) return undefined;
  const predicateId = GraphVocabulary.of(state.graph).relationNamed(predicate.value).ids[0];
  const target = state.graph.symbolsNamed(object.value).find((symbol) => symbol.kind === 'entity')?.id;
  return predicateId !== undefined && target !== undefined ? { predicate: predicateId, target, relation: predicate.value } : undefined;
}

/** The model's answer to the goal's question from the facts around it, with the facts it stands on stored at a capped confidence. */
async function reasonWithModel(question: string, state: ToolState & { model: ModelAccess }): Promise<ToolOutcome> {
  const answer = await askWithTools(state, {
    name: 'reason',
    prompt: `${goalContextOf(state)}\nQuestion: ${question}\nAnswer the question from the known facts, what the tools find and what you know for certain, with the facts your answer stands on.`,
  });
  const consulted = answer.calls.length > 0 ? `; it consulted ${answer.calls.map((call) => `${call.metadata.tool}${call.rejection ? ` (refused: ${call.rejection.replace(/_/g, ' ')})` : ''}`).join(', ')}` : '';
  if (!answer.ok) return bottleneckOutcome('reason', answer, state.goalSymbols);
  if (answer.triples.length === 0) return { ok: true, summary: `the model answered without facts: ${answer.answer}${consulted}`, facts: [], symbols: [...state.goalSymbols], evidence: answer.answer, modelUse: answer.use };
  const { change, facts } = modelFactsChange(state, answer.triples, { tool: 'reason', answer: answer.answer });
  return {
    ok: true,
    summary: `the model (${state.model.provider.model}) answered: ${answer.answer}; ${facts.length} facts at ${state.model.confidenceCap} or less${consulted}`,
    facts,
    symbols: [...new Set([...state.goalSymbols, ...facts.flatMap(([subject, , object]) => [subject, object])])].slice(0, 50),
    evidence: answer.answer,
    graphChange: change,
    modelUse: answer.use,
  };
}
