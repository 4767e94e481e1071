import { z } from 'zod';
import { rejectionOf } from '#core/records/rejection.ts';
import { BUILT_IN_RULES, type Derivation } from '#core/kg/inference-rules.ts';
import { derivationsProvenance } from '#core/kg/inference.ts';
import { shortestPath, transitiveChains } from '#core/kg/traversal.ts';
import { GraphVocabulary } from '#core/kg/vocabulary.ts';
import { factIdsOf, type FactIds, type Tool, type ToolOutcome, type ToolState } from './tool.ts';
import { bottleneckOutcome, goalContextOf, modelFactsChange } from './model-facts.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';
import { askWithTools } from './model-steps.ts';

const TRANSITIVE = BUILT_IN_RULES.filter((rule) => rule.kind === 'transitive').map((rule) => rule.predicate);

/**
 * Derives an answer. Without a model, by proof: for a pattern `?x P C` over a transitive relation,
 * every x that reaches C through P-chains; each conclusion becomes a finding, and one the graph
 * does not state is stored with its chain as its provenance, so it counts toward the criteria; for
 * two goal symbols, the chain of facts that connects them (the proof is the answer). With a model
 * bound, where no proof applies, the model answers from the facts around the goal: its answer and
 * the facts it stands on (stored at a capped confidence), or a truthful bottleneck.
 */
export const reason: Tool<
  | { mode: 'closure'; predicate: number; target: number; relation?: string }
  | { mode: 'connect'; from: number; to: number }
  | { mode: 'model'; question: string }
> = {
  name: 'reason',
  description: 'derive an answer by proof over the graph, or ask the bound model from the facts around the goal',
  archetype: 'sage',
  // A proof adds what it proved, as the rules do; a model's answer adds facts it was not sure of.
  danger: 'cautious',
  dangerOf: (input) => (input.mode === 'model' ? 'cautious' : 'safe'),
  capabilities: ['readKg', 'reason', 'writeKg', 'llm'],
  // A proof stores the conclusions the graph does not state yet; connecting two symbols only reads.
  capabilitiesOf: (input) =>
    input.mode === 'model'
      ? ['readKg', 'reason', 'writeKg', 'llm']
      : input.mode === 'closure'
        ? ['readKg', 'reason', 'writeKg']
        : ['readKg', 'reason'],
  input: z.discriminatedUnion('mode', [
    z.object({
      mode: z.literal('closure'),
      predicate: z.number().int(),
      target: z.number().int(),
      relation: z.string().min(1).max(200).optional(),
    }),
    z.object({ mode: z.literal('connect'), from: z.number().int(), to: z.number().int() }),
    z.object({ mode: z.literal('model'), question: z.string().min(1).max(2000) }),
  ]),
  unavailableBecause: (state) =>
    closureOf(state) === undefined && state.goalSymbols.length < 2 && !state.model
      ? 'nothing to prove: no transitive pattern and fewer than two goal symbols, and no model is bound'
      : undefined,
  baseScore: (state) => (closureOf(state) !== undefined ? 0.6 : state.model ? 0.5 : 0.3),
  proposeInput(state) {
    const closure = closureOf(state);
    if (closure) return { mode: 'closure', ...closure };
    return state.model
      ? { mode: 'model', question: state.goal.description }
      : { mode: 'connect', from: state.goalSymbols[0]!, to: state.goalSymbols[1]! };
  },
  run(input, state) {
    const { graph } = state;
    if (input.mode === 'model')
      return state.model
        ? reasonWithModel(input.question, { ...state, model: state.model })
        : {
            ok: false,
            summary: 'reason: no model is bound to this run',
            facts: [],
            symbols: [],
            rejection: rejectionOf('dependency_unavailable', 'a language model bound to the run', 'no model is bound'),
          };
    const label = (id: number) => graph.symbol(id)?.label ?? `#${id}`;
    if (input.mode === 'connect') {
      const path = shortestPath(graph, input.from, input.to);
      if (!path)
        return {
          ok: true,
          summary: `no chain of facts connects ${label(input.from)} and ${label(input.to)}`,
          facts: [],
          symbols: [input.from, input.to],
        };
      return {
        ok: true,
        summary: `${label(input.from)} connects to ${label(input.to)} through ${path.map((step) => `${label(step.triple.subject)} ${label(step.triple.predicate)} ${label(step.triple.object)}`).join(', ')}`,
        facts: path.map((step) => factIdsOf(step.triple)),
        symbols: [...new Set(path.flatMap((step) => [step.triple.subject, step.triple.object]))],
      };
    }
    // The relation as the vocabulary defines it: is-a is also rdf:type up rdfs:subClassOf chains.
    const vocabulary = GraphVocabulary.of(graph);
    const relation =
      input.relation !== undefined ? vocabulary.relationNamed(input.relation) : vocabulary.relationOf(input.predicate);
    const types = vocabulary.typeIds();
    const members = new Set([input.predicate, ...relation.ids]);
    const proofs = transitiveChains(
      graph,
      { members, chain: [...members].filter((id) => !types.has(id)), inverseIds: relation.inverseIds },
      input.target,
    );
    // What was proved is kept: each conclusion the graph does not state yet is stored, its chain as its provenance, and becomes a finding.
    const batch = graph.batch({ now: state.now });
    const derivations = new Map<string, Derivation>();
    const facts: FactIds[] = [];
    for (const { subject, chain } of proofs.slice(0, MAX_PROOFS_KEPT)) {
      // The conclusion keeps the predicate its first step was said with: rex rdf:type Dog makes rex rdf:type Mammal.
      const first = chain[0];
      const predicate =
        first && first.subject === subject && members.has(first.predicate) ? first.predicate : input.predicate;
      facts.push([subject, predicate, input.target]);
      if (chain.length < 2 || [...members].some((member) => graph.triple(subject, member, input.target))) continue;
      const confidence = chain.reduce((product, triple) => product * triple.confidence, 1);
      batch.assert(subject, predicate, input.target, confidence);
      derivations.set(`${subject} ${predicate} ${input.target}`, {
        subject,
        predicate,
        object: input.target,
        confidence,
        rule: 'proof-by-chain',
        premises: chain,
      });
    }
    const { delta } = batch;
    const kept = proofs.length > MAX_PROOFS_KEPT ? `; the first ${MAX_PROOFS_KEPT} kept as findings` : '';
    return {
      ok: true,
      summary:
        // Said with the relation the goal asked for (is-a), not whichever of its predicates came first (rdf:type).
        `proved ${proofs.length} ${input.relation ?? label(input.predicate)} ${label(input.target)} by chains: ${proofs
          .slice(0, 10)
          .map((proof) => label(proof.subject))
          .join(', ')}${proofs.length > 10 ? ', ...' : ''}` +
        `${kept}; ${delta.addedTriples.length} conclusions stored with their chains`,
      facts,
      symbols: proofs.slice(0, 50).map((proof) => proof.subject),
      ...(delta.addedTriples.length > 0
        ? {
            graphChange: {
              delta,
              provenance: {
                perBatch: (triples) =>
                  derivationsProvenance(
                    triples.map((triple) => derivations.get(`${triple.subject} ${triple.predicate} ${triple.object}`)!),
                    { sessionId: state.sessionId, cycle: state.cycle, createdAt: state.now },
                  ),
              },
            },
          }
        : {}),
    };
  },
};

