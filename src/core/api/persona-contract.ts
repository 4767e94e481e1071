import { z } from 'zod';
import { problemSchema } from '#core/result.ts';
import { sessionIdSchema } from '#core/names.ts';
import {
  arcFieldsSchema,
  arcStageFieldsSchema,
  catalogNameSchema,
  guardrailFieldsSchema,
  guardrailRecordSchema,
  partFieldsSchema,
  partLinkSchema,
  partRecordSchema,
  partTypeSchema,
  personaFieldsSchema,
  skillFieldsSchema,
  skillRecordSchema,
  traitFieldsSchema,
  traitRecordSchema,
  traitTypeSchema,
} from '#core/records/persona-catalog.ts';

/**
 * The persona catalog's part of the AgentService contract (seed 003's operations): personas,
 * the part / trait / skill / guardrail libraries, links, character arcs, assembly, compile,
 * manifest, import and export, and the persona a session wears.
 */

const failure = <const R extends readonly [string, ...string[]]>(reasons: R) =>
  z.object({ ok: z.literal(false), reason: z.enum(reasons), problems: z.array(problemSchema) });
/** Why a catalog change was refused: bad input, a name that is not there, one already taken, an item still in use, this tab cannot write, or storage is full. */
const CHANGE_REASONS = ['invalid', 'not-found', 'name-taken', 'in-use', 'read-only', 'storage-full'] as const;
const changeFailure = failure([...CHANGE_REASONS]);
const changed = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), item: value }), changeFailure]);
const done = z.discriminatedUnion('ok', [z.object({ ok: z.literal(true) }), changeFailure]);
const name = catalogNameSchema;
const tagsFilter = z.array(z.string().max(60)).max(20).optional();
const searchText = z.string().max(200).optional();

/** A library item as lists show it: its fields and the personas that link it. */
const usedBy = { usedBy: z.array(z.string()) };
export const partViewSchema = partRecordSchema.omit({ id: true }).extend(usedBy);
export type PartView = z.infer<typeof partViewSchema>;
export const traitViewSchema = traitRecordSchema.omit({ id: true }).extend(usedBy);
export type TraitView = z.infer<typeof traitViewSchema>;
export const skillViewSchema = skillRecordSchema.omit({ id: true }).extend(usedBy);
export type SkillView = z.infer<typeof skillViewSchema>;
export const guardrailViewSchema = guardrailRecordSchema.omit({ id: true }).extend(usedBy);
export type GuardrailView = z.infer<typeof guardrailViewSchema>;

/** A persona as the catalog lists it. */
export const personaSummarySchema = z.object({
  name: z.string(),
  description: z.string(),
  summary: z.string(),
  tags: z.array(z.string()),
  parts: z.number().int(),
  traits: z.number().int(),
  skills: z.number().int(),
  guardrails: z.number().int(),
  arc: z.object({ name: z.string(), stage: z.string() }).optional(),
  compiledAt: z.number().optional(),
  updatedAt: z.number(),
  /** Sessions that wear it. */
  wornBy: z.array(z.string()),
});
export type PersonaSummary = z.infer<typeof personaSummarySchema>;

/** A persona's whole structure, as the editor shows it. */
export const personaDefinitionViewSchema = z.object({
  persona: personaFieldsSchema.extend({
    createdAt: z.number(),
    updatedAt: z.number(),
    compiledAt: z.number().optional(),
  }),
  parts: z.array(
    z.object({
      name: z.string(),
      type: partTypeSchema,
      summary: z.string(),
      priority: z.number().int(),
      pinned: z.boolean(),
    }),
  ),
  traits: z.array(z.object({ name: z.string(), type: traitTypeSchema, description: z.string() })),
  skills: z.array(z.object({ name: z.string(), description: z.string() })),
  guardrails: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      severity: z.number(),
      triggers: z.array(z.string()),
      requireApproval: z.boolean(),
    }),
  ),
  arc: z.object({ name: z.string(), stages: z.array(z.string()), currentStage: z.string() }).optional(),
});
export type PersonaDefinitionView = z.infer<typeof personaDefinitionViewSchema>;

