import { z } from 'zod';
import { answerViewSchema } from '#core/questions/answer-schema.ts';
import { type Reading } from '#core/questions/reading-schema.ts';
import { symbolChoiceSchema } from '#core/records/goal.ts';
import { inferenceSettingsSchema } from '#core/llm/inference-settings.ts';
import { modelUnavailableSchema } from '#core/llm/provider.ts';
import { problemSchema } from '#core/result.ts';
import { sessionIdSchema } from '#core/names.ts';

/** A reading as the API carries it: its plain words checked, the rest typed (see questionRead). */
const readingShape = z.custom<Reading>(
  (value) => typeof value === 'object' && value !== null && typeof (value as { text?: unknown }).text === 'string',
);

/** Questions in plain words, read and answered on the graph. */
export const questionContract = {
  /** How a question would be read on the session's graph, without answering it: the typed query, the symbols matched, the words not placed. */
  // The reading's own schema (reading-schema.ts) loads with the reader, not with the app: here it is checked for its plain words only.
  questionRead: {
    // Longer than a goal may be, so that a long question is told its length in a sentence rather than refused by the contract.
    args: z.object({
      sessionId: sessionIdSchema,
      question: z.string().max(1_000_000),
      /** Symbols chosen for ambiguous words of the question, taken over the reader's own guess (checked: a wrong one is refused). */
      chosenSymbols: z.array(symbolChoiceSchema).max(1_000).default([]),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), reading: readingShape }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** A question read (by its words, or by the model given) and answered by the session's graph (nothing is stored). */
  questionAsk: {
    args: z.object({
      sessionId: sessionIdSchema,
      question: z.string().max(1_000_000),
      chosenSymbols: z.array(symbolChoiceSchema).max(1_000).default([]),
      /** A model to read the question (the CLI's --provider): it gives the typed query, the graph checks and answers it. */
      inference: inferenceSettingsSchema.optional(),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        reading: readingShape,
        answer: answerViewSchema,
        /** Why the model given could not read it (not reachable...): the words read it instead. */
        unavailable: modelUnavailableSchema.optional(),
      }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** A few questions the session's graph answers, to try on a click (the start screen's examples); none for an empty graph. */
  questionExamples: {
    args: z.object({ sessionId: sessionIdSchema }),
    result: z.object({ questions: z.array(z.string()) }),
  },
} as const;
