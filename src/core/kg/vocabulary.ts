import type { KnowledgeGraph } from './graph.ts';
import { labelKey } from './symbol.ts';
import {
  WIKIDATA_DIRECT,
  RDF_TYPE,
  RDFS_SUBPROPERTY_OF,
  RDFS_DOMAIN,
  RDFS_RANGE,
  OWL_EQUIVALENT_CLASS,
  OWL_EQUIVALENT_PROPERTY,
  OWL_INVERSE_OF,
  OWL_TRANSITIVE_PROPERTY,
  OWL_SYMMETRIC_PROPERTY,
  WELL_KNOWN_PREFIXES,
  expandPrefixedName,
  ANIMA_RELATIONS,
} from './standard-terms.ts';

/**
 * What Anima's relations mean in a graph: the one home of the mapping from the standard terms
 * (standard-terms.ts) onto the graph's own predicates. Queries, rules, criteria and names read it
 * here. Stored triples keep their own predicates; the mapping only says what they mean.
 */
/** Membership (never chained through on its right: a type's type is not the thing's type). */
const TYPE_IRIS = [RDF_TYPE, `${WIKIDATA_DIRECT}P31`];

/** A relation as the graph uses it: the predicates that say it, and those that say it backwards. */
export type RelationIds = { ids: readonly number[]; inverseIds: readonly number[] };

const NO_RELATION: RelationIds = { ids: [], inverseIds: [] };

/**
 * What a graph's vocabulary means at one moment: the sub-properties, equivalences, inverses,
 * transitive and symmetric properties and domains it declares, and the sameAs groups. Read from
 * the schema triples alone (through the predicate index), once per change of the graph: queries
 * ask it with no scan of their own.
 */
export class GraphVocabulary {
  readonly #graph: KnowledgeGraph;
  /** Properties by the property they are a sub-property of (equivalences both ways). */
  readonly #subProperties = new Map<number, number[]>();
  readonly #inverses = new Map<number, number[]>();
  readonly #relations = new Map<string, RelationIds>();
  #sameAs: Map<number, number[]> | undefined;

  private constructor(graph: KnowledgeGraph) {
    this.#graph = graph;
    this.#eachFact(RDFS_SUBPROPERTY_OF, (sub, sup) => push(this.#subProperties, sup, sub));
    this.#eachFact(OWL_EQUIVALENT_PROPERTY, (a, b) => {
      push(this.#subProperties, a, b);
      push(this.#subProperties, b, a);
    });
    this.#eachFact(OWL_INVERSE_OF, (a, b) => {
      push(this.#inverses, a, b);
      push(this.#inverses, b, a);
    });
  }

  static #cache = new WeakMap<KnowledgeGraph, { version: number; vocabulary: GraphVocabulary }>();

  /** The vocabulary of a graph as it is now (made again only after the graph changed). */
  static of(graph: KnowledgeGraph): GraphVocabulary {
    const cached = GraphVocabulary.#cache.get(graph);
    if (cached && cached.version === graph.version) return cached.vocabulary;
    const vocabulary = new GraphVocabulary(graph);
    GraphVocabulary.#cache.set(graph, { version: graph.version, vocabulary });
    return vocabulary;
  }

  /** The id of a standard term, if the graph uses it. */
  idOf(iri: string): number | undefined {
    return this.#graph.symbolByIri(iri)?.id;
  }

