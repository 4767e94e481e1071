import type { AgentServiceImplementation } from '#core/api.ts';
import type { ServiceContext } from './service-context.ts';
import { answerViewOf } from '#core/questions/answer-view.ts';
import { loadQuestionAnswering } from '#core/questions/load-question-answering.ts';
import { bindRunModel } from './inference-service.ts';

/** Questions in plain words, read and answered by the session's graph (see ../questions/); nothing is stored. */
export function readingService(
  context: ServiceContext,
): Pick<AgentServiceImplementation, 'questionRead' | 'questionAsk' | 'questionExamples'> {
  const { graphOf } = context;
  return {
    async questionRead({ sessionId, question, chosenSymbols }) {
      const { read, chosenSymbolsOf } = await loadQuestionAnswering();
      const graph = await graphOf(sessionId);
      const chosen = chosenSymbolsOf(graph, question, chosenSymbols);
      if (!chosen.ok) return { ok: false, problems: chosen.error };
      const reading = read(graph, question, chosen.value);
      return reading.ok ? { ok: true, reading: reading.value } : { ok: false, problems: reading.error };
    },

    async questionAsk({ sessionId, question, chosenSymbols, inference }) {
      const { read, answerReading, chosenSymbolsOf, readWithModel } = await loadQuestionAnswering();
      const graph = await graphOf(sessionId);
      const chosen = chosenSymbolsOf(graph, question, chosenSymbols);
      if (!chosen.ok) return { ok: false, problems: chosen.error };
      const model = inference
        ? await bindRunModel(context, sessionId, inference, new AbortController().signal)
        : undefined;
      const reading = model?.access
        ? await readWithModel(graph, question, model.access.provider, { budget: model.budget, chosen: chosen.value })
        : read(graph, question, chosen.value);
      if (!reading.ok) return { ok: false, problems: reading.error };
      return {
        ok: true,
        reading: reading.value,
        answer: answerViewOf(graph, answerReading(graph, reading.value)),
        ...(model?.unavailable ? { unavailable: model.unavailable } : {}),
      };
    },

    async questionExamples({ sessionId }) {
      const { exampleQuestions } = await import('#core/questions/example-questions.ts');
      return { questions: exampleQuestions(await graphOf(sessionId)) };
    },
  };
}
