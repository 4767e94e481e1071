import { z } from 'zod';
import { sessionIdSchema } from '#core/names.ts';
import { problemSchema } from '#core/result.ts';
import { toolServerViewSchema } from '#core/records/tool-server.ts';

/** A key given for one command (the CLI keeps none between commands), or to store (the app). */
const keySchema = z.string().max(4000, 'a key has at most 4,000 characters');
const nameSchema = z.string().min(1).max(200);
const refusedSchema = z.object({
  ok: z.literal(false),
  reason: z.enum(['invalid', 'not-found', 'unreachable', 'read-only', 'not-granted', 'vetoed', 'needs-approval']),
  problems: z.array(problemSchema),
});

/** What a tool call returned besides text: an image or audio (its kind, type and size), or a resource it named. */
const mediaViewSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum(['image', 'audio']), mimeType: z.string(), bytes: z.number().int() }),
  z.object({ kind: z.literal('resource'), uri: z.string() }),
]);

/** The MCP servers of a session (Streamable HTTP): the tools they lend, and the ones granted to the agent. */
export const toolServerContract = {
  /** The session's servers as last listed; `refresh` asks each again (the failures are said, the others updated). */
  toolServerList: {
    args: z.object({
      sessionId: sessionIdSchema,
      refresh: z.boolean().default(false),
      /** Keys for this call only, by server name. */
      keys: z.record(z.string(), keySchema).optional(),
    }),
    result: z.object({ servers: z.array(toolServerViewSchema), problems: z.array(problemSchema) }),
  },
  /**
   * Adds a server, or replaces the one of that name, once it answered with its tools (a server
   * that does not answer is not added); `key`: absent keeps the stored one, empty removes it.
   */
  toolServerSet: {
    args: z.object({ sessionId: sessionIdSchema, server: z.unknown(), key: keySchema.optional() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), server: toolServerViewSchema }),
      refusedSchema,
    ]),
  },
  /** Removes a server and forgets its key and grants. */
  toolServerRemove: {
    args: z.object({ sessionId: sessionIdSchema, name: nameSchema }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true) }), refusedSchema]),
  },
  /** Forgets the key kept for a server (its key header stays: a later command may give a key again); reaches no server. */
  toolServerKeyForget: {
    args: z.object({ sessionId: sessionIdSchema, name: nameSchema }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), server: toolServerViewSchema }),
      refusedSchema,
    ]),
  },
  /** Grants the agent one tool of a server for this session (or takes the grant back). */
  toolServerGrant: {
    args: z.object({ sessionId: sessionIdSchema, server: nameSchema, tool: nameSchema, isGranted: z.boolean() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), server: toolServerViewSchema }),
      refusedSchema,
    ]),
  },
  /**
   * Calls a granted tool by hand, the way the agent does: the input checked against the tool's
   * schema, the shadow's judgement (a hard veto refuses; a veto that asks, or a tool not marked
   * read-only, needs `isApproved`), the call kept as provenance (server, tool, input digest).
   */
  toolServerCall: {
    args: z.object({
      sessionId: sessionIdSchema,
      server: nameSchema,
      tool: nameSchema,
      input: z.unknown(),
      isApproved: z.boolean().default(false),
      key: keySchema.optional(),
    }),
    result: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        /** Whether the tool itself said it failed. */
        isError: z.boolean(),
        text: z.string(),
        media: z.array(mediaViewSchema),
        inputDigest: z.string(),
        provenanceId: z.number().int(),
      }),
      refusedSchema.extend({ provenanceId: z.number().int().optional() }),
    ]),
  },
} as const;
