import type { AgentServiceImplementation } from '#core/api.ts';
import type { ServiceContext } from './service-context.ts';
import { answerReading, answerViewOf } from '#core/questions/answer.ts';
import { readQuestion } from '#core/questions/reading.ts';

/** Questions in plain words, read and answered by the session's graph (see ../questions/); nothing is stored. */
export function readingService(context: ServiceContext): Pick<AgentServiceImplementation, 'questionRead' | 'questionAsk'> {
  const { graphOf } = context;
  return {
    async questionRead({ sessionId, question }) {
      const reading = readQuestion(await graphOf(sessionId), question);
      return reading.ok ? { ok: true, reading: reading.value } : { ok: false, problems: reading.error };
    },

    async questionAsk({ sessionId, question }) {
      const graph = await graphOf(sessionId);
      const reading = readQuestion(graph, question);
      if (!reading.ok) return { ok: false, problems: reading.error };
      return { ok: true, reading: reading.value, answer: answerViewOf(graph, answerReading(graph, reading.value)) };
    },
  };
}
