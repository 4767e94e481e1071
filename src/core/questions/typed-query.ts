import type { QueryTerm, TypedPattern, TypedQuery } from './reading-schema.ts';
import type { KnowledgeGraph } from '#core/kg/graph.ts';

/** A fact as ids: subject, predicate, object. */
export type FactIds = [number, number, number];
/** One solution: each variable bound, the facts it stands on, and how many chain steps it took. */
export type Solution = { bindings: Record<string, number>; proof: FactIds[]; distance: number };

/** Why a typed query cannot run on this graph: a symbol it lacks, a chain without an end. */
export function queryProblems(graph: KnowledgeGraph, query: TypedQuery): string[] {
  const problems: string[] = [];
  const variables = new Set<string>();
  for (const [index, pattern] of query.patterns.entries()) {
    for (const term of [pattern.subject, pattern.object]) {
      if ('variable' in term) variables.add(term.variable);
      else if (!graph.symbol(term.symbol) || graph.symbol(term.symbol)!.kind === 'relation')
        problems.push(`pattern ${index + 1}: there is no entity ${term.symbol}`);
    }
    if (graph.symbol(pattern.predicate)?.kind !== 'relation')
      problems.push(`pattern ${index + 1}: there is no relation ${pattern.predicate}`);
  }
  if (query.form !== 'yes-no' && (query.find === undefined || !variables.has(query.find)))
    problems.push(
      `"find" must name a variable of the patterns (${[...variables].map((name) => `?${name}`).join(', ') || 'there are none'})`,
    );
  return problems;
}

/**
 * Runs a typed query: every solution, each with the facts it stands on. Patterns are taken with
 * the most bound first; a chain runs breadth first from its bound end, so the nearest come first.
 * `chainRelations` are followed together when a chain's predicate is one of them (rdf:type then
 * rdfs:subClassOf). Stops at `limit` solutions.
 */
export function solveQuery(
  graph: KnowledgeGraph,
  query: TypedQuery,
  chainRelations: readonly number[],
  limit = 5_000_000,
): { solutions: Solution[]; isTruncated: boolean; unboundChain: boolean } {
  const solutions: Solution[] = [];
  let isTruncated = false;
  let unboundChain = false;
  const { subjects, predicates, objects } = graph.columns;
  const valueOf = (term: QueryTerm, bindings: Record<string, number>) =>
    'symbol' in term ? term.symbol : bindings[term.variable];
  const boundCount = (pattern: TypedPattern, bindings: Record<string, number>) =>
    (valueOf(pattern.subject, bindings) !== undefined ? 2 : 0) +
    (valueOf(pattern.object, bindings) !== undefined ? 2 : 0) -
    (pattern.chain ? 1 : 0);
  const chainSet = (predicate: number) => (chainRelations.includes(predicate) ? chainRelations : [predicate]);

  const extend = (
    pattern: TypedPattern,
    bindings: Record<string, number>,
  ): { bindings: Record<string, number>; proof: FactIds[]; distance: number }[] => {
    const subject = valueOf(pattern.subject, bindings);
    const object = valueOf(pattern.object, bindings);
    const bind = (term: QueryTerm, value: number, into: Record<string, number>) => {
      if ('symbol' in term) return into;
      return { ...into, [term.variable]: value };
    };
    if (!pattern.chain) {
      const found = [];
      for (const position of graph.matchPositions(subject, pattern.predicate, object)) {
        const fact: FactIds = [subjects[position]!, predicates[position]!, objects[position]!];
        // The same variable on both ends must take the same value.
        if (
          'variable' in pattern.subject &&
          'variable' in pattern.object &&
          pattern.subject.variable === pattern.object.variable &&
          fact[0] !== fact[2]
        )
          continue;
        found.push({
          bindings: bind(pattern.object, fact[2], bind(pattern.subject, fact[0], bindings)),
          proof: [fact],
          distance: 0,
        });
      }
      return found;
    }
    const relations = chainSet(pattern.predicate);
    if (subject !== undefined) {
      const reached = walk(graph, subject, relations, 'up');
      if (object !== undefined) {
        const step = reached.get(object);
        // Zero steps (the symbol itself) count only where the pattern says so.
        return step && (step.distance > 0 || pattern.orSelf)
          ? [{ bindings, proof: proofOf(reached, object), distance: step.distance }]
          : [];
      }
      return [...reached.keys()]
        .filter((id) => pattern.orSelf || id !== subject)
        .map((id) => ({
          bindings: bind(pattern.object, id, bindings),
          proof: proofOf(reached, id),
          distance: reached.get(id)!.distance,
        }));
    }
    if (object !== undefined) {
      const reached = walk(graph, object, relations, 'down');
      return [...reached.keys()]
        .filter((id) => pattern.orSelf || id !== object)
        .map((id) => ({
          bindings: bind(pattern.subject, id, bindings),
          proof: proofOf(reached, id).reverse(),
          distance: reached.get(id)!.distance,
        }));
    }
    unboundChain = true;
    return [];
  };

  const solve = (remaining: TypedPattern[], bindings: Record<string, number>, proof: FactIds[], distance: number) => {
    if (isTruncated) return;
    if (remaining.length === 0) {
      if (solutions.length >= limit) isTruncated = true;
      else solutions.push({ bindings, proof, distance });
      return;
    }
    let best = 0;
    for (let index = 1; index < remaining.length; index++)
      if (boundCount(remaining[index]!, bindings) > boundCount(remaining[best]!, bindings)) best = index;
    const pattern = remaining[best]!;
    const rest = remaining.filter((_, index) => index !== best);
    for (const next of extend(pattern, bindings)) {
      solve(rest, next.bindings, [...proof, ...next.proof], distance + next.distance);
      if (isTruncated) return;
    }
  };
  solve(query.patterns, {}, [], 0);
  return { solutions, isTruncated, unboundChain };
}

type Step = { distance: number; via?: FactIds };

/** Breadth first along the relations, up (subject to object) or down: each symbol reached, with the fact it was reached by. */
function walk(
  graph: KnowledgeGraph,
  start: number,
  relations: readonly number[],
  direction: 'up' | 'down',
): Map<number, Step> {
  const { subjects, predicates, objects } = graph.columns;
  const reached = new Map<number, Step>([[start, { distance: 0 }]]);
  let frontier = [start];
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const node of frontier) {
      const distance = reached.get(node)!.distance + 1;
      const positions = direction === 'up' ? graph.positionsFrom(node) : graph.positionsTo(node);
      for (const position of positions) {
        if (!relations.includes(predicates[position]!)) continue;
        const other = direction === 'up' ? objects[position]! : subjects[position]!;
        if (reached.has(other)) continue;
        reached.set(other, { distance, via: [subjects[position]!, predicates[position]!, objects[position]!] });
        next.push(other);
      }
    }
    frontier = next;
  }
  return reached;
}

/** The facts that led a walk to a symbol, from the start. */
function proofOf(reached: Map<number, Step>, id: number): FactIds[] {
  const facts: FactIds[] = [];
  for (let step = reached.get(id); step?.via;) {
    facts.push(step.via);
    // Up: the fact's subject is where the walk came from; down: its object.
    id = step.via[2] === id ? step.via[0] : step.via[2];
    step = reached.get(id);
  }
  return facts.reverse();
}
