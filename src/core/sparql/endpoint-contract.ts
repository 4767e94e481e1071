import { z } from 'zod';
import { sessionIdSchema } from '#core/names.ts';
import { problemSchema } from '#core/result.ts';
import { sparqlEndpointViewSchema } from '#core/records/sparql-endpoint.ts';

const operationIdSchema = z.string().min(1).max(100);
/** A key given for one command (the CLI keeps none between commands), or to store (the app). */
const keySchema = z.string().max(4000, 'a key has at most 4,000 characters');
const failureSchema = z.object({
  ok: z.literal(false),
  reason: z.enum([
    'invalid',
    'not-found',
    'offline',
    'refused',
    'timeout',
    'malformed',
    'too-large',
    'cancelled',
    'read-only',
    'storage-full',
  ]),
  problems: z.array(problemSchema),
});

/** The SPARQL endpoints of a session: the agent reaches these and no others. */
export const endpointContract = {
  endpointList: {
    args: z.object({ sessionId: sessionIdSchema }),
    result: z.object({ endpoints: z.array(sparqlEndpointViewSchema) }),
  },
  /** Adds an endpoint, or replaces the one of that name; `key`: absent keeps the stored one, empty removes it. */
  endpointSet: {
    args: z.object({ sessionId: sessionIdSchema, endpoint: z.unknown(), key: keySchema.optional() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), endpoint: sparqlEndpointViewSchema }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** Removes an endpoint and forgets its key. */
  endpointRemove: {
    args: z.object({ sessionId: sessionIdSchema, name: z.string().min(1).max(200) }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true) }),
      z.object({ ok: z.literal(false), problems: z.array(problemSchema) }),
    ]),
  },
  /** One `ASK {}` and the time it took. */
  endpointCheck: {
    args: z.object({ sessionId: sessionIdSchema, name: z.string().min(1).max(200), key: keySchema.optional() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), ms: z.number() }),
      failureSchema.extend({ ms: z.number().optional() }),
    ]),
  },
  /**
   * Brings in the triples around an IRI (to a depth) or those a query gives, all or nothing, at
   * the endpoint's trust, with the queries as provenance; `dryRun` counts them and writes nothing.
   * Cancellable with `cancel(operationId)` until it writes.
   */
  kgPull: {
    args: z.object({
      sessionId: sessionIdSchema,
      operationId: operationIdSchema,
      name: z.string().min(1).max(200),
      source: z.discriminatedUnion('kind', [
        z.object({
          kind: z.literal('around'),
          iri: z.string().min(1).max(2000),
          depth: z.number().int().min(1, 'a depth of 1 or more').max(5, 'a depth of 5 or less').default(1),
        }),
        z.object({
          kind: z.literal('query'),
          query: z.string().min(1).max(100_000, 'a query has at most 100,000 characters'),
        }),
      ]),
      dryRun: z.boolean().default(false),
      key: keySchema.optional(),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        triples: z.number().int(),
        added: z.number().int(),
        updated: z.number().int(),
        queries: z.number().int(),
        ms: z.number(),
        isDryRun: z.boolean(),
      }),
      failureSchema,
    ]),
    progress: z.object({ phase: z.enum(['asking', 'writing']), triples: z.number().int(), round: z.number().int() }),
  },
} as const;
