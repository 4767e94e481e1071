import { derivationOfFact, type ProvenanceInsert, type ProvenanceRecord } from './provenance.ts';
import { derivationColumns } from './derivation-columns.ts';
import type { GraphDelta } from './graph-delta.ts';
import type { KnowledgeGraph } from './graph.ts';
import { type Triple, tripleKey } from './triple.ts';
import {
  activeRules,
  BUILT_IN_RULES,
  type Derivation,
  type InferenceOptions,
  type InferenceResult,
  type InferenceRule,
} from './inference-rules.ts';
import { ForwardChaining, inferRules } from './forward-chaining.ts';

// Inference as the agent and the service use it: the region around a goal, the work kept between
// cycles, derivations staged as a graph delta, and the provenance of a derived fact.

/**
 * The stated facts that matter for some symbols: along each transitive relation, the chains
 * up from them and down to them (their ancestors and descendants, never sideways through a
 * shared ancestor), and for the other rules the facts that touch them. Inference restricted to
 * these derives what concerns the symbols at a cost in proportion to their neighbourhood,
 * not to the graph. Returns their positions in the graph.
 */
export function regionPositions(
  graph: KnowledgeGraph,
  focus: readonly number[],
  rules: readonly InferenceRule[] = BUILT_IN_RULES,
): Set<number> {
  const { subjects, objects, predicates } = graph.columns;
  const inRegion = new Set<number>();
  const active = activeRules(graph, rules);
  const transitive = new Set<number>();
  for (const rule of active) {
    if (rule.kind !== 'transitive') continue;
    // Up from a symbol: symbol P X (P a member, a chain or an equivalence), or X Q symbol for Q an inverse
    // (X has-part Y says Y part-of X; X skos:narrower Y says Y is-a X). Down: the reverse.
    const forwards = new Set([...rule.members, ...rule.chain, ...rule.chainBothWays]);
    const inverses = new Set(
      active.flatMap((other) =>
        other.kind !== 'inverse'
          ? []
          : rule.members.has(other.inverse)
            ? [other.predicate]
            : rule.members.has(other.predicate)
              ? [other.inverse]
              : [],
      ),
    );
    for (const member of forwards) transitive.add(member);
    for (const isUp of [true, false]) {
      const seen = new Set(focus);
      let frontier = [...focus];
      while (frontier.length > 0) {
        const reached: number[] = [];
        const visit = (position: number, other: number) => {
          inRegion.add(position);
          if (!seen.has(other)) {
            seen.add(other);
            reached.push(other);
          }
        };
        for (const symbol of frontier) {
          for (const position of graph.positionsFrom(symbol)) {
            const relation = predicates[position]!;
            if (
              (isUp && forwards.has(relation)) ||
              (!isUp && inverses.has(relation)) ||
              rule.chainBothWays.has(relation)
            )
              visit(position, objects[position]!);
          }
          for (const position of graph.positionsTo(symbol)) {
            const relation = predicates[position]!;
            if (
              (!isUp && forwards.has(relation)) ||
              (isUp && inverses.has(relation)) ||
              rule.chainBothWays.has(relation)
            )
              visit(position, subjects[position]!);
          }
        }
        frontier = reached;
      }
    }
  }
  // The other rules' facts that touch the symbols themselves.
  for (const symbol of new Set(focus))
    for (const positions of [graph.positionsFrom(symbol), graph.positionsTo(symbol)])
      for (const position of positions) if (!transitive.has(predicates[position]!)) inRegion.add(position);
  return inRegion;
}

/** An inference run staged as a graph delta, with the derivation behind each changed triple. */
export type StagedInference = {
  result: InferenceResult;
  delta: GraphDelta;
  derivationOf: (triple: Pick<Triple, 'subject' | 'predicate' | 'object'>) => Derivation;
};

/** Runs the rules and stages what they derive (nothing is stored or applied here). */
export function stageInference(graph: KnowledgeGraph, options: InferenceOptions & { now: number }): StagedInference {
  const result = inferRules(graph, options);
  return { result, ...stageDerivations(graph, result.derivations, options.now) };
}

/** Stages derivations as a graph delta, with the derivation behind each changed triple. */
export function stageDerivations(
  graph: KnowledgeGraph,
  derived: readonly Derivation[],
  now: number,
): Omit<StagedInference, 'result'> {
  const batch = graph.batch({ now });
  const derivations = new Map<string, Derivation>();
  for (const derivation of derived) {
    batch.assert(derivation.subject, derivation.predicate, derivation.object, derivation.confidence);
    derivations.set(tripleKey(derivation.subject, derivation.predicate, derivation.object), derivation);
  }
  return {
    delta: batch.delta,
    derivationOf: (triple) => derivations.get(tripleKey(triple.subject, triple.predicate, triple.object))!,
  };
}

