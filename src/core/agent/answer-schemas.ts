import type { z } from 'zod';
import { voicedAnswerSchema } from '#core/synthesis/voiced-findings.ts';
import { factsAnswerSchema } from '#core/tools/model-facts.ts';
import { STEP_ENVELOPE } from '#core/tools/model-steps.ts';
import { decodingSchemaOf } from '#core/llm/decoding-schema.ts';
import { CHECK_SCHEMA } from '#core/llm/endpoint-check.ts';

/**
 * Every schema the app asks a model to answer in, named for what it answers: a loaded engine
 * prepares their grammars before its first question, and a test compiles each with WebLLM's own
 * grammar engine. (A write-up's schema differs only in what zod checks after decoding, so one
 * stands for all.)
 */
export const ANSWER_SCHEMAS: readonly { name: string; schema: z.ZodType }[] = [
  { name: 'step', schema: STEP_ENVELOPE },
  { name: 'facts', schema: factsAnswerSchema },
  { name: 'write_up', schema: voicedAnswerSchema(0) },
  { name: 'check', schema: CHECK_SCHEMA },
];

/** The answer schemas as requests carry them to an engine (see `decodingSchemaOf`), for an engine to prepare their grammars. */
export function answerDecodingSchemas(): string[] {
  return ANSWER_SCHEMAS.map(({ schema }) => JSON.stringify(decodingSchemaOf(schema)));
}
