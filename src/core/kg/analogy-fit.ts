import type { AnalogyProposal } from './analogy.ts';
import { FACTS_PER_NEIGHBOUR } from './analogy.ts';
import type { KnowledgeGraph } from './graph.ts';
import type { SimilarityHit } from './similarity-options.ts';
import { GraphVocabulary } from './vocabulary.ts';

/** Classes followed up a taxonomy at most: bounds the cost on a deep or tangled one. */
const ANCESTORS_READ = 256;

/** The classes a symbol reaches up the taxonomy (`is-a` and its synonyms, transitively), itself excluded. */
function ancestorsOf(graph: KnowledgeGraph, start: number, taxonomic: ReadonlySet<number>): Set<number> {
  const { predicates, objects } = graph.columns;
  const reached = new Set<number>();
  const queue = [start];
  for (let index = 0; index < queue.length && reached.size < ANCESTORS_READ; index++)
    for (const position of graph.positionsFrom(queue[index]!)) {
      const object = objects[position]!;
      if (!taxonomic.has(predicates[position]!) || object === start || reached.has(object)) continue;
      reached.add(object);
      queue.push(object);
    }
  return reached;
}

/**
 * How many objects a symbol has for each of some predicates, its facts read up to a bound; the
 * taxonomic predicates (`is-a` and its synonyms) count as one, under the key -1.
 */
function objectCounts(
  graph: KnowledgeGraph,
  symbol: number,
  wanted: ReadonlySet<number>,
  taxonomic: ReadonlySet<number>,
): Map<number, number> {
  const { predicates } = graph.columns;
  const counts = new Map<number, number>();
  let read = 0;
  for (const position of graph.positionsFrom(symbol)) {
    if (read++ >= FACTS_PER_NEIGHBOUR) break;
    const predicate = predicates[position]!;
    const key = taxonomic.has(predicate) ? -1 : predicate;
    if (wanted.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** The classes a symbol states itself in (its taxonomic facts), read up to a bound. */
function ownClasses(graph: KnowledgeGraph, symbol: number, taxonomic: ReadonlySet<number>): number[] {
  const { predicates, objects } = graph.columns;
  return graph
    .positionsFrom(symbol)
    .slice(0, FACTS_PER_NEIGHBOUR)
    .filter((position) => taxonomic.has(predicates[position]!))
    .map((position) => objects[position]!);
}

/**
 * The proposals that fit a symbol, in their order. Of its classes, the most specific: a class
 * the symbol already reaches up the taxonomy, or one above another proposed class, is what the
 * rules derive, not a new fact. And of each predicate, no more objects than its similar symbols
 * typically have (their median, at least one; a genus or a parent in a tree: one), less those it
 * has (a class it has that a proposed one lies under is refined, not added to): each one past
 * that is more likely wrong than right.
 */
export function fitting<P extends Pick<AnalogyProposal, 'predicate' | 'object'>>(
  graph: KnowledgeGraph,
  subject: number,
  proposals: readonly P[],
  neighbours: readonly SimilarityHit[],
): P[] {
  const taxonomic = new Set(GraphVocabulary.of(graph).relationNamed('is-a').ids);
  const keyOf = (predicate: number) => (taxonomic.has(predicate) ? -1 : predicate);
  const classes = proposals.filter((proposal) => taxonomic.has(proposal.predicate));
  const implied = classes.length > 0 ? ancestorsOf(graph, subject, taxonomic) : new Set<number>();
  const above = new Map(classes.map((proposal) => [proposal, ancestorsOf(graph, proposal.object, taxonomic)]));
  const isImplied = (proposal: P) =>
    taxonomic.has(proposal.predicate) &&
    (implied.has(proposal.object) ||
      classes.some(
        (other) =>
          other !== proposal && above.get(other)!.has(proposal.object) && !above.get(proposal)!.has(other.object),
      ));
  const wanted = new Set(proposals.map((proposal) => keyOf(proposal.predicate)));
  const kin = neighbours.map((hit) => objectCounts(graph, hit.symbolId, wanted, taxonomic));
  const own = objectCounts(graph, subject, wanted, taxonomic);
  const held = own.has(-1) ? ownClasses(graph, subject, taxonomic) : [];
  const typical = new Map(
    [...wanted].map((key) => {
      const counts = kin.map((counted) => counted.get(key) ?? 0).sort((a, b) => a - b);
      return [key, Math.max(1, counts[Math.floor((counts.length - 1) / 2)] ?? 1)];
    }),
  );
  const taken = new Map<number, number>();
  // What a proposal adds to: the objects the symbol has, less, for a class, those it refines.
  const had = (proposal: P, key: number) =>
    key === -1 ? held.filter((owned) => !above.get(proposal)!.has(owned)).length : (own.get(key) ?? 0);
  return proposals.filter((proposal) => {
    const key = keyOf(proposal.predicate);
    const count = taken.get(key) ?? 0;
    if (isImplied(proposal) || count + had(proposal, key) >= typical.get(key)!) return false;
    taken.set(key, count + 1);
    return true;
  });
}
