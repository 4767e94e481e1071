import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { GraphDelta } from '#core/kg/graph-delta.ts';
import type { Triple } from '#core/kg/triple.ts';
import type { ProvenanceDraft } from '#core/kg/provenance.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';
import type { ChildRun } from '#core/records/child-run.ts';
import { rejectionOf } from '#core/records/rejection.ts';
import type { GraphChange, ToolOutcome, ToolState } from '#core/tools/tool.ts';
import { runChild } from './child-run.ts';
import { REVIEWER } from './postures.ts';

/**
 * The tool whose model facts are not reviewed: reason's facts are the model's answer to the goal,
 * shown and kept as its answer (capped, with the model as provenance). The facts a model adds to
 * the graph as knowledge beside an answer (a synthesis, a document's reading) are reviewed.
 */
const ANSWERING_TOOL = 'reason';

/** The most facts a reviewer is shown by name; a longer proposal is reviewed as a whole from these. */
const SHOWN_FACTS = 20;

/**
 * With a model bound, a reviewer child run checks the facts a model proposed before they are
 * stored, against the goal and the graph (it may query it). Accepted, they are stored with the
 * review in their provenance. Rejected, they are not stored (facts of the same change that came
 * from elsewhere, a document's sentences, still are), and the outcome says why. A reviewer that
 * stops at a bottleneck leaves them unchecked, and unchecked model facts are not stored either:
 * the graph takes in nothing a model said that no reviewer vouched for; the tool may propose
 * them again in a later cycle.
 */
export async function reviewModelFacts(
  model: ModelAccess,
  tool: string,
  state: ToolState,
  outcome: ToolOutcome,
): Promise<{ outcome: ToolOutcome; run?: ChildRun }> {
  const change = outcome.graphChange;
  // Derivations come in batches, and a model says its facts one by one.
  if (!change || tool === ANSWERING_TOOL || typeof change.provenance !== 'function') return { outcome };
  const provenanceOf = change.provenance;
  const proposed = [...change.delta.addedTriples, ...change.delta.updatedTriples].filter(
    (triple) => provenanceOf(triple).kind === 'model',
  );
  if (proposed.length === 0) return { outcome };
  const { graph } = state;
  const label = (id: number) => labelIn(graph, change.delta, id);
  const lines = proposed.slice(0, SHOWN_FACTS).map((triple) => `- ${factText(triple, label)}`);
  const review = await runChild(
    model,
    REVIEWER,
    {
      purpose: `review the ${proposed.length} facts a model proposed through ${tool} before they are stored`,
      prompt: [
        `Goal: ${state.goal.description}`,
        `A model proposed these facts for the knowledge graph through ${tool}:`,
        ...lines,
        ...(proposed.length > lines.length ? [`(and ${proposed.length - lines.length} more)`] : []),
        `What the model said of them: ${outcome.summary}`,
        'Are they plausible and consistent with what the graph holds? Accept them, or reject them naming each problem.',
      ].join('\n'),
    },
    state,
  );
  if (review.ok && review.value.verdict === 'accept')
    return { outcome: { ...outcome, graphChange: reviewed(change, provenanceOf, review.run.model) }, run: review.run };
  const because = review.ok
    ? `a reviewer rejected them (${review.value.problems.join('; ')})`
    : `the reviewer stopped (${review.bottleneck.kind.replace(/_/g, ' ')}: ${review.bottleneck.detail}), and unchecked facts are not stored`;
  return { outcome: withoutFacts(graph, outcome, change, proposed, because, review.ok), run: review.run };
}

function labelIn(graph: KnowledgeGraph, delta: GraphDelta, id: number): string {
  return graph.symbol(id)?.label ?? delta.symbols.find((symbol) => symbol.id === id)?.label ?? `#${id}`;
}

const factText = (triple: Triple, label: (id: number) => string) =>
  `${label(triple.subject)} ${label(triple.predicate)} ${label(triple.object)}`;

const keyOf = (triple: { subject: number; predicate: number; object: number }) =>
  `${triple.subject} ${triple.predicate} ${triple.object}`;

/** The change with the review noted in the provenance of each fact a model said. */
function reviewed(
  change: GraphChange,
  provenanceOf: (triple: Triple) => ProvenanceDraft,
  reviewer: string,
): GraphChange {
  return {
    ...change,
    provenance: (triple) => {
      const draft = provenanceOf(triple);
      return draft.kind === 'model'
        ? {
            ...draft,
            sources: [...draft.sources, `review:accepted by ${reviewer}`],
            detail: `${draft.detail} (a reviewer accepted it)`,
          }
        : draft;
    },
  };
}

/** The outcome without the model's facts: what else the change held stays, and the summary says why they went. */
function withoutFacts(
  graph: KnowledgeGraph,
  outcome: ToolOutcome,
  change: GraphChange,
  proposed: readonly Triple[],
  because: string,
  wasJudged: boolean,
): ToolOutcome {
  const dropped = new Set(proposed.map(keyOf));
  const kept = (triple: Triple) => !dropped.has(keyOf(triple));
  const addedTriples = change.delta.addedTriples.filter(kept);
  const updatedTriples = change.delta.updatedTriples.filter(kept);
  const used = new Set(
    [...addedTriples, ...updatedTriples].flatMap((triple) => [triple.subject, triple.predicate, triple.object]),
  );
  const delta: GraphDelta = {
    symbols: change.delta.symbols.filter((symbol) => used.has(symbol.id)),
    addedTriples,
    updatedTriples,
    removedTriples: change.delta.removedTriples,
  };
  const facts = outcome.facts.filter(
    ([subject, predicate, object]) => !dropped.has(keyOf({ subject, predicate, object })),
  );
  const lostAll = outcome.facts.length > 0 && facts.length === 0;
  const left = addedTriples.length + updatedTriples.length + delta.removedTriples.length;
  const rest: ToolOutcome = { ...outcome };
  delete rest.graphChange;
  const isKnown = (id: number) => graph.symbol(id) !== undefined || used.has(id);
  return {
    ...rest,
    ...(left > 0 ? { graphChange: { ...change, delta } } : {}),
    ...(outcome.ingestedDocument
      ? { ingestedDocument: { ...outcome.ingestedDocument, facts: addedTriples.length + updatedTriples.length } }
      : {}),
    ok: outcome.ok && !lostAll,
    facts,
    symbols: outcome.symbols.filter(isKnown),
    summary: `${outcome.summary}; the ${proposed.length} facts the model proposed are not stored: ${because}`,
    ...(lostAll
      ? {
          rejection: wasJudged
            ? rejectionOf('policy_block', 'facts a reviewer accepts', because)
            : rejectionOf('dependency_unavailable', "a reviewer's verdict on the model's facts", because),
        }
      : {}),
  };
}