/** An assembled persona: the prompt, its token estimate, what went in and what was left out. */
export const assembledPersonaSchema = z.object({
  name: z.string(),
  view: z.enum(['summary', 'detail']),
  text: z.string(),
  tokens: z.number().int(),
  parts: z.array(
    z.object({
      name: z.string(),
      type: partTypeSchema,
      source: z.enum(['override', 'stage', 'persona']),
      priority: z.number().int(),
      pinned: z.boolean(),
      view: z.enum(['summary', 'detail']),
      text: z.string(),
    }),
  ),
  traits: z.array(z.string()),
  skills: z.array(z.string()),
  guardrails: z.array(z.string()),
  leftOut: z.array(
    z.object({ kind: z.enum(['part', 'trait', 'skill']), name: z.string(), because: z.enum(['limit', 'budget']) }),
  ),
  stage: z.object({ arc: z.string(), stage: z.string() }).optional(),
});
export type AssembledPersonaView = z.infer<typeof assembledPersonaSchema>;

/** What compile stored, and whether it still matches the persona as it is now. */
export const compiledPersonaSchema = z.object({
  summary: z.string(),
  detail: z.string(),
  compiledAt: z.number(),
  summaryTokens: z.number().int(),
  detailTokens: z.number().int(),
  isCurrent: z.boolean(),
});

/** Structure only, with token estimates, and the calls that load content (seed 003's manifest). */
export const personaManifestSchema = z.object({
  name: z.string(),
  description: z.string(),
  parts: z.array(
    z.object({
      name: z.string(),
      type: partTypeSchema,
      description: z.string(),
      summaryTokens: z.number().int(),
      detailTokens: z.number().int(),
      pinned: z.boolean(),
      priority: z.number().int(),
    }),
  ),
  traits: z.array(
    z.object({ name: z.string(), type: traitTypeSchema, description: z.string(), tokens: z.number().int() }),
  ),
  skills: z.array(z.object({ name: z.string(), tokens: z.number().int() })),
  guardrails: z.array(z.object({ name: z.string(), tokens: z.number().int() })),
  arc: z.object({ name: z.string(), stage: z.string() }).optional(),
  tokens: z.object({ summary: z.number().int(), detail: z.number().int(), compiled: z.number().int().optional() }),
  onDemand: z.array(z.object({ call: z.string(), loads: z.string() })),
});
export type PersonaManifest = z.infer<typeof personaManifestSchema>;

export const arcViewSchema = arcFieldsSchema.extend({
  createdAt: z.number(),
  updatedAt: z.number(),
  stages: z.array(
    arcStageFieldsSchema.extend({
      position: z.number().int(),
      parts: z.array(z.object({ name: z.string(), type: partTypeSchema })),
    }),
  ),
  /** Personas on this arc, with their stage. */
  personas: z.array(z.object({ name: z.string(), stage: z.string() })),
});
export type ArcView = z.infer<typeof arcViewSchema>;

export const PERSONA_FILE_FORMATS = ['bundle', 'card-json', 'card-png'] as const;
export const personaFileFormatSchema = z.enum(PERSONA_FILE_FORMATS);

/** What an import would create: the persona and each item, new, the same as one already there (reused), or clashing with one. */
export const personaImportPreviewSchema = z.object({
  format: z.enum(['bundle', 'card-v1', 'card-v2', 'card-v3']),
  persona: personaFieldsSchema,
  items: z.array(
    z.object({
      kind: z.enum(['part', 'trait', 'skill', 'guardrail', 'arc']),
      name: z.string(),
      type: z.string().optional(),
      summary: z.string(),
      state: z.enum(['new', 'reused']),
    }),
  ),
  arc: z.object({ name: z.string(), stages: z.array(z.string()), currentStage: z.string() }).optional(),
  /** Card fields kept for export that Anima does not use (lorebooks, greetings, assets, extensions). */
  kept: z.array(z.string()),
  hasImage: z.boolean(),
});
export type PersonaImportPreview = z.infer<typeof personaImportPreviewSchema>;

/** The largest persona file imported: a bundle, a card's JSON or a card PNG. */
export const MAX_IMPORT_BYTES = 8 * 1024 * 1024;
/** Bytes that cross the worker boundary (structured clone keeps a Uint8Array). */
const bytesSchema = z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'expected bytes');
const importData = z.union([
  z.string().max(MAX_IMPORT_BYTES, 'the file is over 8 MB'),
  bytesSchema.refine((bytes) => bytes.byteLength <= MAX_IMPORT_BYTES, 'the file is over 8 MB'),
]);
const importArgs = z.object({ fileName: z.string().min(1).max(500), data: importData, asName: name.optional() });

