import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { LlmProvider } from '#core/llm/provider.ts';
import { structuredCall } from '#core/llm/structured-call.ts';
import type { UsageBudget } from '#core/llm/usage-budget.ts';
import type { ChosenSymbol } from '#core/records/goal.ts';
import type { Result } from '#core/result.ts';
import { displayName } from './answer-view.ts';
import { describeQuery, readQuestion } from './reading.ts';
import { type Reading, type TypedQuery, typedQuerySchema } from './reading-schema.ts';
import { queryProblems } from './typed-query.ts';
import { vocabularyOf } from './vocabulary.ts';

/** The most tokens a model's reading may take: a typed query of eight patterns is a few hundred. */
const MAX_READING_TOKENS = 512;

/** How many relations the model is shown besides those the question's words matched. */
const MAX_OTHER_RELATIONS = 40;

/**
 * With a model bound, the model reads the question and the graph decides: the model is asked for
 * the same typed query the words give (over symbol ids), shown the candidates the label index
 * found for the question's words and the graph's relations. Every symbol it names must exist and
 * every pattern must hold together, else the problems go back to it (the contract's bounded
 * retries); a reading still refused falls back to the words' reading, which says so. Bad input is
 * refused before any model is asked.
 */
export async function readWithModel(
  graph: KnowledgeGraph,
  question: string,
  provider: LlmProvider,
  options: { budget?: UsageBudget; signal?: AbortSignal; retries?: number; chosen?: readonly ChosenSymbol[] } = {},
): Promise<Result<Reading>> {
  const byWords = readQuestion(graph, question, options.chosen);
  if (!byWords.ok) return byWords;
  const checked = typedQuerySchema.superRefine((query, context) => {
    for (const problem of queryProblems(graph, query)) context.addIssue({ code: 'custom', message: problem });
  });
  const outcome = await structuredCall(provider, checked, {
    name: 'typed_query',
    system:
      'You turn a question into a query over a knowledge graph. Use only the symbol ids listed. A pattern is subject, predicate, object; ' +
      'a term is {"variable": "x"} or {"symbol": id}; "chain": true follows the predicate any number of times (is-a chains). ' +
      'Forms: list, count, yes-no, describe (the classes of a thing), common (classes two things share); "find" names the variable asked for.',
    prompt: `${candidatesText(graph, byWords.value)}\n\nQuestion: ${question}`,
    retries: options.retries ?? 2,
    maxTokens: MAX_READING_TOKENS,
    ...(options.budget ? { budget: options.budget } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!outcome.ok)
    return {
      ok: true,
      value: {
        ...byWords.value,
        fallback: `the model's reading was refused (${outcome.bottleneck.detail}); read from the words instead`,
      },
    };
  return { ok: true, value: readingOf(graph, byWords.value, outcome.value) };
}

/** The model's query as a reading, with the words' matches kept for the user to see. */
function readingOf(graph: KnowledgeGraph, byWords: Reading, query: TypedQuery): Reading {
  const { reason: _reason, choices: _choices, ...rest } = byWords;
  return { ...rest, query, text: describeQuery(graph, query), unplaced: [], readBy: 'model' };
}

/** The symbols the model may use: those the question's words matched, the relations of the graph, and its is-a relations. */
function candidatesText(graph: KnowledgeGraph, byWords: Reading): string {
  const vocabulary = vocabularyOf(graph);
  const entities = new Map<number, string>();
  const relations = new Map<number, string>();
  for (const match of byWords.matched)
    for (const symbol of match.symbols)
      (graph.symbol(symbol.symbol)?.kind === 'relation' ? relations : entities).set(
        symbol.symbol,
        `${symbol.label} (the question's "${match.words}")`,
      );
  for (const id of vocabulary.classRelations) relations.set(id, `${displayName(graph, id)} (is a)`);
  for (const ids of vocabulary.relations.values()) {
    for (const id of ids)
      if (
        relations.size < byWords.matched.length + MAX_OTHER_RELATIONS &&
        !relations.has(id) &&
        !vocabulary.nameRelations.has(id)
      )
        relations.set(id, displayName(graph, id));
  }
  const lines = (map: Map<number, string>) => [...map].map(([id, label]) => `  ${id}: ${label}`).join('\n');
  return `Things:\n${lines(entities) || '  (none matched)'}\nRelations:\n${lines(relations)}`;
}
