import type { KnowledgeGraph } from './graph.ts';
import type { Triple } from './triple.ts';

/** A symbol reached by spreading activation, with its activation (0..1). */
export type Activation = { symbolId: number; activation: number };

/**
 * Spreads activation from seed symbols (each at 1.0) along domain triples in both directions:
 * a neighbour receives activation x confidence; the strongest path wins; spreading stops below
 * the threshold or at the depth, and takes at most `fanOut` neighbours of a symbol each way. Returns the top-k reached symbols, seeds excluded, strongest
 * first (ties by id, so runs repeat).
 */
export function spreadActivation(
  graph: KnowledgeGraph,
  seeds: readonly number[],
  options: { threshold?: number; depth?: number; topK?: number; fanOut?: number } = {},
): Activation[] {
  // fanOut bounds the neighbours taken from one symbol each way (the first in index order), so a
  // hub with 100,000 facts costs what a symbol with a few hundred does, every cycle.
  const { threshold = 0.1, depth = 3, topK = 20, fanOut = 500 } = options;
  const activation = new Map<number, number>(seeds.map((seed) => [seed, 1]));
  const { subjects, objects, predicates, confidences } = graph.columns;
  // Reads the columns at the graph's positions: this runs every cycle, on hubs too.
  const isMetadataPredicate = new Map<number, boolean>();
  const isMetadataAt = (position: number) => {
    const predicate = predicates[position]!;
    let isMetadata = isMetadataPredicate.get(predicate);
    if (isMetadata === undefined) isMetadataPredicate.set(predicate, (isMetadata = graph.isMetadata({ predicate })));
    return isMetadata;
  };
  let frontier = [...new Set(seeds)];
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const next = new Set<number>();
    for (const symbolId of frontier) {
      const from = activation.get(symbolId)!;
      const reach = (neighbour: number, position: number) => {
        const value = from * confidences[position]!;
        if (value < threshold || value <= (activation.get(neighbour) ?? 0) || isMetadataAt(position)) return;
        activation.set(neighbour, value);
        next.add(neighbour);
      };
      const outgoing = graph.positionsFrom(symbolId);
      const incoming = graph.positionsTo(symbolId);
      for (let index = 0; index < Math.min(fanOut, outgoing.length); index++)
        reach(objects[outgoing[index]!]!, outgoing[index]!);
      for (let index = 0; index < Math.min(fanOut, incoming.length); index++)
        reach(subjects[incoming[index]!]!, incoming[index]!);
    }
    frontier = [...next];
  }
  // The top k kept in order as they come: a hub's neighbourhood reaches thousands, and only k are asked for.
  const seedSet = new Set(seeds);
  const limit = Math.max(0, Math.floor(topK));
  const best: Activation[] = [];
  if (limit === 0) return best;
  const isAhead = (value: number, symbolId: number, other: Activation) =>
    value > other.activation || (value === other.activation && symbolId < other.symbolId);
  for (const [symbolId, value] of activation) {
    if (seedSet.has(symbolId)) continue;
    if (best.length === limit && !isAhead(value, symbolId, best[limit - 1]!)) continue;
    let at = best.length;
    while (at > 0 && isAhead(value, symbolId, best[at - 1]!)) at--;
    best.splice(at, 0, { symbolId, activation: value });
    if (best.length > limit) best.pop();
  }
  return best;
}

/** One step of a path: a triple, walked forwards (subject to object) or backwards. */
export type PathStep = { triple: Triple; isForward: boolean };

/**
 * The shortest path between two symbols over domain triples, walked in either direction
 * (breadth-first from both ends, so it stays fast on large graphs). Undefined when none exists
 * within `maxLength` steps. Among equally short paths, the one found first in index order.
 */
export function shortestPath(
  graph: KnowledgeGraph,
  from: number,
  to: number,
  options: { maxLength?: number } = {},
): PathStep[] | undefined {
  const { maxLength = 8 } = options;
  if (from === to) return [];
  // For each visited symbol: the step that reached it from its side's start.
  const fromStart = new Map<number, PathStep | null>([[from, null]]);
  const fromEnd = new Map<number, PathStep | null>([[to, null]]);
  let startFrontier = [from];
  let endFrontier = [to];
  for (let length = 0; length < maxLength; length++) {
    // Expand the smaller side: cheaper, and the same shortest length either way.
    const isStartSide = startFrontier.length <= endFrontier.length;
    const [visited, other, frontier] = isStartSide
      ? [fromStart, fromEnd, startFrontier]
      : [fromEnd, fromStart, endFrontier];
    const next: number[] = [];
    for (const symbolId of frontier) {
      const steps: [number, PathStep][] = [
        ...graph.outgoing(symbolId).map((triple): [number, PathStep] => [triple.object, { triple, isForward: true }]),
        ...graph.incoming(symbolId).map((triple): [number, PathStep] => [triple.subject, { triple, isForward: false }]),
      ];
      for (const [neighbour, step] of steps) {
        if (visited.has(neighbour) || graph.isMetadata(step.triple)) continue;
        visited.set(neighbour, step);
        if (other.has(neighbour)) return joinPath(fromStart, fromEnd, neighbour);
        next.push(neighbour);
      }
    }
    if (next.length === 0) return undefined;
    if (isStartSide) startFrontier = next;
    else endFrontier = next;
  }
  return undefined;
}

