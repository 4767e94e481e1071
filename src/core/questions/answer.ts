import { z } from 'zod';
import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { Reading } from './reading.ts';
import { type FactIds, solveQuery } from './typed-query.ts';
import { displayName, vocabularyOf } from './vocabulary.ts';

/** A fact of a proof, as ids. */
const proofFactSchema = z.tuple([z.number().int(), z.number().int(), z.number().int()]);

/**
 * A question's answer, typed: `entities` (every one, with labels; lists, lookups, descriptions),
 * `boolean` (yes or no, with the facts that prove it or the reason none do), `count`, `value` (a
 * literal), or `none` with the reason the graph cannot answer. `reading` says how the question
 * was read, in plain words.
 */
export const answerSchema = z.object({
  kind: z.enum(['entities', 'boolean', 'count', 'value', 'none']),
  entities: z.array(z.object({ symbol: z.number().int(), label: z.string() })),
  value: z.union([z.boolean(), z.number(), z.string()]).optional(),
  reading: z.string(),
  proof: z.array(proofFactSchema).optional(),
  reason: z.string().optional(),
});
export type Answer = z.infer<typeof answerSchema>;

/** The most facts an answer keeps as its proof (a goal keeps as many findings). */
export const MAX_PROOF_FACTS = 2000;

/** An answer as the UI and CLI show it: its proof as labels. */
export const answerViewSchema = answerSchema.extend({ proof: z.array(z.object({ subject: z.string(), predicate: z.string(), object: z.string() })).optional() });
export type AnswerView = z.infer<typeof answerViewSchema>;

export function answerViewOf(graph: KnowledgeGraph, answer: Answer): AnswerView {
  const label = (id: number) => displayName(graph, id);
  const { proof, ...rest } = answer;
  return { ...rest, ...(proof ? { proof: proof.map(([subject, predicate, object]) => ({ subject: label(subject), predicate: label(predicate), object: label(object) })) } : {}) };
}

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
    return { ...base, kind: 'boolean', value: false, proof: [], reason: `no fact or is-a chain in this graph says ${reading.text.replace(/^whether /, '')}` };
  }
  // One entry per value, at its nearest: a class reached by two chains is named once.
  const nearest = new Map<number, { distance: number; proof: FactIds[] }>();
  for (const solution of solutions) {
    const value = solution.bindings[query.find!];
    if (value === undefined) continue;
    const known = nearest.get(value);
    if (!known || solution.distance < known.distance) nearest.set(value, { distance: solution.distance, proof: solution.proof });
  }
  const { classRelations } = vocabularyOf(graph);
  const isKind = (id: number) => graph.positionsTo(id).some((position) => classRelations.includes(graph.columns.predicates[position]!));
  const values = [...nearest.keys()].filter((id) => !query.individuals || !isKind(id));
  if (query.form === 'describe' || query.form === 'common') values.sort((a, b) => nearest.get(a)!.distance - nearest.get(b)!.distance);
  if (query.form === 'describe' && values.length === 0) return { ...base, kind: 'none', reason: `this graph says nothing about what ${label((query.patterns[0]!.subject as { symbol: number }).symbol)} is` };
  const literals = values.filter((id) => graph.symbol(id)?.kind === 'literal');
  const entities = values.map((id) => ({ symbol: id, label: label(id) }));
  // The facts the answers stand on, each once, bounded as a goal's findings are.
  const proof = new Map<string, FactIds>();
  for (const id of values) {
    for (const fact of nearest.get(id)!.proof) if (proof.size < MAX_PROOF_FACTS) proof.set(fact.join(' '), fact);
    if (proof.size >= MAX_PROOF_FACTS) break;
  }
  if (query.form === 'count') return { ...base, kind: 'count', value: values.length, entities, proof: [...proof.values()] };
  if (literals.length === 1 && values.length === 1) return { ...base, kind: 'value', value: label(literals[0]!), entities: [], proof: nearest.get(literals[0]!)!.proof };
  return { ...base, kind: 'entities', entities, proof: [...proof.values()] };
}

/** An answer as a person reads it: the list with labels, yes or no with its proof, the number, or why not. */
export function answerText(graph: KnowledgeGraph, answer: Answer, options: { limit?: number } = {}): string {
  return answerViewText(answerViewOf(graph, answer), options.limit);
}

/** {@link answerText} of an answer already in labels; at most `limit` entities are named. */
export function answerViewText(answer: AnswerView, limit = Infinity): string {
  const fact = (proofFact: { subject: string; predicate: string; object: string }) => `${proofFact.subject} ${proofFact.predicate} ${proofFact.object}`;
  switch (answer.kind) {
    case 'none':
      return `No answer: ${answer.reason}.`;
    case 'boolean':
      return answer.value ? `Yes: ${(answer.proof ?? []).map(fact).join('; ')}.` : `No: ${answer.reason}.`;
    case 'count':
    case 'value':
      return `${answer.value}`;
    case 'entities': {
      if (answer.entities.length === 0) return 'None: no thing in this graph fits.';
      const shown = answer.entities.slice(0, limit).map((entity) => entity.label);
      const more = answer.entities.length > shown.length ? ` and ${answer.entities.length - shown.length} more` : '';
      return `${answer.entities.length} ${answer.entities.length === 1 ? 'answer' : 'answers'}: ${shown.join(', ')}${more}.`;
    }
  }
}
