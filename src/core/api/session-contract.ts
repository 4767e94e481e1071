import { z } from 'zod';
import { nameSchema, sessionIdSchema } from '#core/names.ts';
import { problemSchema } from '#core/result.ts';

/** A session as the Sessions screen lists it. */
export const sessionViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  /** Its last committed cycle. */
  cycle: z.number().int(),
  goals: z.object({ total: z.number().int(), open: z.number().int() }),
  /** The catalog persona it wears. */
  persona: z.string().optional(),
  /** The version of its psyche (0: the default, never changed). */
  psycheVersion: z.number().int(),
  /** The model its latest model-backed cycle used, as `provider model`. */
  model: z.string().optional(),
  /** What it takes in storage, roughly: its graph's chunks and the JSON of its other rows. */
  sizeBytes: z.number().int(),
  isActive: z.boolean(),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

/** What an import would bring, read from the file before anything is written. */
export const sessionImportPreviewSchema = z.object({
  id: z.string(),
  name: z.string(),
  cycle: z.number().int(),
  goals: z.number().int(),
  triples: z.number().int(),
  persona: z.string().optional(),
  /** The format version the file was written in (older ones are migrated). */
  fileVersion: z.number().int(),
  /** A session with this id is on this device already: import it as a copy, or replace it. */
  exists: z.boolean(),
});
export type SessionImportPreview = z.infer<typeof sessionImportPreviewSchema>;

const sessionId = sessionIdSchema;
const sessionName = nameSchema('session');
const bytesSchema = z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'expected bytes');
const failure = z.object({
  ok: z.literal(false),
  reason: z.enum(['invalid', 'not-found', 'read-only', 'busy', 'exists', 'storage-full']),
  problems: z.array(problemSchema),
});
const changed = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), session: value }), failure]);

/** Sessions (DESIGN section 11): listed, made, renamed, copied, deleted, switched between, exported and imported as snapshot files. */
export const sessionContract = {
  /** Every session, the most recently changed first. */
  sessionList: { args: z.object({}), result: z.object({ sessions: z.array(sessionViewSchema) }) },
  /**
   * A new session, not yet the active one: with the starter graph (in the app) or with an empty
   * graph (to import the user's own file into, with kgImport).
   */
  sessionCreate: {
    args: z.object({ name: sessionName, start: z.enum(['starter-graph', 'empty']).default('starter-graph') }),
    result: changed(sessionViewSchema),
  },
  sessionRename: { args: z.object({ sessionId, name: sessionName }), result: changed(sessionViewSchema) },
  /** A copy of a session, whole, under a new name; the original is untouched. */
  sessionDuplicate: { args: z.object({ sessionId, name: sessionName }), result: changed(sessionViewSchema) },
  /** Deletes a session and all of it; deleting the active one makes the most recent other active (a new empty one when none is left). */
  sessionDelete: {
    args: z.object({ sessionId }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), activeId: z.string() }), failure]),
  },
  /** Makes a session the active one (the app then opens it). */
  sessionSwitch: { args: z.object({ sessionId }), result: changed(sessionViewSchema) },
  /** A session as a snapshot file (`.anima.json`, or gzipped `.anima.json.gz`). */
  sessionExport: {
    args: z.object({ sessionId, gzip: z.boolean().default(false) }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), fileName: z.string(), mediaType: z.string(), bytes: bytesSchema }),
      failure,
    ]),
  },
  /** Reads a snapshot file completely and says what importing it would bring; writes nothing. */
  sessionImportCheck: {
    args: z.object({ bytes: bytesSchema }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), preview: sessionImportPreviewSchema }),
      failure,
    ]),
  },
  /**
   * Imports a snapshot file in one transaction. A session whose id is not on this device keeps it;
   * one that is needs `as`: 'copy' (a new id, and `name`) or 'replace' (the stored one, whole).
   * The persona it wore is worn again when the catalog has it (or can take it); warnings say when not.
   */
  sessionImport: {
    args: z.object({ bytes: bytesSchema, as: z.enum(['copy', 'replace']).optional(), name: sessionName.optional() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), session: sessionViewSchema, warnings: z.array(problemSchema) }),
      failure,
    ]),
  },
  /** Checks a stored session is whole (see store/session-check.ts): the problems found, none when it is. */
  sessionCheck: { args: z.object({ sessionId }), result: z.object({ problems: z.array(problemSchema) }) },
} as const;
