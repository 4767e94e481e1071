import { z } from 'zod';
import { psycheSchema } from '#core/records/psyche.ts';
import { problemSchema } from '#core/result.ts';
import { sessionIdSchema } from '#core/names.ts';

/** A stored psyche version, whole. */
export const psycheVersionViewSchema = z.object({
  version: z.number().int().nonnegative(),
  psyche: psycheSchema,
  cycle: z.number().int(),
  reason: z.string(),
  createdAt: z.number(),
});
export type PsycheVersionView = z.infer<typeof psycheVersionViewSchema>;
export { psycheSchema };
export type { Psyche } from '#core/records/psyche.ts';

/** A version in the psyche's history: what the chart and the list show. */
export const psycheHistoryEntrySchema = z.object({
  /** 0 for the default psyche of a session that never stored one. */
  version: z.number().int().nonnegative(),
  cycle: z.number().int(),
  reason: z.string(),
  createdAt: z.number(),
  archetypes: psycheSchema.shape.archetypes,
  individuationLevel: z.number(),
  shadowEncounters: z.number().int(),
  dominantArchetype: z.string(),
});
export type PsycheHistoryEntry = z.infer<typeof psycheHistoryEntrySchema>;

/** What reading a psyche.toml found: the psyche it would give, or the problems; warnings either way. */
export const psycheCheckSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), psyche: psycheSchema, warnings: z.array(problemSchema) }),
  z.object({ ok: z.literal(false), problems: z.array(problemSchema), warnings: z.array(problemSchema) }),
]);

export const psycheChangeSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), current: psycheVersionViewSchema, warnings: z.array(problemSchema) }),
  z.object({
    ok: z.literal(false),
    reason: z.enum(['invalid', 'read-only', 'not-found']),
    problems: z.array(problemSchema),
    warnings: z.array(problemSchema),
  }),
]);

/** The psyche: its current version, history, checks, imports and exports. */
export const psycheContract = {
  /** The session's current psyche (the default one until something changed it). */
  psycheGet: { args: z.object({ sessionId: sessionIdSchema }), result: psycheVersionViewSchema },
  /** Every stored version, oldest first, for the history chart and list. */
  psycheHistory: {
    args: z.object({ sessionId: sessionIdSchema }),
    result: z.object({ versions: z.array(psycheHistoryEntrySchema) }),
  },
  /** Validates a psyche.toml without changing anything (sections it lacks come from the current psyche). */
  psycheCheck: {
    args: z.object({ sessionId: sessionIdSchema, toml: z.string().max(1_000_000) }),
    result: psycheCheckSchema,
  },
  /** Imports a psyche.toml as a new version; all or nothing. */
  psycheImport: {
    args: z.object({
      sessionId: sessionIdSchema,
      toml: z.string().max(1_000_000),
      fileName: z.string().max(500).optional(),
    }),
    result: psycheChangeSchema,
  },
  /** Saves an edited psyche (the form editor) as a new version, after validation. */
  psycheSave: { args: z.object({ sessionId: sessionIdSchema, psyche: z.unknown() }), result: psycheChangeSchema },
  /** Makes an earlier version current again, as a new version. */
  psycheRestore: {
    args: z.object({ sessionId: sessionIdSchema, version: z.number().int().positive() }),
    result: psycheChangeSchema,
  },
  /** The current psyche as psyche.toml text. */
  psycheExport: {
    args: z.object({ sessionId: sessionIdSchema }),
    result: z.object({ fileName: z.string(), mediaType: z.string(), text: z.string() }),
  },
} as const;
