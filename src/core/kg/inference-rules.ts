import type { KnowledgeGraph } from './graph.ts';
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

// The built-in rules, what a run of them is given and gives back, and how they apply to one graph.
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

export type Fact = { subject: number; predicate: number; object: number; confidence: number };

/**
 * A rule as it applies to one graph's predicates. `chain`: a P b (P a member) and b Q c (Q in
 * `chain`) give a P c, so a type climbs the class chain but never through a type of a type;
 * `chainBothWays` (owl:equivalentClass) is a chain read in both directions. `typing`: a P b and P
 * rdfs:domain C give a rdf:type C (rdfs:range: b rdf:type C).
 */
export type ActiveRule =
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
export function activeRules(graph: KnowledgeGraph, rules: readonly InferenceRule[]): ActiveRule[] {
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