/** The inferences under way around sets of symbols, per graph: at most this many each, the least recent dropped. */
const INFERENCES_KEPT = 4;
type KeptInference = { chaining: ForwardChaining; seen: number; removals: number };
const inferencesAround = new WeakMap<KnowledgeGraph, Map<string, KeptInference>>();

/**
 * The rules' work around some symbols (a goal's), kept between calls so that each call goes on
 * where the last stopped: only the facts about those symbols are derived (see
 * {@link ForwardChaining}). The graph may have grown meanwhile: by the facts taken from this
 * inference (it knows them), by triples no rule reads, or by rule facts between symbols the
 * region never reached, and the work goes on; any other change (a rule fact touching the region,
 * a removal) starts it again, where facts already stored are known and are not derived twice.
 */
export function inferenceAround(
  graph: KnowledgeGraph,
  focus: readonly number[],
  options: { minConfidence: number },
): ForwardChaining {
  let kept = inferencesAround.get(graph);
  if (!kept) inferencesAround.set(graph, (kept = new Map()));
  const key = `${[...focus].sort((a, b) => a - b).join(',')}@${options.minConfidence}`;
  const current = kept.get(key);
  kept.delete(key);
  const entry =
    current && isStillValid(graph, current)
      ? current
      : {
          chaining: new ForwardChaining(graph, {
            minConfidence: options.minConfidence,
            positions: regionPositions(graph, focus),
            concerning: new Set(focus),
          }),
          seen: graph.tripleCount,
          removals: graph.removalCount,
        };
  entry.seen = graph.tripleCount;
  kept.set(key, entry);
  if (kept.size > INFERENCES_KEPT) kept.delete(kept.keys().next().value!);
  return entry.chaining;
}

function isStillValid(graph: KnowledgeGraph, entry: KeptInference): boolean {
  if (graph.removalCount !== entry.removals) return false;
  const { subjects, predicates, objects, confidences } = graph.columns;
  for (let position = entry.seen; position < graph.tripleCount; position++) {
    const predicate = predicates[position]!;
    if (
      entry.chaining.isAffectedBy(subjects[position]!, predicate, objects[position]!) &&
      !entry.chaining.knowsStored(subjects[position]!, predicate, objects[position]!, confidences[position]!)
    )
      return false;
  }
  return true;
}

/** The provenance record of a batch of derived facts: each with its rule and premises (by symbol ids), in columns. */
export function derivationsProvenance(
  derivations: readonly Derivation[],
  context: { sessionId: string; cycle: number; createdAt: number },
): ProvenanceInsert {
  const columns = derivationColumns(derivations);
  let confidence = 0;
  for (const derivation of derivations) confidence = Math.max(confidence, derivation.confidence);
  return {
    sessionId: context.sessionId,
    kind: 'inference',
    sources: columns.rules.map((rule) => `rule:${rule}`),
    confidence,
    cycle: context.cycle,
    detail: `${derivations.length} ${derivations.length === 1 ? 'fact' : 'facts'} derived by ${columns.rules.join(', ')}`,
    createdAt: context.createdAt,
    derivations: columns,
  };
}

/**
 * What one fact of a batch record says about it, as a record of its own: its rule and premises as
 * sources, and "Dog is-a Mammal (0.90) by is-a-transitive from Dog is-a Canine (1.00) and Canine
 * is-a Mammal (0.95)". The batch, without its list, when the fact is not in it.
 */
export function provenanceOfFact(
  graph: KnowledgeGraph,
  record: ProvenanceRecord,
  fact: readonly [number, number, number] | undefined,
): ProvenanceRecord {
  const { derivations, ...rest } = record;
  const entry = derivations && fact ? derivationOfFact({ derivations }, fact) : undefined;
  if (!entry) return rest;
  const text = ([subject, predicate, object]: readonly number[], confidence: number) =>
    `${[subject!, predicate!, object!].map((id) => graph.symbol(id)?.label ?? `#${id}`).join(' ')} (${confidence.toFixed(2)})`;
  return {
    ...rest,
    sources: [
      `rule:${entry.rule}`,
      ...entry.premises.map(([subject, predicate, object]) => `triple:${tripleKey(subject, predicate, object)}`),
    ],
    confidence: entry.confidence,
    detail: `${text(entry.fact, entry.confidence)} by ${entry.rule} from ${entry.premises
      .map((premise) => text(premise, premise[3]))
      .join(' and ')}`,
  };
}
