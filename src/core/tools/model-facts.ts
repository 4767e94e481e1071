import { z } from 'zod';
import { rejectionOf } from '#core/records/rejection.ts';
import type { LlmProvider } from '#core/llm/provider.ts';
import { type Attempt, structuredCall } from '#core/llm/structured-call.ts';
import { type Bottleneck, bottleneckSchema } from '#core/records/model-use.ts';
import { METADATA_PREFIX } from '#core/kg/symbol.ts';
import type { Triple } from '#core/kg/triple.ts';
import type { GraphBatch } from '#core/kg/graph-batch.ts';
import type { GraphDelta } from '#core/kg/graph-delta.ts';
import type { ProvenanceDraft } from '#core/kg/provenance.ts';
import { domainTriplesAround, type FactIds, type GraphChange, type ToolOutcome, type ToolState } from './tool.ts';
import type { ModelUse } from '#core/records/model-use.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';

/** What a model was asked for one answer: each request's tokens, and their sums. */
export function modelUseOf(provider: Pick<LlmProvider, 'name' | 'model'>, attempts: readonly Attempt[]): ModelUse {
  const steps = attempts.map(({ usage }) => ({
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
  }));
  return {
    provider: provider.name,
    model: provider.model,
    requests: steps.length,
    promptTokens: steps.reduce((sum, step) => sum + step.promptTokens, 0),
    completionTokens: steps.reduce((sum, step) => sum + step.completionTokens, 0),
    steps,
  };
}

const MAX_PROPOSED_TRIPLES = 20;
const CONTEXT_FACTS = 40;

/** A name a model may give a symbol: one line, not too long, and never one of the agent's own metadata relations. */
const modelLabelSchema = z
  .string()
  .trim()
  .min(1, 'a name is empty')
  .max(120, 'a name is longer than 120 characters')
  .refine((label) => !/[\n\r\t]/.test(label), 'a name spans more than one line')
  .refine(
    (label) => !label.toLowerCase().startsWith(METADATA_PREFIX),
    `names starting with "${METADATA_PREFIX}" are the agent's own`,
  );

const proposedTripleSchema = z.object({
  subject: modelLabelSchema,
  predicate: modelLabelSchema,
  object: modelLabelSchema,
  confidence: z.number().min(0).max(1),
});
export type ProposedTriple = z.infer<typeof proposedTripleSchema>;

/**
 * One envelope per step (DESIGN section 10): a final answer with the facts it stands on, or a
 * truthful bottleneck. A model that cannot answer from what it is given says so.
 */
export const factsAnswerSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('final'),
    answer: z.string().max(2000),
    triples: z.array(proposedTripleSchema).max(MAX_PROPOSED_TRIPLES),
  }),
  z.object({ kind: z.literal('bottleneck'), bottleneck: bottleneckSchema }),
]);

/** The stable first message of every model call of a run: the agent, its tools, the rules of an answer. */
export function systemPromptOf(tools: readonly { name: string; description: string }[]): string {
  return [
    'You are the reasoning of Anima, an agent that works on its goals over a knowledge graph of facts (subject, predicate, object).',
    'The agent has these tools:',
    ...tools.map((tool) => `- ${tool.name}: ${tool.description}`),
    'Answer only with JSON that matches the schema you are given.',
    `A final answer gives the answer in words and the facts it stands on as triples (short names; predicates like is-a, part-of, has), each with your confidence from 0 to 1; at most ${MAX_PROPOSED_TRIPLES}.`,
    'When what you are given does not let you answer, answer with a bottleneck and say what is missing. Never invent facts you are not confident of.',
  ].join('\n');
}

/** The goal and the facts the graph holds around it, as a model reads them. */
export function goalContextOf(state: ToolState, symbols: readonly number[] = state.goalSymbols): string {
  const label = (id: number) => state.graph.symbol(id)?.label ?? `#${id}`;
  const facts = domainTriplesAround(state.graph, symbols, CONTEXT_FACTS).map(
    (triple) =>
      `${label(triple.subject)} ${label(triple.predicate)} ${label(triple.object)} (${triple.confidence.toFixed(2)})`,
  );
  return [
    `Goal: ${state.goal.description}`,
    ...(state.goal.successCriteria.trim() !== '' ? [`Done when: ${state.goal.successCriteria}`] : []),
    facts.length > 0 ? `Known facts:\n${facts.join('\n')}` : 'Known facts: none about the goal yet.',
  ].join('\n');
}

export type FactsAnswer =
  | { ok: true; answer: string; triples: ProposedTriple[]; use: ModelUse }
  | { ok: false; bottleneck: Bottleneck; use: ModelUse };

