import type { KnowledgeGraph } from './graph.ts';
import { tripleKey } from './triple.ts';
import {
  type ActiveRule,
  activeRules,
  BUILT_IN_RULES,
  type Derivation,
  type Fact,
  type InferenceOptions,
  type InferenceResult,
} from './inference-rules.ts';
import type { SliceLimit } from './slice.ts';

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

  /**
   * Takes in a fact the graph now holds: whether the chaining holds it too (stated, or derived in
   * a finished round) at this confidence or more. A derivation waiting for it at this confidence
   * or less is the graph's now, and stops waiting: {@link take} need not look it up again.
   */
  knowsStored(subject: number, predicate: number, object: number, confidence: number): boolean {
    const key = tripleKey(subject, predicate, object);
    const waiting = this.#outbox.get(key);
    if (waiting !== undefined && confidence >= waiting.confidence) this.#outbox.delete(key);
    const fact = this.#known.get(key);
    return fact !== undefined && fact.confidence >= confidence;
  }

  /** Facts of finished rounds the graph may not hold yet (see {@link take}). */
  get waiting(): number {
    return this.#outbox.size;
  }

  /** How far it has got: facts derived so far and rounds begun (cheap to ask after every slice, unlike {@link result}). */
  get progress(): { derived: number; rounds: number } {
    return { derived: this.#derivations.size, rounds: this.#iterations };
  }

  /** Whether the rules ran out of new facts (as {@link result} says, without copying every derivation). */
  get hasConverged(): boolean {
    return this.#frontier.length === 0;
  }

  /** What was derived so far, in all. */
  result(): InferenceResult {
    return {
      derivations: [...this.#derivations.values()],
      iterations: this.#iterations,
      isTruncated: this.#isTruncated,
      hasConverged: this.hasConverged,
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
      // The round's facts keep the keys they were proposed under: a big closure derives thousands.
      for (const [key, fact] of this.#next) {
        if (this.#concerning && !this.#concerning.has(fact.subject) && !this.#concerning.has(fact.object)) continue;
        this.#outbox.set(key, this.#derivations.get(key)!);
      }
      const next: Fact[] = [];
      for (const [key, fact] of this.#next) next.push(this.#index(fact, key));
      this.#frontier = next;
      this.#next = new Map();
      this.#cursor = 0;
      this.#inRound = false;
    }
  }

  #index(fact: Fact, key = tripleKey(fact.subject, fact.predicate, fact.object)): Fact {
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

  /**
   * A fact a rule derives from one premise or two. Most proposals are facts known already, so the
   * premises are copied only for a derivation that is kept.
   */
  #propose(subject: number, predicate: number, object: number, rule: ActiveRule, first: Fact, second?: Fact): void {
    if (rule.kind === 'transitive') {
      if (subject === object) return;
      if (this.#concerning && !this.#concerning.has(subject) && !this.#concerning.has(object)) return;
    }
    // The product of the premises' confidences after the rule's factor, in that order.
    let confidence = rule.rule.factor * first.confidence;
    if (second) confidence *= second.confidence;
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
      premises: second ? [{ ...first }, { ...second }] : [{ ...first }],
    });
  }

  #join(fact: Fact): void {
    const bySubject = this.#bySubject;
    const byObject = this.#byObject;
    for (const rule of this.#active) {
      if (rule.kind === 'transitive') {
        if (rule.members.has(fact.predicate)) {
          for (const chain of rule.chain)
            for (const after of factsOf(bySubject, chain, fact.object))
              this.#propose(fact.subject, fact.predicate, after.object, rule, fact, after);
          for (const chain of rule.chainBothWays) {
            for (const after of factsOf(bySubject, chain, fact.object))
              this.#propose(fact.subject, fact.predicate, after.object, rule, fact, after);
            for (const after of factsOf(byObject, chain, fact.object))
              this.#propose(fact.subject, fact.predicate, after.subject, rule, fact, after);
          }
        }
        if (rule.chain.has(fact.predicate))
          for (const member of rule.members)
            for (const before of factsOf(byObject, member, fact.subject))
              this.#propose(before.subject, member, fact.object, rule, before, fact);
        if (rule.chainBothWays.has(fact.predicate))
          for (const member of rule.members) {
            for (const before of factsOf(byObject, member, fact.subject))
              this.#propose(before.subject, member, fact.object, rule, before, fact);
            for (const before of factsOf(byObject, member, fact.object))
              this.#propose(before.subject, member, fact.subject, rule, before, fact);
          }
      } else if (rule.kind === 'symmetric') {
        if (rule.members.has(fact.predicate)) this.#propose(fact.object, fact.predicate, fact.subject, rule, fact);
      } else if (rule.kind === 'inverse') {
        if (fact.predicate === rule.predicate) this.#propose(fact.object, rule.inverse, fact.subject, rule, fact);
        else if (fact.predicate === rule.inverse) this.#propose(fact.object, rule.predicate, fact.subject, rule, fact);
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
          this.#propose(member, rule.type, type, rule, fact, schemaFact);
        }
      }
    }
  }
}

/** The facts of a predicate with a subject (or an object), by the index given. */
function factsOf(byKey: Map<number, Map<number, Fact[]>>, predicate: number, key: number): readonly Fact[] {
  return byKey.get(predicate)?.get(key) ?? NO_FACTS;
}

const NO_FACTS: readonly Fact[] = [];

function pushTo(index: Map<number, Map<number, Fact[]>>, predicate: number, key: number, fact: Fact): void {
  let byKey = index.get(predicate);
  if (!byKey) index.set(predicate, (byKey = new Map()));
  const list = byKey.get(key);
  if (list) list.push(fact);
  else byKey.set(key, [fact]);
}
