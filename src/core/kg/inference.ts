import type { ProvenanceDraft } from './provenance.ts';
import type { GraphDelta, KnowledgeGraph } from './graph.ts';
import { type Triple, tripleKey } from './triple.ts';

/**
 * A built-in rule. `transitive`: p(a,b) & p(b,c) -> p(a,c); `symmetric`: p(a,b) -> p(b,a);
 * `inverse`: p(a,b) -> q(b,a) and q(a,b) -> p(b,a). Predicates are relation labels.
 */
export type InferenceRule =
  | { name: string; kind: 'transitive' | 'symmetric'; predicate: string; factor: number }
  | { name: string; kind: 'inverse'; predicate: string; inverse: string; factor: number };

/** The rules of DESIGN.md section 4, plus has-part as the inverse of part-of (the starter graph uses both). */
export const BUILT_IN_RULES: readonly InferenceRule[] = [
  { name: 'is-a-transitive', kind: 'transitive', predicate: 'is-a', factor: 0.95 },
  { name: 'part-of-transitive', kind: 'transitive', predicate: 'part-of', factor: 0.9 },
  { name: 'has-a-transitive', kind: 'transitive', predicate: 'has-a', factor: 0.85 },
  { name: 'similar-to-symmetric', kind: 'symmetric', predicate: 'similar-to', factor: 1 },
  { name: 'parent-child-inverse', kind: 'inverse', predicate: 'parent-of', inverse: 'child-of', factor: 1 },
  { name: 'contains-part-of-inverse', kind: 'inverse', predicate: 'contains', inverse: 'part-of', factor: 1 },
  { name: 'has-part-part-of-inverse', kind: 'inverse', predicate: 'has-part', inverse: 'part-of', factor: 1 },
];

export type InferenceOptions = {
  rules?: readonly InferenceRule[];
  /** Derived facts below this confidence are dropped (DESIGN: 0.1). */
  minConfidence?: number;
  /** Rounds of forward chaining; each round can only use facts derived in earlier rounds. */
  maxIterations?: number;
  /** A stop for runaway closures on large graphs; the result says when it was reached. */
  maxDerived?: number;
  /** Only stated facts this accepts take part (see {@link focusRegion}); all of them when absent. */
  restrictTo?: (subject: number, predicate: number, object: number) => boolean;
};

/** A fact a rule derived, with the rule and the premises (as stored triples or earlier derivations). */
export type Derivation = {
  subject: number;
  predicate: number;
  object: number;
  confidence: number;
  rule: string;
  premises: { subject: number; predicate: number; object: number; confidence: number }[];
};

/** What a run derived, how many rounds it took, and whether it stopped early. */
export type InferenceResult = { derivations: Derivation[]; iterations: number; isTruncated: boolean; hasConverged: boolean };

type Fact = { subject: number; predicate: number; object: number; confidence: number };

/**
 * Forward chaining with the built-in rules over the domain triples of the graph (never metadata),
 * semi-naively: each round joins only the facts that are new or stronger since the last round.
 * A derived fact's confidence is the product of its premises' times the rule's factor; a fact
 * found again with a higher confidence replaces the weaker derivation. Reads the graph only.
 */