/** Asks the bound model for facts, through the contract (schema, retries, bottleneck, the run's budget). */
export async function askForFacts(model: ModelAccess, task: { name: string; prompt: string }): Promise<FactsAnswer> {
  const outcome = await structuredCall(model.provider, factsAnswerSchema, {
    name: task.name,
    system: model.system,
    prompt: task.prompt,
    budget: model.budget,
    maxTokens: 1024,
    ...(model.settings ? { settings: model.settings } : {}),
    ...(model.signal ? { signal: model.signal } : {}),
  });
  const use = modelUseOf(model.provider, outcome.attempts);
  if (!outcome.ok)
    return { ok: false, bottleneck: outcome.bottleneck, use: { ...use, bottleneck: outcome.bottleneck } };
  if (outcome.value.kind === 'bottleneck')
    return { ok: false, bottleneck: outcome.value.bottleneck, use: { ...use, bottleneck: outcome.value.bottleneck } };
  return { ok: true, answer: outcome.value.answer, triples: outcome.value.triples, use };
}

/** Asserts facts a model proposed into a batch, each at its confidence but never above the cap; returns each fact's confidence by "s p o" ids. */
export function assertModelFacts(
  batch: GraphBatch,
  triples: readonly ProposedTriple[],
  confidenceCap: number,
): Map<string, number> {
  const confidenceOf = new Map<string, number>();
  for (const proposed of triples) {
    const subject = batch.resolve({ type: 'label', value: proposed.subject }, 'subject');
    const predicate = batch.resolve({ type: 'label', value: proposed.predicate }, 'predicate');
    const object = batch.resolve({ type: 'label', value: proposed.object }, 'object');
    const confidence = Math.min(confidenceCap, proposed.confidence);
    batch.assert(subject, predicate, object, confidence);
    confidenceOf.set(`${subject} ${predicate} ${object}`, confidence);
  }
  return confidenceOf;
}

/** The provenance of a fact a model said: the model, the tool, the goal, and (shortened) its answer. */
export function modelProvenance(
  state: ToolState & { model: ModelAccess },
  delta: GraphDelta,
  context: { tool: string; answer: string; confidenceOf: ReadonlyMap<string, number> },
): (triple: Triple) => ProvenanceDraft {
  const { provider } = state.model;
  const labelOf = (id: number) =>
    state.graph.symbol(id)?.label ?? delta.symbols.find((symbol) => symbol.id === id)?.label ?? `#${id}`;
  const answer = context.answer.length > 200 ? `${context.answer.slice(0, 200)}…` : context.answer;
  return (triple) => ({
    sessionId: state.sessionId,
    kind: 'model',
    sources: [`model:${provider.name}/${provider.model}`, `tool:${context.tool}`, `goal:${state.goal.id}`],
    confidence:
      context.confidenceOf.get(`${triple.subject} ${triple.predicate} ${triple.object}`) ?? state.model.confidenceCap,
    cycle: state.cycle,
    detail: `${labelOf(triple.subject)} ${labelOf(triple.predicate)} ${labelOf(triple.object)}, said by ${provider.model} (${provider.name}) for "${state.goal.description}"${answer ? `: ${answer}` : ''}`,
    createdAt: state.now,
  });
}

/** The graph change for facts a model proposed, with the model, the tool and the answer as provenance. */
export function modelFactsChange(
  state: ToolState & { model: ModelAccess },
  triples: readonly ProposedTriple[],
  context: { tool: string; answer: string },
): { change: GraphChange; facts: FactIds[] } {
  const batch = state.graph.batch({ now: state.now });
  const confidenceOf = assertModelFacts(batch, triples, state.model.confidenceCap);
  const delta = batch.delta;
  return {
    facts: [...delta.addedTriples, ...delta.updatedTriples].map((triple) => [
      triple.subject,
      triple.predicate,
      triple.object,
    ]),
    change: { delta, provenance: modelProvenance(state, delta, { ...context, confidenceOf }) },
  };
}

/** A tool's outcome when its model call ended in a bottleneck: a truthful failure that names it (a missing model or spent budget is a missing dependency). */
export function bottleneckOutcome(
  tool: string,
  answer: Extract<FactsAnswer, { ok: false }>,
  symbols: readonly number[],
): ToolOutcome {
  const { bottleneck } = answer;
  return {
    ok: false,
    summary: `${tool} asked the model and got no answer: ${bottleneck.kind.replace(/_/g, ' ')} (${bottleneck.detail})`,
    facts: [],
    symbols: [...symbols],
    modelUse: answer.use,
    ...(bottleneck.kind === 'dependency_unavailable' || bottleneck.kind === 'budget_exhausted'
      ? {
          rejection: rejectionOf(
            'dependency_unavailable',
            bottleneck.kind === 'budget_exhausted' ? "room in the run's budget" : 'a model that answers',
            bottleneck.detail,
          ),
        }
      : {}),
  };
}
