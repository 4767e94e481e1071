import { z } from 'zod';
import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { LlmProvider } from '#core/llm/provider.ts';
import type { UsageBudget } from '#core/llm/usage-budget.ts';
import type { Result } from '#core/result.ts';
import type { Reading } from './reading-schema.ts';
import { type Answer, answerSchema } from '#core/records/answer.ts';
import type { ChosenSymbol, SymbolChoice } from '#core/records/goal.ts';

/**
 * The shape of an answer, which goals keep and the UI shows; apart from the code that reads and
 * answers (loaded on first use), and from the reading's shape (reading-schema.ts), so that the
 * first visit carries only this.
 */

/** An answer as the UI and CLI show it: its proof as labels. */
export const answerViewSchema = answerSchema.extend({
  proof: z.array(z.object({ subject: z.string(), predicate: z.string(), object: z.string() })).optional(),
});
export type AnswerView = z.infer<typeof answerViewSchema>;

/** What the agent and the service use of the reader, loaded on first use (load-question-answering.ts). */
export type QuestionAnswering = {
  /** A question's reading; `chosen` are the symbols the user chose for ambiguous words (see chosen-symbols.ts). */
  read: (graph: KnowledgeGraph, question: string, chosen?: readonly ChosenSymbol[]) => Result<Reading>;
  /** The entities a question's reading placed its words on. */
  symbolsOf: (graph: KnowledgeGraph, question: string, chosen?: readonly ChosenSymbol[]) => number[];
  /** The graph's answer to a question; one it cannot read is answered none. */
  answerOf: (graph: KnowledgeGraph, question: string, chosen?: readonly ChosenSymbol[]) => Answer;
  answerReading: (graph: KnowledgeGraph, reading: Reading) => Answer;
  /** With a model bound: the model's typed query, checked by the graph, else the words' reading (see model-reading.ts). */
  readWithModel: (
    graph: KnowledgeGraph,
    question: string,
    provider: LlmProvider,
    options?: { budget?: UsageBudget; signal?: AbortSignal; chosen?: readonly ChosenSymbol[] },
  ) => Promise<Result<Reading>>;
  /** The symbols chosen for a question's words, by id, name or IRI, checked against the graph. */
  chosenSymbolsOf: (
    graph: KnowledgeGraph,
    question: string,
    choices: readonly SymbolChoice[],
  ) => Result<ChosenSymbol[]>;
};
