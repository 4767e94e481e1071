import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { Answer } from '#core/records/answer.ts';
import type { Reading } from './reading-schema.ts';
import { type FactIds, solveQuery } from './typed-query.ts';
import { displayName } from './answer-view.ts';
import { vocabularyOf } from './vocabulary.ts';

/** The most facts an answer keeps as its proof (a goal keeps as many findings). */
export const MAX_PROOF_FACTS = 2000;

/** Runs a reading's query on the graph (the graph decides, never the reader) and types the result. */
export function answerReading(graph: KnowledgeGraph, reading: Reading): Answer {
  const base = { entities: [], reading: reading.text };
  if (!reading.query) return { ...base, kind: 'none', reason: reading.reason ?? 'the question could not be read' };
  const { query } = reading;
  const { solutions, unboundChain } = solveQuery(graph, query, vocabularyOf(graph).classRelations);
  if (unboundChain) return { ...base, kind: 'none', reason: 'the reading follows is-a chains from no known thing' };
  const label = (id: number) => displayName(graph, id);
  if (query.form === 'yes-no') {
    const proved = solutions[0];
    if (proved) return { ...base, kind: 'boolean', value: true, proof: proved.proof };
    // A "no" stands on what the graph records of the thing: Japan's currencies are known and the
    // euro is not one; but a graph that records no official language of Mexico cannot deny Spanish.
    const unrecorded = query.patterns.find(
      (pattern) =>
        !pattern.chain &&
        'symbol' in pattern.subject &&
        graph.matchPositions(pattern.subject.symbol, pattern.predicate, undefined).length === 0,
    );
    if (unrecorded && 'symbol' in unrecorded.subject)
      return {
        ...base,
        kind: 'none',
        reason: `this graph records no ${label(unrecorded.predicate)} of ${label(unrecorded.subject.symbol)} at all, so it cannot say ${reading.text}`,
      };
    return {
      ...base,
      kind: 'boolean',
      value: false,
      proof: [],
      reason: `no fact or is-a chain in this graph says ${reading.text.replace(/^whether /, '')}`,
    };
  }
  // One entry per value, at its nearest: a class reached by two chains is named once.
  const nearest = new Map<number, { distance: number; proof: FactIds[] }>();
  for (const solution of solutions) {
    const value = solution.bindings[query.find!];
    if (value === undefined) continue;
    const known = nearest.get(value);
    if (!known || solution.distance < known.distance)
      nearest.set(value, { distance: solution.distance, proof: solution.proof });
  }
  const { classRelations } = vocabularyOf(graph);
  const isKind = (id: number) =>
    graph.positionsTo(id).some((position) => classRelations.includes(graph.columns.predicates[position]!));
  const values = [...nearest.keys()].filter((id) => !query.individuals || !isKind(id));
  if (query.form === 'describe' || query.form === 'common')
    values.sort((a, b) => nearest.get(a)!.distance - nearest.get(b)!.distance);
  if (query.form === 'describe' && values.length === 0)
    return {
      ...base,
      kind: 'none',
      reason: `this graph says nothing about what ${label((query.patterns[0]!.subject as { symbol: number }).symbol)} is`,
    };
  // No class both are in is no answer to what they have in common: an empty list would read as "nothing".
  if (query.form === 'common' && values.length === 0)
    return {
      ...base,
      kind: 'none',
      reason: `this graph puts ${query.patterns.map((pattern) => label((pattern.subject as { symbol: number }).symbol)).join(' and ')} in no class together`,
    };
  const literals = values.filter((id) => graph.symbol(id)?.kind === 'literal');
  const entities = values.map((id) => ({ symbol: id, label: label(id) }));
  // The facts the answers stand on, each once, bounded as a goal's findings are.
  const proof = new Map<string, FactIds>();
  for (const id of values) {
    for (const fact of nearest.get(id)!.proof) if (proof.size < MAX_PROOF_FACTS) proof.set(fact.join(' '), fact);
    if (proof.size >= MAX_PROOF_FACTS) break;
  }
  if (query.form === 'count')
    return { ...base, kind: 'count', value: values.length, entities, proof: [...proof.values()] };
  if (literals.length === 1 && values.length === 1)
    return {
      ...base,
      kind: 'value',
      value: label(literals[0]!),
      entities: [],
      proof: nearest.get(literals[0]!)!.proof,
    };
  return { ...base, kind: 'entities', entities, proof: [...proof.values()] };
}
