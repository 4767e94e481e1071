import type { GraphBatch } from '../graph-batch.ts';
import type { KnowledgeGraph } from '../graph.ts';
import { localName } from '../symbol.ts';
import { ANIMA_RELATIONS, OWL_SAME_AS, prefixedName, WELL_KNOWN_PREFIXES } from '../standard-terms.ts';

/** How many examples of each kind of sharing an import reports. */
const EXAMPLES = 5;

/** What a staged import shares with the graph (see api.ts importSharedSchema). */
export type SharedWithGraph = {
  relations: { count: number; examples: { relation: string; joins: string }[] };
  sameNames: { count: number; linked: number; examples: { symbol: string; existing: string }[] };
};

/** The Anima relation a standard IRI is part of (rdf:type → is-a), if any. */
const RELATION_OF_IRI = new Map(
  Object.entries(ANIMA_RELATIONS).flatMap(([name, relation]) => relation.standard.map((iri) => [iri, name] as const)),
);

/**
 * Joins a staged import to the graph. Its relations that mean a known one join it by default
 * (queries and rules read them through the vocabulary: rdf:type is is-a, `http://other.example/is-a`
 * is is-a): they are counted. Its things named as things the graph has are counted too, and,
 * when `linkSameLabels` asks, linked to them as the same thing (owl:sameAs): a shared name may be
 * a coincidence (bass the fish, bass the voice), so that is the user's choice.
 */
export function joinStagedImport(
  graph: KnowledgeGraph,
  batch: GraphBatch,
  options: { linkSameLabels?: boolean } = {},
): SharedWithGraph {
  const { labels, shared } = batch.namesOfNewSymbols();
  const labelOf = (id: number) => labels.get(id) ?? batch.newSymbol(id)?.label ?? graph.symbol(id)?.label ?? `#${id}`;
  const relations: SharedWithGraph['relations']['examples'] = [];
  let relationCount = 0;
  const sharedRelations = new Map(shared.map(({ symbol, existing }) => [symbol, existing]));
  for (const [id] of labels) {
    const symbol = batch.newSymbol(id);
    if (symbol?.kind !== 'relation') continue;
    const byIri = symbol.iri !== undefined ? RELATION_OF_IRI.get(symbol.iri) : undefined;
    const byName = sharedRelations.get(id);
    const joins =
      (byIri !== undefined ? saidAs(graph, byIri) : undefined) ??
      (byName !== undefined
        ? graph.symbol(byName)?.label
        : symbol.iri !== undefined && Object.hasOwn(ANIMA_RELATIONS, localName(symbol.iri).toLowerCase())
          ? localName(symbol.iri)
          : undefined);
    if (joins === undefined) continue;
    relationCount++;
    // The file's own term, as it would write it (skos:narrower), where a prefix it or the world uses fits.
    const relation =
      symbol.iri !== undefined ? prefixedName(symbol.iri, { ...WELL_KNOWN_PREFIXES, ...batch.prefixes }) : labelOf(id);
    if (relations.length < EXAMPLES) relations.push({ relation, joins });
  }
  const sameNames = shared.filter(({ symbol }) => batch.newSymbol(symbol)?.kind === 'entity');
  let linked = 0;
  if (options.linkSameLabels && sameNames.length > 0) {
    const sameAs = batch.resolve({ type: 'iri', value: OWL_SAME_AS }, 'predicate');
    for (const { symbol, existing } of sameNames) {
      batch.assert(symbol, sameAs, existing, 1);
      linked++;
    }
  }
  return {
    relations: { count: relationCount, examples: relations },
    sameNames: {
      count: sameNames.length,
      linked,
      examples: sameNames
        .slice(0, EXAMPLES)
        .map(({ symbol, existing }) => ({ symbol: labelOf(symbol), existing: labelOf(existing) })),
    },
  };
}

/**
 * How the report names the Anima relation a standard term joins: by its name where the graph has
 * it or it is a relation of its own, and as another read backwards where it only names that one's
 * inverse (skos:narrower joins is-a, read backwards: no `has-instance` the user never wrote).
 */
function saidAs(graph: KnowledgeGraph, name: string): string {
  if (graph.symbolsNamed(name).some((symbol) => symbol.kind === 'relation')) return name;
  const inverseOf = Object.entries(ANIMA_RELATIONS).find(([, relation]) => relation.inverse === name)?.[0];
  return inverseOf !== undefined ? `${inverseOf}, read backwards` : name;
}