export function inferRules(graph: KnowledgeGraph, options: InferenceOptions = {}): InferenceResult {
  const { rules = BUILT_IN_RULES, minConfidence = 0.1, maxIterations = 10, maxDerived = 200_000, restrictTo } = options;
  // Rules never invent relations: a rule fires only when the graph has every relation it names,
  // so a graph that says part-of never fills up with contains (or has-part) mirrors.
  // A rule applies to every relation of its name (see KnowledgeGraph.symbolsNamed), each on its own.
  const relationsNamed = (name: string) => graph.symbolsNamed(name).filter((symbol) => symbol.kind !== 'literal').map((symbol) => symbol.id);
  type ActiveRule = { rule: InferenceRule; predicate: number; inverse: number };
  const active: ActiveRule[] = rules.flatMap((rule) =>
    relationsNamed(rule.predicate).flatMap((predicate): ActiveRule[] =>
      rule.kind === 'inverse' ? relationsNamed(rule.inverse).map((inverse) => ({ rule, predicate, inverse })) : [{ rule, predicate, inverse: predicate }],
    ),
  );

  // Current best facts of the rule predicates (stored, then derived), indexed both ways.
  const known = new Map<string, Fact>();
  const bySubject = new Map<number, Map<number, Fact[]>>();
  const byObject = new Map<number, Map<number, Fact[]>>();
  const index = (fact: Fact) => {
    const key = tripleKey(fact.subject, fact.predicate, fact.object);
    const existing = known.get(key);
    if (existing) {
      existing.confidence = fact.confidence;
      return existing;
    }
    known.set(key, fact);
    pushTo(bySubject, fact.predicate, fact.subject, fact);
    pushTo(byObject, fact.predicate, fact.object, fact);
    return fact;
  };
  const rulePredicates = new Set(active.flatMap(({ predicate, inverse }) => [predicate, inverse]));
  let frontier: Fact[] = [];
  const { subjects, objects, confidences } = graph.columns;
  for (const predicate of rulePredicates) {
    for (const position of graph.matchPositions(undefined, predicate, undefined)) {
      const subject = subjects[position]!;
      const object = objects[position]!;
      if (restrictTo && !restrictTo(subject, predicate, object)) continue;
      frontier.push(index({ subject, predicate, object, confidence: confidences[position]! }));
    }
  }

  const derivations = new Map<string, Derivation>();
  let iterations = 0;
  let isTruncated = false;
  while (frontier.length > 0 && iterations < maxIterations && !isTruncated) {
    iterations++;
    const next = new Map<string, Fact>();
    const propose = (subject: number, predicate: number, object: number, rule: InferenceRule, premises: Fact[]) => {
      if (subject === object && rule.kind === 'transitive') return;
      const confidence = premises.reduce((product, premise) => product * premise.confidence, rule.factor);
      if (confidence < minConfidence) return;
      const key = tripleKey(subject, predicate, object);
      const current = known.get(key);
      if (current && current.confidence >= confidence) return;
      const pending = next.get(key);
      if (pending && pending.confidence >= confidence) return;
      if (!derivations.has(key) && derivations.size >= maxDerived) {
        isTruncated = true;
        return;
      }
      next.set(key, { subject, predicate, object, confidence });
      derivations.set(key, { subject, predicate, object, confidence, rule: rule.name, premises: premises.map((premise) => ({ ...premise })) });
    };
    for (const fact of frontier) {
      for (const { rule, predicate, inverse } of active) {
        if (rule.kind === 'transitive' && fact.predicate === predicate) {
          for (const after of bySubject.get(predicate)?.get(fact.object) ?? []) propose(fact.subject, predicate, after.object, rule, [fact, after]);
          for (const before of byObject.get(predicate)?.get(fact.subject) ?? []) propose(before.subject, predicate, fact.object, rule, [before, fact]);
        } else if (rule.kind === 'symmetric' && fact.predicate === predicate) {
          propose(fact.object, predicate, fact.subject, rule, [fact]);
        } else if (rule.kind === 'inverse') {
          if (fact.predicate === predicate) propose(fact.object, inverse, fact.subject, rule, [fact]);
          else if (fact.predicate === inverse) propose(fact.object, predicate, fact.subject, rule, [fact]);
        }
      }
    }
    frontier = [...next.values()].map(index);
  }
  return { derivations: [...derivations.values()], iterations, isTruncated, hasConverged: frontier.length === 0 };
}

function pushTo(index: Map<number, Map<number, Fact[]>>, predicate: number, key: number, fact: Fact): void {
  let byKey = index.get(predicate);
  if (!byKey) index.set(predicate, (byKey = new Map()));
  const list = byKey.get(key);
  if (list) list.push(fact);
  else byKey.set(key, [fact]);
}

/**
 * The stated facts that matter for some symbols: along each transitive relation, the chains
 * up from them and down to them (their ancestors and descendants, never sideways through a
 * shared ancestor), and for the other rules the facts that touch them. Inference restricted to
 * these derives what concerns the symbols at a cost in proportion to their neighbourhood,
 * not to the graph.
 */