  /**
   * The relation a name stands for: Anima's relation of that name (with the standard properties
   * that define it, and any predicate whose IRI's local name is the name: `http://other.example/is-a`
   * joins `is-a`), a prefixed name (`rdfs:subClassOf`), or a relation labelled so; with every
   * sub-property and equivalent the graph declares, and the inverses read backwards.
   */
  relationNamed(name: string, prefixes: Readonly<Record<string, string>> = WELL_KNOWN_PREFIXES): RelationIds {
    const key = labelKey(name);
    // `a` is rdf:type, as in Turtle and SPARQL.
    const iri = key === 'a' ? RDF_TYPE : expandPrefixedName(name, prefixes);
    const cacheKey = `${key} ${iri ?? ''}`;
    const cached = this.#relations.get(cacheKey);
    if (cached) return cached;
    const seeds = this.#seedsOf(key, name, iri);
    const inverseName =
      ANIMA_RELATIONS[key]?.inverse ??
      Object.entries(ANIMA_RELATIONS).find(([, relation]) => relation.inverse === key)?.[0];
    const ids = this.#withSubProperties(seeds);
    const inverseSeeds = [
      ...ids.flatMap((id) => this.#inverses.get(id) ?? []),
      ...(inverseName !== undefined ? this.#seedsOf(inverseName, inverseName, undefined) : []),
    ];
    const relation =
      seeds.length === 0
        ? NO_RELATION
        : { ids, inverseIds: this.#withSubProperties(inverseSeeds).filter((id) => !ids.includes(id)) };
    this.#relations.set(cacheKey, relation);
    return relation;
  }

  /** A predicate with its sub-properties and equivalents, and its declared inverses (for a query's IRI). */
  relationOf(predicate: number): RelationIds {
    const ids = this.#withSubProperties([predicate]);
    return {
      ids,
      inverseIds: this.#withSubProperties(ids.flatMap((id) => this.#inverses.get(id) ?? [])).filter(
        (id) => !ids.includes(id),
      ),
    };
  }

  /** The predicates that state membership (rdf:type and kin): a class chain never continues through them. */
  typeIds(): Set<number> {
    return new Set(this.#withSubProperties(TYPE_IRIS.flatMap((iri) => this.#idList(iri))));
  }

  /** Classes stated equivalent (owl:equivalentClass), as pairs both ways. */
  equivalentClassIds(): number[] {
    return this.#idList(OWL_EQUIVALENT_CLASS);
  }

  /** Predicates the graph declares transitive or symmetric (`P rdf:type owl:TransitiveProperty`). */
  declared(characteristic: typeof OWL_TRANSITIVE_PROPERTY | typeof OWL_SYMMETRIC_PROPERTY): number[] {
    const type = this.idOf(RDF_TYPE);
    const kind = this.idOf(characteristic);
    if (type === undefined || kind === undefined) return [];
    const { subjects } = this.#graph.columns;
    return this.#graph.matchPositions(undefined, type, kind).map((position) => subjects[position]!);
  }

  /** Declared inverse pairs (owl:inverseOf), each once. */
  inversePairs(): [number, number][] {
    const pairs: [number, number][] = [];
    this.#eachFact(OWL_INVERSE_OF, (a, b) => pairs.push([a, b]));
    return pairs;
  }

  /** Classes a predicate's subjects (domain) or objects (range) belong to, with sub-properties inheriting them. */
  typing(which: typeof RDFS_DOMAIN | typeof RDFS_RANGE): Map<number, number[]> {
    const classes = new Map<number, number[]>();
    this.#eachFact(which, (predicate, type) => {
      for (const member of this.#withSubProperties([predicate])) push(classes, member, type);
    });
    return classes;
  }

  /**
   * The symbols stated the same as this one (owl:sameAs, skos:exactMatch, and predicates defined
   * so), itself included: one thing to queries. The groups are made on first use.
   */
  sameAs(id: number): readonly number[] {
    if (this.#sameAs === undefined) this.#sameAs = this.#sameAsGroups();
    return this.#sameAs.get(id) ?? [id];
  }

  /** Whether any symbol has a same-as link (a query then sees through them). */
  get hasSameAs(): boolean {
    if (this.#sameAs === undefined) this.#sameAs = this.#sameAsGroups();
    return this.#sameAs.size > 0;
  }

  #sameAsGroups(): Map<number, number[]> {
    const { ids, inverseIds } = this.relationNamed('same-as');
    const parent = new Map<number, number>();
    const find = (id: number): number => {
      let root = id;
      while (parent.has(root) && parent.get(root) !== root) root = parent.get(root)!;
      parent.set(id, root);
      return root;
    };
    const { subjects, objects } = this.#graph.columns;
    for (const predicate of [...ids, ...inverseIds])
      for (const position of this.#graph.positionsWith(predicate)) {
        const [a, b] = [find(subjects[position]!), find(objects[position]!)];
        if (a !== b) parent.set(a, b);
      }
    const groups = new Map<number, number[]>();
    for (const id of parent.keys()) push(groups, find(id), id);
    const byMember = new Map<number, number[]>();
    for (const group of groups.values()) if (group.length > 1) for (const id of group) byMember.set(id, group);
    return byMember;
  }

  #seedsOf(key: string, name: string, iri: string | undefined): number[] {
    const seeds = new Set<number>();
    for (const symbol of this.#graph.symbolsNamed(name))
      if (symbol.kind === 'relation' || this.#graph.positionsWith(symbol.id).length > 0) seeds.add(symbol.id);
    const byIri = iri !== undefined ? this.idOf(iri) : undefined;
    if (byIri !== undefined) seeds.add(byIri);
    for (const standard of ANIMA_RELATIONS[key]?.standard ?? []) for (const id of this.#idList(standard)) seeds.add(id);
    return [...seeds];
  }

  /** Ids with every (transitive) sub-property and equivalent, in a stable order. */
  #withSubProperties(seeds: readonly number[]): number[] {
    const reached = new Set(seeds);
    const queue = [...seeds];
    while (queue.length > 0)
      for (const sub of this.#subProperties.get(queue.pop()!) ?? [])
        if (!reached.has(sub)) {
          queue.push(sub);
          reached.add(sub);
        }
    return [...reached];
  }

  #idList(iri: string): number[] {
    const id = this.idOf(iri);
    return id === undefined ? [] : [id];
  }

  #eachFact(iri: string, visit: (subject: number, object: number) => void): void {
    const predicate = this.idOf(iri);
    if (predicate === undefined) return;
    const { subjects, objects } = this.#graph.columns;
    for (const position of this.#graph.positionsWith(predicate)) visit(subjects[position]!, objects[position]!);
  }
}

function push<Key>(index: Map<Key, number[]>, key: Key, value: number): void {
  const list = index.get(key);
  if (list) list.push(value);
  else index.set(key, [value]);
}
