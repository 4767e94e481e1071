import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { RDFS_LABEL } from '#core/kg/standard-terms.ts';
import type { AnswerView } from './answer-schema.ts';
import type { Answer } from '#core/records/answer.ts';

/**
 * What to call a symbol in an answer: an IRI symbol's label is only its IRI's local name ("JP",
 * "01861778"), so its first rdfs:label value ("Japan", "mammal") names it, English first.
 */
export function displayName(graph: KnowledgeGraph, id: number): string {
  const symbol = graph.symbol(id);
  if (!symbol) return `#${id}`;
  if (symbol.iri === undefined || symbol.kind === 'literal') return symbol.label;
  const nameRelations = new Set([graph.symbolByIri(RDFS_LABEL)?.id, graph.symbolByLabel('label')?.id]);
  let found: string | undefined;
  for (const position of graph.positionsFrom(id)) {
    if (!nameRelations.has(graph.columns.predicates[position]!)) continue;
    const value = graph.symbol(graph.columns.objects[position]!);
    if (value?.kind !== 'literal') continue;
    if (value.language === undefined || value.language.startsWith('en')) return value.label;
    found ??= value.label;
  }
  return found ?? symbol.label;
}

/** An answer with its proof's facts in labels, for the UI and the CLI. */
export function answerViewOf(graph: KnowledgeGraph, answer: Answer): AnswerView {
  const label = (id: number) => displayName(graph, id);
  const { proof, ...rest } = answer;
  return {
    ...rest,
    ...(proof
      ? {
          proof: proof.map(([subject, predicate, object]) => ({
            subject: label(subject),
            predicate: label(predicate),
            object: label(object),
          })),
        }
      : {}),
  };
}

/** An answer as a person reads it: the list with labels, yes or no with its proof, the number, or why not. */
export function answerText(graph: KnowledgeGraph, answer: Answer, options: { limit?: number } = {}): string {
  return answerViewText(answerViewOf(graph, answer), options.limit);
}

/** {@link answerText} of an answer already in labels; at most `limit` entities are named. */
export function answerViewText(answer: AnswerView, limit = Infinity): string {
  const fact = (proofFact: { subject: string; predicate: string; object: string }) =>
    `${proofFact.subject} ${proofFact.predicate} ${proofFact.object}`;
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