const LIBRARY_VERBS = ['create', 'update', 'delete', 'list', 'get'] as const;
type LibraryVerb = (typeof LIBRARY_VERBS)[number];
/** A library's methods under their API names: `create` of `part` is `partCreate`. */
export type LibraryMethods<Kind extends string, Methods extends Record<LibraryVerb, unknown>> = {
  [Verb in LibraryVerb as `${Kind}${Capitalize<Verb>}`]: Methods[Verb];
};

/** Names a library's five methods as the API does, so the contract and the service map them in one place. */
export function libraryMethodsOf<Kind extends string, Methods extends Record<LibraryVerb, unknown>>(
  kind: Kind,
  methods: Methods,
): LibraryMethods<Kind, Methods> {
  return Object.fromEntries(
    LIBRARY_VERBS.map((verb) => [`${kind}${verb[0]!.toUpperCase()}${verb.slice(1)}`, methods[verb]]),
  ) as LibraryMethods<Kind, Methods>;
}

const library = <F extends z.ZodObject, V extends z.ZodType, T extends z.ZodType = z.ZodNever>(
  fields: F,
  view: V,
  typeFilter?: T,
) => ({
  create: { args: z.object({ fields: z.unknown() }), result: changed(view) },
  /** Changes the named item; a new name keeps every link. */
  update: { args: z.object({ name, changes: z.unknown() }), result: changed(view) },
  /** Deletes it; one still linked is refused unless `force` (which unlinks it everywhere). */
  delete: { args: z.object({ name, force: z.boolean().default(false) }), result: done },
  list: {
    args: z.object({ type: ((typeFilter ?? z.never()) as T).optional(), tags: tagsFilter, text: searchText }),
    result: z.object({ items: z.array(view) }),
  },
  get: {
    args: z.object({ name }),
    result: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), item: view }), failure(['not-found'])]),
  },
  fields,
});

const parts = library(partFieldsSchema, partViewSchema, partTypeSchema);
const traits = library(traitFieldsSchema, traitViewSchema, traitTypeSchema);
const skills = library(skillFieldsSchema, skillViewSchema);
const guardrails = library(guardrailFieldsSchema, guardrailViewSchema);

const linkKind = z.enum(['part', 'trait', 'skill', 'guardrail']);
const assemblyArgs = z.object({
  name,
  detail: z.boolean().default(false),
  /** Part type -> the name of a part of that type, used instead of the persona's parts of the type (nothing stored). */
  overrides: z.record(z.string(), name).default({}),
  types: z.array(partTypeSchema).max(16).optional(),
  limit: z.number().int().min(0).max(1000).optional(),
  budgetTokens: z.number().int().min(1).max(1_000_000).optional(),
});

