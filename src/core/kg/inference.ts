import type { ProvenanceDraft } from './provenance.ts';
import type { GraphDelta } from './graph-delta.ts';
import type { KnowledgeGraph } from './graph.ts';
import { type Triple, tripleKey } from './triple.ts';
import { GraphVocabulary } from './vocabulary.ts';
import {
  OWL_SYMMETRIC_PROPERTY,
  OWL_TRANSITIVE_PROPERTY,
  RDF_TYPE,
  RDFS_DOMAIN,
  RDFS_RANGE,
  SKOS_BROADER,
  SKOS_NARROWER,
} from './standard-terms.ts';

/**
 * A built-in rule. `transitive`: p(a,b) & p(b,c) -> p(a,c); `symmetric`: p(a,b) -> p(b,a);
 * `inverse`: p(a,b) -> q(b,a) and q(a,b) -> p(b,a). Predicates are relation names (or IRIs).
 */
export type InferenceRule =
  | { name: string; kind: 'transitive' | 'symmetric'; predicate: string; factor: number }
  | { name: string; kind: 'inverse'; predicate: string; inverse: string; factor: number };

/**
 * The rules of DESIGN.md section 4, plus has-part as the inverse of part-of (the starter graph
 * uses both). A relation's name stands for everything the vocabulary says means it (see
 * GraphVocabulary.relationNamed): `is-a-transitive` is also RDFS's subclass and type entailment.
 */
export const BUILT_IN_RULES: readonly InferenceRule[] = [
  { name: 'is-a-transitive', kind: 'transitive', predicate: 'is-a', factor: 0.95 },
  { name: 'part-of-transitive', kind: 'transitive', predicate: 'part-of', factor: 0.9 },
  { name: 'has-a-transitive', kind: 'transitive', predicate: 'has-a', factor: 0.85 },
  { name: 'narrower-transitive', kind: 'transitive', predicate: 'has-instance', factor: 0.95 },
  { name: 'similar-to-symmetric', kind: 'symmetric', predicate: 'similar-to', factor: 1 },
  { name: 'parent-child-inverse', kind: 'inverse', predicate: 'parent-of', inverse: 'child-of', factor: 1 },
  { name: 'contains-part-of-inverse', kind: 'inverse', predicate: 'contains', inverse: 'part-of', factor: 1 },
  { name: 'has-part-part-of-inverse', kind: 'inverse', predicate: 'has-part', inverse: 'part-of', factor: 1 },
  { name: 'broader-narrower-inverse', kind: 'inverse', predicate: SKOS_BROADER, inverse: SKOS_NARROWER, factor: 1 },
];