/** A goal keeps at most this many proofs as findings (MAX_FINDINGS of the cycle), the nearest first. */
const MAX_PROOFS_KEPT = 2000;

/** The closure a goal's pattern asks for: a single `?x P C` pattern whose P is transitive. */
function closureOf(
  state: Parameters<Tool['baseScore']>[0],
): { predicate: number; target: number; relation: string } | undefined {
  if (state.criteria.kind !== 'pattern' || state.criteria.patterns.length !== 1) return undefined;
  const [subject, predicate, object] = state.criteria.patterns[0]!;
  if (subject.type !== 'variable' || predicate.type !== 'label' || object.type !== 'label') return undefined;
  if (!TRANSITIVE.includes(predicate.value.toLowerCase())) return undefined;
  const predicateId = GraphVocabulary.of(state.graph).relationNamed(predicate.value).ids[0];
  const target = state.graph.symbolsNamed(object.value).find((symbol) => symbol.kind === 'entity')?.id;
  return predicateId !== undefined && target !== undefined
    ? { predicate: predicateId, target, relation: predicate.value }
    : undefined;
}

/**
 * The model's answer to the goal's question from the facts around it, with the facts it stands on
 * stored at a capped confidence; the tool server calls it made are kept, and a call it asked for
 * that waits for the user is held (the goal then waits for it).
 */
async function reasonWithModel(question: string, state: ToolState & { model: ModelAccess }): Promise<ToolOutcome> {
  const answer = await askWithTools(state, {
    name: 'reason',
    prompt: `${goalContextOf(state)}\nQuestion: ${question}\nAnswer the question from the known facts, what the tools find and what you know for certain, with the facts your answer stands on.`,
  });
  const outcome = outcomeOfAnswer(answer, state);
  const serverCalls = answer.calls.flatMap((call) => call.serverCalls ?? []);
  const held = answer.calls.find((call) => call.held !== undefined)?.held;
  return {
    ...outcome,
    ...(serverCalls.length > 0 ? { serverCalls } : {}),
    ...(held ? { heldAction: held } : {}),
  };
}

/** What the model's answer (or its bottleneck) does to the goal. */
function outcomeOfAnswer(
  answer: Awaited<ReturnType<typeof askWithTools>>,
  state: ToolState & { model: ModelAccess },
): ToolOutcome {
  const consulted =
    answer.calls.length > 0
      ? `; it consulted ${answer.calls.map((call) => `${call.metadata.tool}${call.rejection ? ` (refused: ${call.rejection.class.replace(/_/g, ' ')})` : ''}`).join(', ')}`
      : '';
  if (!answer.ok) return bottleneckOutcome('reason', answer, state.goalSymbols);
  if (answer.triples.length === 0)
    return {
      ok: true,
      summary: `the model answered without facts: ${answer.answer}${consulted}`,
      facts: [],
      symbols: [...state.goalSymbols],
      modelUse: answer.use,
    };
  const { change, facts } = modelFactsChange(state, answer.triples, { tool: 'reason', answer: answer.answer });
  return {
    ok: true,
    summary: `the model (${state.model.provider.model}) answered: ${answer.answer}; ${facts.length} facts at ${state.model.confidenceCap} or less${consulted}`,
    facts,
    symbols: [...new Set([...state.goalSymbols, ...facts.flatMap(([subject, , object]) => [subject, object])])].slice(
      0,
      50,
    ),
    graphChange: change,
    modelUse: answer.use,
  };
}