export function focusRegion(graph: KnowledgeGraph, focus: readonly number[], rules: readonly InferenceRule[] = BUILT_IN_RULES): (subject: number, predicate: number, object: number) => boolean {
  const { subjects, objects, predicates } = graph.columns;
  const inRegion = new Set<string>();
  const focusSet = new Set(focus);
  const idsNamed = (name: string) => graph.symbolsNamed(name).map((symbol) => symbol.id);
  const transitive = new Set(rules.filter((rule) => rule.kind === 'transitive').flatMap((rule) => idsNamed(rule.predicate)));
  for (const rule of rules.filter((candidate) => candidate.kind === 'transitive')) {
    // X has-part Y says Y part-of X: an inverse relation's facts are this relation's, reversed.
    const inverses = new Set(
      rules.flatMap((other) =>
        other.kind !== 'inverse' ? [] : other.inverse === rule.predicate ? idsNamed(other.predicate) : other.predicate === rule.predicate ? idsNamed(other.inverse) : [],
      ),
    );
    for (const predicate of idsNamed(rule.predicate)) {
      for (const isUp of [true, false]) {
        const seen = new Set(focus);
        let frontier = [...focus];
        while (frontier.length > 0) {
          const reached: number[] = [];
          const visit = (position: number, other: number) => {
            inRegion.add(tripleKey(subjects[position]!, predicates[position]!, objects[position]!));
            if (!seen.has(other)) {
              seen.add(other);
              reached.push(other);
            }
          };
          for (const symbol of frontier) {
            // Up: symbol p X, or X q symbol; down: X p symbol, or symbol q X.
            for (const position of graph.positionsFrom(symbol)) {
              const relation = predicates[position]!;
              if ((isUp && relation === predicate) || (!isUp && inverses.has(relation))) visit(position, objects[position]!);
            }
            for (const position of graph.positionsTo(symbol)) {
              const relation = predicates[position]!;
              if ((!isUp && relation === predicate) || (isUp && inverses.has(relation))) visit(position, subjects[position]!);
            }
          }
          frontier = reached;
        }
      }
    }
  }
  return (subject, predicate, object) => inRegion.has(tripleKey(subject, predicate, object)) || (!transitive.has(predicate) && (focusSet.has(subject) || focusSet.has(object)));
}

/** An inference run staged as a graph delta, with the derivation behind each changed triple. */
export type StagedInference = { result: InferenceResult; delta: GraphDelta; derivationOf: (triple: Pick<Triple, 'subject' | 'predicate' | 'object'>) => Derivation };

/** Runs the rules and stages what they derive (nothing is stored or applied here). */
export function stageInference(graph: KnowledgeGraph, options: InferenceOptions & { now: number }): StagedInference {
  const result = inferRules(graph, options);
  const batch = graph.batch({ now: options.now });
  const derivations = new Map<string, Derivation>();
  for (const derivation of result.derivations) {
    batch.assert(derivation.subject, derivation.predicate, derivation.object, derivation.confidence);
    derivations.set(tripleKey(derivation.subject, derivation.predicate, derivation.object), derivation);
  }
  return { result, delta: batch.delta, derivationOf: (triple) => derivations.get(tripleKey(triple.subject, triple.predicate, triple.object))! };
}

/** The provenance record of a derived fact: its rule, its premises (as triple ids), and a readable explanation. */
export function derivationProvenance(graph: KnowledgeGraph, derivation: Derivation, context: { sessionId: string; cycle: number; createdAt: number }): ProvenanceDraft {
  return {
    sessionId: context.sessionId,
    kind: 'inference',
    sources: [`rule:${derivation.rule}`, ...derivation.premises.map((premise) => `triple:${tripleKey(premise.subject, premise.predicate, premise.object)}`)],
    confidence: derivation.confidence,
    cycle: context.cycle,
    detail: describeDerivation(graph, derivation),
    createdAt: context.createdAt,
  };
}

/** "Dog is-a Mammal (0.90) by is-a-transitive from Dog is-a Canine (1.00) and Canine is-a Mammal (0.95)". */
function describeDerivation(graph: KnowledgeGraph, derivation: Derivation): string {
  const text = (fact: Pick<Triple, 'subject' | 'predicate' | 'object' | 'confidence'>) =>
    `${[fact.subject, fact.predicate, fact.object].map((id) => graph.symbol(id)?.label ?? `#${id}`).join(' ')} (${fact.confidence.toFixed(2)})`;
  return `${text(derivation)} by ${derivation.rule} from ${derivation.premises.map(text).join(' and ')}`;
}