export const personaContract = {
  personaCreate: { args: z.object({ fields: z.unknown() }), result: changed(personaSummarySchema) },
  personaUpdate: { args: z.object({ name, changes: z.unknown() }), result: changed(personaSummarySchema) },
  /** Deletes a persona and its links (its parts stay in the library); sessions wearing it wear none. */
  personaDelete: { args: z.object({ name }), result: done },
  personaList: {
    args: z.object({ tags: tagsFilter, text: searchText }),
    result: z.object({ personas: z.array(personaSummarySchema) }),
  },
  /** Assembles the persona's prompt (see assemble.ts): overrides > arc stage > own parts; views, filters, budget. */
  personaGet: {
    args: assemblyArgs,
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), assembled: assembledPersonaSchema, compiled: compiledPersonaSchema.optional() }),
      failure(['invalid', 'not-found', 'pinned-over-budget']),
    ]),
  },
  /** The persona's structure for the editor. */
  personaDefinition: {
    args: z.object({ name }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), definition: personaDefinitionViewSchema }),
      failure(['not-found']),
    ]),
  },
  /** Stores the compiled summary and detail (current parts and arc stage, no overrides) with the time. */
  personaCompile: {
    args: z.object({ name }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), compiled: compiledPersonaSchema }),
      changeFailure,
    ]),
  },
  personaManifest: {
    args: z.object({ name }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), manifest: personaManifestSchema }),
      failure(['not-found']),
    ]),
  },
  /** Links a library item to a persona (a part goes last, with its priority and pin). */
  personaLink: {
    args: z.object({ persona: name, kind: linkKind, name, link: partLinkSchema.optional() }),
    result: done,
  },
  personaUnlink: { args: z.object({ persona: name, kind: linkKind, name }), result: done },
  /** Sets the order (as listed), priority and pin of all the persona's parts at once: what dragging and pinning in the editor send. */
  personaArrangeParts: {
    args: z.object({ persona: name, parts: z.array(partLinkSchema.extend({ name })).max(1000) }),
    result: done,
  },

  ...libraryMethodsOf('part', parts),
  ...libraryMethodsOf('trait', traits),
  ...libraryMethodsOf('skill', skills),
  ...libraryMethodsOf('guardrail', guardrails),

  /** Creates an arc, optionally with its stages in order. */
  arcCreate: {
    args: z.object({ fields: z.unknown(), stages: z.array(z.unknown()).max(100).default([]) }),
    result: changed(arcViewSchema),
  },
  arcList: { args: z.object({}), result: z.object({ arcs: z.array(arcViewSchema) }) },
  arcGet: {
    args: z.object({ name }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), item: arcViewSchema }),
      failure(['not-found']),
    ]),
  },
  /** Deletes an arc that no persona is on. */
  arcDelete: { args: z.object({ name }), result: done },
  /** Adds a stage (at the end, or at `position`). */
  arcStageAdd: {
    args: z.object({ arc: name, fields: z.unknown(), position: z.number().int().min(0).optional() }),
    result: changed(arcViewSchema),
  },
  /** Removes a stage no persona is at. */
  arcStageRemove: { args: z.object({ arc: name, stage: name }), result: changed(arcViewSchema) },
  stagePartAdd: { args: z.object({ arc: name, stage: name, part: name }), result: changed(arcViewSchema) },
  stagePartRemove: { args: z.object({ arc: name, stage: name, part: name }), result: changed(arcViewSchema) },
  /** Puts a persona on an arc at a stage (the first when none is named); `arc: null` takes it off. */
  personaArcAssign: {
    args: z.object({ persona: name, arc: name.nullable(), stage: name.optional() }),
    result: changed(personaSummarySchema),
  },
  /** Moves the persona to its arc's next stage; at the last stage it is refused. */
  personaStageAdvance: { args: z.object({ persona: name }), result: changed(personaSummarySchema) },
  /** Moves it back to the first stage. */
  personaStageReset: { args: z.object({ persona: name }), result: changed(personaSummarySchema) },

  /** A persona as a file: an Anima bundle (JSON), or a character card (V3 JSON, or PNG with `ccv3` and `chara`). */
  personaExport: {
    args: z.object({ name, format: personaFileFormatSchema }),
    result: z.discriminatedUnion('ok', [
      z.object({
        ok: z.literal(true),
        fileName: z.string(),
        mediaType: z.string(),
        data: z.union([z.string(), bytesSchema]),
      }),
      failure(['not-found', 'too-large']),
    ]),
  },
  /** Reads a bundle or character card and says what importing it would create; changes nothing. */
  personaImportCheck: {
    args: importArgs,
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), preview: personaImportPreviewSchema }),
      failure([...CHANGE_REASONS]),
    ]),
  },
  /** Imports it: all or nothing, in one transaction. */
  personaImport: { args: importArgs, result: changed(personaSummarySchema) },

  /** The persona a session wears: its guardrails join the shadow, its compiled prompt leads a bound model's system prompt. */
  sessionPersonaGet: {
    args: z.object({ sessionId: sessionIdSchema }),
    result: z.object({ persona: personaSummarySchema.optional() }),
  },
  sessionPersonaSet: {
    args: z.object({ sessionId: sessionIdSchema, persona: name.nullable() }),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), persona: personaSummarySchema.optional() }),
      changeFailure,
    ]),
  },
} as const;

/** The zod schemas of each library's fields, for the service. */
export const LIBRARY_FIELDS = {
  part: parts.fields,
  trait: traits.fields,
  skill: skills.fields,
  guardrail: guardrails.fields,
} as const;