/** Walks back from the meeting symbol to each end and joins the halves, start to end. */
function joinPath(
  fromStart: Map<number, PathStep | null>,
  fromEnd: Map<number, PathStep | null>,
  meeting: number,
): PathStep[] {
  const first: PathStep[] = [];
  for (let symbolId = meeting, step = fromStart.get(symbolId); step; step = fromStart.get(symbolId)) {
    first.unshift(step);
    symbolId = step.isForward ? step.triple.subject : step.triple.object;
  }
  const second: PathStep[] = [];
  for (let symbolId = meeting, step = fromEnd.get(symbolId); step; step = fromEnd.get(symbolId)) {
    // Reached from the end's side, so walking towards the end reverses its direction.
    second.push({ triple: step.triple, isForward: !step.isForward });
    symbolId = step.isForward ? step.triple.subject : step.triple.object;
  }
  return [...first, ...second];
}

/**
 * A relation to follow: `members` say it forwards, `inverseIds` backwards; a chain continues only
 * through `chain` (through subclassing, never through a type: see GraphVocabulary.typeIds).
 */
export type ClosureRelation = { members: Iterable<number>; chain?: Iterable<number>; inverseIds?: Iterable<number> };

/** What a closure reached, nearest first, and how: each symbol's chain of triples up to the target. */
export type ClosureWalk = { order: number[]; chainOf(symbol: number): Triple[] };

/**
 * Every symbol that reaches `target` through one or more `predicate` triples, e.g. all the
 * (transitive) subclasses and instances of Mammal through is-a (or through rdfs:subClassOf and
 * rdf:type). Breadth-first over the object index; cycles are safe. In discovery order (nearest first).
 */
export function transitiveClosure(
  graph: KnowledgeGraph,
  predicate: number | ClosureRelation,
  target: number,
): number[] {
  return walkClosure(graph, predicate, target).order;
}

/** The closure with its proofs: each symbol's chain is the triples it stands on, from it up to the target. */
export function transitiveChains(
  graph: KnowledgeGraph,
  predicate: number | ClosureRelation,
  target: number,
): { subject: number; chain: Triple[] }[] {
  const walk = walkClosure(graph, predicate, target);
  return walk.order.map((subject) => ({ subject, chain: walk.chainOf(subject) }));
}

function walkClosure(graph: KnowledgeGraph, predicate: number | ClosureRelation, target: number): ClosureWalk {
  const relation = typeof predicate === 'number' ? { members: [predicate] } : predicate;
  const members = [...new Set(relation.members)];
  const chain = new Set(relation.chain ?? members);
  const inverses = new Set(relation.inverseIds ?? []);
  // One or two members (is-a; rdf:type and rdfs:subClassOf) are compared directly: this loop runs once per triple reached.
  const [first = -1, second = first] = members.length <= 2 ? members : [];
  const memberSet = members.length > 2 ? new Set(members) : undefined;
  // How each symbol was first reached: the triple's position and the symbol it leads to (the target has none).
  const reachedBy = new Map<number, { position: number; parent: number }>([[target, { position: -1, parent: target }]]);
  const expanded = new Set<number>([target]);
  const order: number[] = [];
  const { subjects, predicates, objects } = graph.columns;
  let frontier = [target];
  while (frontier.length > 0) {
    const next: number[] = [];
    const reach = (symbol: number, through: number, position: number, parent: number) => {
      if (!reachedBy.has(symbol)) {
        reachedBy.set(symbol, { position, parent });
        order.push(symbol);
      }
      // A member reached only through rdf:type is an instance: nothing is a member of it through this chain.
      if ((chain.has(through) || inverses.has(through)) && !expanded.has(symbol)) {
        expanded.add(symbol);
        next.push(symbol);
      }
    };
    for (const object of frontier) {
      for (const position of graph.positionsTo(object)) {
        const through = predicates[position]!;
        if (memberSet ? memberSet.has(through) : through === first || through === second)
          reach(subjects[position]!, through, position, object);
      }
      if (inverses.size > 0)
        for (const position of graph.positionsFrom(object))
          if (inverses.has(predicates[position]!)) reach(objects[position]!, predicates[position]!, position, object);
    }
    frontier = next;
  }
  return {
    order,
    chainOf(symbol) {
      const steps: Triple[] = [];
      for (let step = reachedBy.get(symbol); step && step.position !== -1; step = reachedBy.get(step.parent))
        steps.push(graph.tripleAt(step.position));
      return steps;
    },
  };
}
