import { z } from 'zod';
import { artifactSchema } from '#core/records/artifact.ts';
import { modelUseSchema } from '#core/records/model-use.ts';
import { problemSchema } from '#core/result.ts';
import { sessionIdSchema } from '#core/names.ts';
import { operationIdSchema } from './operation.ts';

/** An artifact as the Goals screen and the CLI list it: what it is and where it came from, not its bytes. */
export const artifactViewSchema = artifactSchema.omit({ sessionId: true }).extend({ id: z.number().int() });
export type ArtifactView = z.infer<typeof artifactViewSchema>;

/** Bytes that cross the worker boundary (structured clone keeps a Uint8Array). */
const bytesSchema = z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'expected bytes');

/** The grammars synthesis can use: the built-in ones and the psyche's custom grammar. */
export const grammarChoiceSchema = z.string().min(1).max(200);

/** What the agent gives the user: a goal's findings written up, and the artifacts its tools made. */
export const writeUpContract = {
  /** A goal's findings written in a grammar (the persona's preference when none is named). */
  synthesize: {
    args: z.object({ sessionId: sessionIdSchema, goalId: z.number().int(), grammar: grammarChoiceSchema.optional() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), grammar: z.string(), text: z.string(), grammars: z.array(z.string()) }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** A goal's findings written by the bound model in the worn persona's voice (cancellable); the findings themselves come beneath, numbered as cited. */
  synthesizeInVoice: {
    args: z.object({ sessionId: sessionIdSchema, goalId: z.number().int(), operationId: operationIdSchema }),
    result: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        persona: z.string(),
        text: z.string(),
        findings: z.array(z.string()),
        cites: z.array(z.number().int()),
        model: modelUseSchema,
      }),
      z.object({
        ok: z.literal(false),
        reason: z.enum(['not-found', 'no-model', 'unavailable', 'bottleneck', 'cancelled']),
        problems: z.array(problemSchema),
        model: modelUseSchema.optional(),
      }),
    ]),
  },
  /** The artifacts tools gave the user (a goal's notes, images, files), of one goal or the whole session, newest first; without their bytes. */
  artifactList: {
    args: z.object({ sessionId: sessionIdSchema, goalId: z.number().int().optional() }),
    result: z.object({ artifacts: z.array(artifactViewSchema) }),
  },
  /** One artifact with its bytes, to preview or save. */
  artifactRead: {
    args: z.object({ sessionId: sessionIdSchema, id: z.number().int() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), artifact: artifactViewSchema, bytes: bytesSchema }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
} as const;
