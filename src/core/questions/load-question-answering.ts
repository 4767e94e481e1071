import type { QuestionAnswering } from './answer-schema.ts';

/**
 * Loads the reader and the answerer on first use: a dynamic import, so its chunk
 * (question-answering-*.js) is not part of the app's first visit; the service worker caches it
 * the first time it is fetched.
 */
export async function loadQuestionAnswering(): Promise<QuestionAnswering> {
  return (await import('./question-answering.ts')).questionAnswering;
}