export type InferenceOptions = {
  rules?: readonly InferenceRule[];
  /** Derived facts below this confidence are dropped (DESIGN: 0.1). */
  minConfidence?: number;
  /** Rounds of forward chaining; each round can only use facts derived in earlier rounds. */
  maxIterations?: number;
  /** A stop for runaway closures on large graphs; the result says when it was reached. */
  maxDerived?: number;
  /** Only the stated facts at these positions of the graph take part (see {@link regionPositions}); all of them when absent. */
  positions?: Iterable<number>;
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
export type InferenceResult = {
  derivations: Derivation[];
  iterations: number;
  isTruncated: boolean;
  hasConverged: boolean;
};

type Fact = { subject: number; predicate: number; object: number; confidence: number };

/**
 * A rule as it applies to one graph's predicates. `chain`: a P b (P a member) and b Q c (Q in
 * `chain`) give a P c, so a type climbs the class chain but never through a type of a type;
 * `chainBothWays` (owl:equivalentClass) is a chain read in both directions. `typing`: a P b and P
 * rdfs:domain C give a rdf:type C (rdfs:range: b rdf:type C).
 */
type ActiveRule =
  | {
      rule: { name: string; factor: number };
      kind: 'transitive';
      members: Set<number>;
      chain: Set<number>;
      chainBothWays: Set<number>;
    }
  | { rule: { name: string; factor: number }; kind: 'symmetric'; members: Set<number> }
  | { rule: { name: string; factor: number }; kind: 'inverse'; predicate: number; inverse: number }
  | {
      rule: { name: string; factor: number };
      kind: 'typing';
      classes: Map<number, number[]>;
      schemaPredicate: number;
      type: number;
      isRange: boolean;
    };

/** The named rules and the ones the graph's own schema declares (owl:TransitiveProperty, owl:inverseOf, rdfs:domain, ...), over its predicates. */
function activeRules(graph: KnowledgeGraph, rules: readonly InferenceRule[]): ActiveRule[] {
  const vocabulary = GraphVocabulary.of(graph);
  const relation = (name: string) =>
    vocabulary.relationNamed(name).ids.filter((id) => graph.symbol(id)?.kind !== 'literal');
  // Inverse rules pair the relations the graph names so: a rule never invents a relation the graph
  // does not use, nor fills one vocabulary's every synonym (queries read those through the vocabulary).
  const named = (name: string) => {
    const byIri = graph.symbolByIri(name);
    return byIri
      ? [byIri.id]
      : graph
          .symbolsNamed(name)
          .filter((symbol) => symbol.kind !== 'literal')
          .map((symbol) => symbol.id);
  };
  const types = vocabulary.typeIds();
  const active: ActiveRule[] = [];
  const transitive = (rule: { name: string; factor: number }, members: number[], chainBothWays: number[] = []) => {
    if (members.length > 0)
      active.push({
        rule,
        kind: 'transitive',
        members: new Set(members),
        chain: new Set(members.filter((id) => !types.has(id))),
        chainBothWays: new Set(chainBothWays),
      });
  };
  for (const rule of rules) {
    if (rule.kind === 'transitive')
      transitive(rule, relation(rule.predicate), rule.predicate === 'is-a' ? vocabulary.equivalentClassIds() : []);
    else if (rule.kind === 'symmetric') {
      const members = relation(rule.predicate);
      if (members.length > 0) active.push({ rule, kind: 'symmetric', members: new Set(members) });
    } else if (rule.kind === 'inverse')
      for (const predicate of named(rule.predicate))
        for (const inverse of named(rule.inverse)) active.push({ rule, kind: 'inverse', predicate, inverse });
  }
  for (const predicate of vocabulary.declared(OWL_TRANSITIVE_PROPERTY))
    transitive({ name: 'owl-transitive', factor: 0.95 }, [...vocabulary.relationOf(predicate).ids]);
  for (const predicate of vocabulary.declared(OWL_SYMMETRIC_PROPERTY))
    active.push({
      rule: { name: 'owl-symmetric', factor: 1 },
      kind: 'symmetric',
      members: new Set(vocabulary.relationOf(predicate).ids),
    });
  for (const [predicate, inverse] of vocabulary.inversePairs())
    active.push({ rule: { name: 'owl-inverse', factor: 1 }, kind: 'inverse', predicate, inverse });
  // Typing states membership with rdf:type, or with is-a in a graph that says membership so.
  const type = vocabulary.idOf(RDF_TYPE) ?? named('is-a')[0];
  if (type !== undefined)
    for (const [schemaIri, isRange] of [
      [RDFS_DOMAIN, false],
      [RDFS_RANGE, true],
    ] as const) {
      const schemaPredicate = vocabulary.idOf(schemaIri);
      const classes = vocabulary.typing(schemaIri);
      if (schemaPredicate !== undefined && classes.size > 0)
        active.push({
          rule: { name: isRange ? 'rdfs-range' : 'rdfs-domain', factor: 1 },
          kind: 'typing',
          classes,
          schemaPredicate,
          type,
          isRange,
        });
    }
  return active;
}

/**
 * Forward chaining with the built-in rules over the domain triples of the graph (never metadata),
 * semi-naively: each round joins only the facts that are new or stronger since the last round.
 * A derived fact's confidence is the product of its premises' times the rule's factor; a fact
 * found again with a higher confidence replaces the weaker derivation. Reads the graph only.
 */
export function inferRules(graph: KnowledgeGraph, options: InferenceOptions = {}): InferenceResult {
  const chaining = new ForwardChaining(graph, options);
  chaining.advance();
  return chaining.result();
}

/** What a slice of {@link ForwardChaining.advance} may do: stop when `shouldStop` says so (checked often). */
export type SliceLimit = { shouldStop?: () => boolean };

/**
 * Forward chaining that can stop part-way and go on later (see {@link inferRules} for what it
 * derives). `concerning`: transitive chains are followed only to facts with one end among these
 * symbols (a goal's), so the closure costs what those symbols reach, not the whole region; the
 * single-step rules (inverse, symmetric, typing) still run over all of it, as they feed the chains.
 * The facts of each finished round wait in an outbox (only those about `concerning`, when given)
 * until {@link take} hands them out.
 */
export class ForwardChaining {
  readonly #graph: KnowledgeGraph;
  readonly #active: ActiveRule[];
  readonly #minConfidence: number;
  readonly #maxIterations: number;
  readonly #maxDerived: number;
  readonly #concerning: ReadonlySet<number> | undefined;
  readonly #rulePredicates: ReadonlySet<number>;
  /** The symbols of the facts read or derived, when only a region was read (undefined: the whole graph). */
  readonly #symbols: Set<number> | undefined;
  // Current best facts of the rule predicates (stored, then derived), indexed both ways.
  readonly #known = new Map<string, Fact>();
  readonly #bySubject = new Map<number, Map<number, Fact[]>>();
  readonly #byObject = new Map<number, Map<number, Fact[]>>();
  readonly #derivations = new Map<string, Derivation>();
  readonly #outbox = new Map<string, Derivation>();
  #frontier: Fact[] = [];
  /** How far the current round has got through the frontier, and whether one is under way. */
  #cursor = 0;
  #inRound = false;
  #next = new Map<string, Fact>();
  #iterations = 0;
  #isTruncated = false;

  constructor(graph: KnowledgeGraph, options: InferenceOptions & { concerning?: ReadonlySet<number> } = {}) {
    const { rules = BUILT_IN_RULES, minConfidence = 0.1, maxIterations = 10, maxDerived = 200_000 } = options;
    this.#graph = graph;
    this.#active = activeRules(graph, rules);
    this.#minConfidence = minConfidence;
    this.#maxIterations = maxIterations;
    this.#maxDerived = maxDerived;
    this.#concerning = options.concerning;
    const rulePredicates = new Set(
      this.#active.flatMap((rule) => {
        switch (rule.kind) {
          case 'transitive':
            return [...rule.members, ...rule.chain, ...rule.chainBothWays];
          case 'symmetric':
            return [...rule.members];
          case 'inverse':
            return [rule.predicate, rule.inverse];
          case 'typing':
            return [...rule.classes.keys()];
        }
      }),
    );
    this.#rulePredicates = rulePredicates;
    const { subjects, predicates, objects, confidences } = graph.columns;
    const { positions } = options;
    this.#symbols = positions ? new Set(options.concerning) : undefined;
    const admit = (position: number) =>
      this.#frontier.push(
        this.#index({
          subject: subjects[position]!,
          predicate: predicates[position]!,
          object: objects[position]!,
          confidence: confidences[position]!,
        }),
      );
    // Given the region's positions, only those are read, not every fact of the rule relations.
    if (positions) {
      for (const position of positions) if (rulePredicates.has(predicates[position]!)) admit(position);
    } else
      for (const predicate of rulePredicates)
        for (const position of graph.matchPositions(undefined, predicate, undefined)) admit(position);
  }

  /** Whether nothing is left to derive: converged, out of rounds, or stopped at the cap. */
  get isDone(): boolean {
    return (
      this.#frontier.length === 0 || (!this.#inRound && (this.#isTruncated || this.#iterations >= this.#maxIterations))
    );
  }

  /** Whether a new triple can change what the rules derive: a fact of a rule relation, touching what they read. */
  isAffectedBy(subject: number, predicate: number, object: number): boolean {
    if (!this.#rulePredicates.has(predicate)) return false;
    // A fact of a rule relation between symbols the region never reached cannot join any of its facts.
    return !this.#symbols || this.#symbols.has(subject) || this.#symbols.has(object);
  }

  /** Whether the chaining holds this fact (stated, or derived in a finished round) at this confidence or more. */
  knows(subject: number, predicate: number, object: number, confidence: number): boolean {
    const fact = this.#known.get(tripleKey(subject, predicate, object));
    return fact !== undefined && fact.confidence >= confidence;
  }

  /** Facts of finished rounds the graph may not hold yet (see {@link take}). */
  get waiting(): number {
    return this.#outbox.size;
  }

  /** What was derived so far, in all. */
  result(): InferenceResult {
    return {
      derivations: [...this.#derivations.values()],
      iterations: this.#iterations,
      isTruncated: this.#isTruncated,
      hasConverged: this.#frontier.length === 0,
    };
  }

  /**
   * Up to `limit` facts of finished rounds that the graph does not hold yet (at their confidence),
   * oldest first. They stay waiting until the graph holds them: a cycle that stages them and is
   * paused before it stores them loses none.
   */
  take(limit: number): Derivation[] {
    const taken: Derivation[] = [];
    const { confidences } = this.#graph.columns;
    for (const [key, derivation] of this.#outbox) {
      if (taken.length >= limit) break;
      const position = this.#graph.positionOf(derivation.subject, derivation.predicate, derivation.object);
      if (position !== -1 && confidences[position]! >= derivation.confidence) this.#outbox.delete(key);
      else taken.push(derivation);
    }
    return taken;
  }

  /** Derives until done, or until the limit says stop (then the next call goes on where this one stopped). */
  advance(limit: SliceLimit = {}): void {
    const { shouldStop } = limit;
    while (!this.isDone) {
      const frontier = this.#frontier;
      if (!this.#inRound) {
        this.#iterations++;
        this.#inRound = true;
      }
      while (this.#cursor < frontier.length) {
        // The clock is read every 64 facts: reading it is not free.
        if (shouldStop && this.#cursor % 64 === 0 && shouldStop()) return;
        this.#join(frontier[this.#cursor++]!);
      }
      const next = [...this.#next.values()];
      for (const fact of next) {
        const key = tripleKey(fact.subject, fact.predicate, fact.object);
        if (this.#concerning && !this.#concerning.has(fact.subject) && !this.#concerning.has(fact.object)) continue;
        this.#outbox.set(key, this.#derivations.get(key)!);
      }
      this.#frontier = next.map((fact) => this.#index(fact));
      this.#next = new Map();
      this.#cursor = 0;
      this.#inRound = false;
    }
  }

  #index(fact: Fact): Fact {
    const key = tripleKey(fact.subject, fact.predicate, fact.object);
    const existing = this.#known.get(key);
    if (existing) {
      existing.confidence = fact.confidence;
      return existing;
    }
    this.#known.set(key, fact);
    this.#symbols?.add(fact.subject).add(fact.object);
    pushTo(this.#bySubject, fact.predicate, fact.subject, fact);
    pushTo(this.#byObject, fact.predicate, fact.object, fact);
    return fact;
  }

  #facts(byKey: Map<number, Map<number, Fact[]>>, predicate: number, key: number): Fact[] {
    return byKey.get(predicate)?.get(key) ?? [];
  }

  #propose(subject: number, predicate: number, object: number, rule: ActiveRule, premises: Fact[]): void {
    if (rule.kind === 'transitive') {
      if (subject === object) return;
      if (this.#concerning && !this.#concerning.has(subject) && !this.#concerning.has(object)) return;
    }
    const confidence = premises.reduce((product, premise) => product * premise.confidence, rule.rule.factor);
    if (confidence < this.#minConfidence) return;
    const key = tripleKey(subject, predicate, object);
    const current = this.#known.get(key);
    if (current && current.confidence >= confidence) return;
    const pending = this.#next.get(key);
    if (pending && pending.confidence >= confidence) return;
    if (!this.#derivations.has(key) && this.#derivations.size >= this.#maxDerived) {
      this.#isTruncated = true;
      return;
    }
    this.#next.set(key, { subject, predicate, object, confidence });
    this.#derivations.set(key, {
      subject,
      predicate,
      object,
      confidence,
      rule: rule.rule.name,
      premises: premises.map((premise) => ({ ...premise })),
    });
  }

  #join(fact: Fact): void {
    const bySubject = this.#bySubject;
    const byObject = this.#byObject;
    const facts = (byKey: typeof bySubject, predicate: number, key: number) => this.#facts(byKey, predicate, key);
    const propose = (subject: number, predicate: number, object: number, rule: ActiveRule, premises: Fact[]) =>
      this.#propose(subject, predicate, object, rule, premises);
    for (const rule of this.#active) {
      if (rule.kind === 'transitive') {
        if (rule.members.has(fact.predicate)) {
          for (const chain of rule.chain)
            for (const after of facts(bySubject, chain, fact.object))
              propose(fact.subject, fact.predicate, after.object, rule, [fact, after]);
          for (const chain of rule.chainBothWays) {
            for (const after of facts(bySubject, chain, fact.object))
              propose(fact.subject, fact.predicate, after.object, rule, [fact, after]);
            for (const after of facts(byObject, chain, fact.object))
              propose(fact.subject, fact.predicate, after.subject, rule, [fact, after]);
          }
        }
        if (rule.chain.has(fact.predicate))
          for (const member of rule.members)
            for (const before of facts(byObject, member, fact.subject))
              propose(before.subject, member, fact.object, rule, [before, fact]);
        if (rule.chainBothWays.has(fact.predicate))
          for (const member of rule.members) {
            for (const before of facts(byObject, member, fact.subject))
              propose(before.subject, member, fact.object, rule, [before, fact]);
            for (const before of facts(byObject, member, fact.object))
              propose(before.subject, member, fact.subject, rule, [before, fact]);
          }
      } else if (rule.kind === 'symmetric') {
        if (rule.members.has(fact.predicate)) propose(fact.object, fact.predicate, fact.subject, rule, [fact]);
      } else if (rule.kind === 'inverse') {
        if (fact.predicate === rule.predicate) propose(fact.object, rule.inverse, fact.subject, rule, [fact]);
        else if (fact.predicate === rule.inverse) propose(fact.object, rule.predicate, fact.subject, rule, [fact]);
      } else {
        const member = rule.isRange ? fact.object : fact.subject;
        if (rule.isRange && this.#graph.symbol(member)?.kind === 'literal') continue;
        for (const type of rule.classes.get(fact.predicate) ?? []) {
          const schemaPosition = this.#graph.positionOf(fact.predicate, rule.schemaPredicate, type);
          const schemaFact = {
            subject: fact.predicate,
            predicate: rule.schemaPredicate,
            object: type,
            confidence: schemaPosition === -1 ? 1 : this.#graph.columns.confidences[schemaPosition]!,
          };
          propose(member, rule.type, type, rule, [fact, schemaFact]);
        }
      }
    }
  }
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
      !entry.chaining.knows(subjects[position]!, predicate, objects[position]!, confidences[position]!)
    )
      return false;
  }
  return true;
}

/** The provenance record of a derived fact: its rule, its premises (as triple ids), and a readable explanation. */
export function derivationProvenance(
  graph: KnowledgeGraph,
  derivation: Derivation,
  context: { sessionId: string; cycle: number; createdAt: number },
): ProvenanceDraft {
  return {
    sessionId: context.sessionId,
    kind: 'inference',
    sources: [
      `rule:${derivation.rule}`,
      ...derivation.premises.map(
        (premise) => `triple:${tripleKey(premise.subject, premise.predicate, premise.object)}`,
      ),
    ],
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
