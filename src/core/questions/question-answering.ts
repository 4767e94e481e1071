import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { answerReading } from './answer.ts';
import { readWithModel } from './model-reading.ts';
import { questionSymbols, readQuestion } from './reading.ts';
import type { QuestionAnswering } from './answer-schema.ts';
import type { Answer } from '#core/records/answer.ts';
import type { ChosenSymbol } from '#core/records/goal.ts';
import { chosenSymbolsOf } from './chosen-symbols.ts';

/**
 * The reader and the answerer as one module, which the worker loads the first time a goal asks a
 * question (see load-question-answering.ts): they stay out of the first visit.
 */
export const questionAnswering: QuestionAnswering = {
  read: readQuestion,
  symbolsOf: questionSymbols,
  answerOf(graph: KnowledgeGraph, question: string, chosen: readonly ChosenSymbol[] = []): Answer {
    const reading = readQuestion(graph, question, chosen);
    if (!reading.ok)
      return {
        kind: 'none',
        entities: [],
        reading: question,
        reason: reading.error.map((problem) => problem.message).join('; '),
      };
    return answerReading(graph, reading.value);
  },
  answerReading,
  readWithModel,
  chosenSymbolsOf,
};
