import { z } from 'zod';
import { nameSchema } from '#core/names.ts';
import { matchedTriggerText } from './trigger-text.ts';
import { nestingDepth } from '#core/safe-json.ts';

/**
 * The records of the persona catalog (DESIGN section 9, seed 003): personas assembled from
 * reusable parts, atomic traits, skills and guardrails, and character arcs whose stages swap
 * parts in. The catalog belongs to the device, not to a session: a session wears a persona.
 */

/** The sixteen part types of seed 003, in the order an assembled prompt lists them. */
export const PART_TYPES = [
  'system',
  'agent',
  'soul',
  'identity',
  'archetype',
  'backstory',
  'motivation',
  'skill',
  'specialization',
  'goal',
  'context',
  'protocol',
  'tone',
  'voice',
  'flaw',
  'relationship',
] as const;
export const partTypeSchema = z.enum(PART_TYPES);
export type PartType = z.infer<typeof partTypeSchema>;

/** Each part type as a heading of the assembled prompt and a label in the UI. */
export const PART_TYPE_TITLES: Record<PartType, string> = {
  system: 'System',
  agent: 'Agent',
  soul: 'Soul',
  identity: 'Identity',
  archetype: 'Archetype',
  backstory: 'Backstory',
  motivation: 'Motivation',
  skill: 'Skill',
  specialization: 'Specialization',
  goal: 'Goal',
  context: 'Context',
  protocol: 'Protocol',
  tone: 'Tone',
  voice: 'Voice',
  flaw: 'Flaw',
  relationship: 'Relationship',
};

/** The five trait types of seed 003. */
export const TRAIT_TYPES = ['personality', 'cognitive', 'emotional', 'social', 'behavioral'] as const;
export const traitTypeSchema = z.enum(TRAIT_TYPES);
export type TraitType = z.infer<typeof traitTypeSchema>;

/** What a catalog item is, as links, imports and errors name it. */
export const CATALOG_KINDS = ['persona', 'part', 'trait', 'skill', 'guardrail', 'arc'] as const;
export type CatalogKind = (typeof CATALOG_KINDS)[number];

/** The most text one field holds: a long system prompt or backstory fits (as much as a character card's field), a pasted book does not. */
export const MAX_FIELD_CHARS = 100_000;

/** A name is how items are found, linked and overridden: one line, unique among items of its kind. */
export const catalogNameSchema = nameSchema();

const field = (max = MAX_FIELD_CHARS) => z.string().max(max, `at most ${max} characters`);
const tagsSchema = z
  .array(z.string().trim().min(1, 'a tag needs text').max(60, 'a tag has at most 60 characters'))
  .max(50, 'at most 50 tags')
  .transform((tags) => [...new Set(tags)]);

/** Timestamps of every stored item. */
const stamped = { id: z.number().int(), createdAt: z.number(), updatedAt: z.number() };

/**
 * How deeply a card's kept fields (its extras and extensions, other applications' data) may nest:
 * every file that carries them (a card, a bundle, a snapshot, the CLI's catalog) nests them a few
 * levels deeper, and each must stay within the 64 levels its reader takes.
 */
export const MAX_KEPT_DEPTH = 32;

/** A card's kept fields, as read and as stored. */
export const keptFieldsSchema = z
  .unknown()
  // On the input: a record's copy would leave out a "__proto__" key, and what it holds.
  .refine(
    (kept) => nestingDepth(kept, MAX_KEPT_DEPTH) <= MAX_KEPT_DEPTH,
    `other applications' data nested deeper than ${MAX_KEPT_DEPTH} levels is more than Anima keeps`,
  )
  .pipe(z.record(z.string(), z.unknown()));

/** What a user gives to create a persona (the editable fields). */
export const personaFieldsSchema = z.object({
  name: catalogNameSchema,
  description: field(2000).default(''),
  /** Returned by default when the persona is loaded. */
  summary: field().default(''),
  /** Returned only in the detail view. */
  detail: field().default(''),
  tags: tagsSchema.default([]),
});
export type PersonaFields = z.infer<typeof personaFieldsSchema>;

/** A stored persona: its fields, what `compile` stored, and what an imported card held that Anima does not use. */
export const personaRecordSchema = personaFieldsSchema.extend({
  ...stamped,
  compiledSummary: z.string().optional(),
  compiledDetail: z.string().optional(),
  compiledAt: z.number().optional(),
  /** The character card it came from, for export back: the card's fields Anima does not map, and its extensions. */
  card: z
    .object({ extras: keptFieldsSchema, extensions: keptFieldsSchema, image: z.instanceof(Uint8Array).optional() })
    .optional(),
});
export type PersonaRecord = z.infer<typeof personaRecordSchema>;

export const partFieldsSchema = z.object({
  name: catalogNameSchema,
  type: partTypeSchema,
  description: field(2000).default(''),
  /** What the summary view shows. */
  summary: field().min(1, 'a part needs a summary'),
  /** What the detail view shows (the summary when empty). */
  content: field().default(''),
  tags: tagsSchema.default([]),
});
export type PartFields = z.infer<typeof partFieldsSchema>;
export const partRecordSchema = partFieldsSchema.extend(stamped);
export type PartRecord = z.infer<typeof partRecordSchema>;

export const traitFieldsSchema = z.object({
  name: catalogNameSchema,
  type: traitTypeSchema,
  description: field(2000).default(''),
  /** How to apply the trait in practice (the detail view). */
  instruction: field().default(''),
  tags: tagsSchema.default([]),
});
export type TraitFields = z.infer<typeof traitFieldsSchema>;
export const traitRecordSchema = traitFieldsSchema.extend(stamped);
export type TraitRecord = z.infer<typeof traitRecordSchema>;

export const skillFieldsSchema = z.object({
  name: catalogNameSchema,
  description: field(2000).default(''),
  content: field().default(''),
  tags: tagsSchema.default([]),
});
export type SkillFields = z.infer<typeof skillFieldsSchema>;
export const skillRecordSchema = skillFieldsSchema.extend(stamped);
export type SkillRecord = z.infer<typeof skillRecordSchema>;

/**
 * A guardrail is a rule the persona keeps. Its triggers make it one of the shadow's veto
 * patterns for the agent that wears the persona (matched like psyche.toml triggers).
 */
export const guardrailFieldsSchema = z.object({
  name: catalogNameSchema,
  description: field(2000).default(''),
  content: field().default(''),
  severity: z.number().min(0).max(1).default(1),
  // Matched as psyche.toml triggers are: one with nothing visible once normalised could never fire.
  triggers: z
    .array(
      z
        .string()
        .max(500)
        .refine(
          (trigger) => matchedTriggerText(trigger) !== '',
          'a trigger needs a visible character (case, width, zero-width characters and spacing aside), or it could never match',
        ),
    )
    .max(200)
    .default([]),
  /** Instead of blocking a matching action, it waits for the user's approval. */
  requireApproval: z.boolean().default(false),
  tags: tagsSchema.default([]),
});
export type GuardrailFields = z.infer<typeof guardrailFieldsSchema>;
// Stored before triggers had to be visible, a guardrail still reads; an invisible trigger of it matches nothing.
export const guardrailRecordSchema = guardrailFieldsSchema.extend({
  ...stamped,
  triggers: z.array(z.string().max(500)).max(200).default([]),
});
export type GuardrailRecord = z.infer<typeof guardrailRecordSchema>;

export const arcFieldsSchema = z.object({
  name: catalogNameSchema,
  description: field(2000).default(''),
  summary: field().default(''),
});
export type ArcFields = z.infer<typeof arcFieldsSchema>;
export const arcRecordSchema = arcFieldsSchema.extend(stamped);
export type ArcRecord = z.infer<typeof arcRecordSchema>;

/** A stage of an arc; `condition` says when to advance (the user or a calling agent judges it). */
export const arcStageFieldsSchema = z.object({
  name: catalogNameSchema,
  description: field(2000).default(''),
  condition: field(2000).default(''),
});
export const arcStageRecordSchema = arcStageFieldsSchema.extend({
  id: z.number().int(),
  arcId: z.number().int(),
  position: z.number().int().nonnegative(),
  createdAt: z.number(),
});
export type ArcStageRecord = z.infer<typeof arcStageRecordSchema>;

/** A part linked to a persona: its place in the assembled prompt, its priority when a budget trims, and whether a budget may drop it. */
export type PersonaPartLink = { personaId: number; partId: number; order: number; priority: number; pinned: boolean };
export type PersonaTraitLink = { personaId: number; traitId: number };
export type PersonaSkillLink = { personaId: number; skillId: number };
export type PersonaGuardrailLink = { personaId: number; guardrailId: number };
export type StagePartLink = { stageId: number; partId: number };
/** A persona's arc and the stage it is at (one arc per persona). */
export type PersonaArcRecord = { personaId: number; arcId: number; currentStageId: number; updatedAt: number };

/** How a part links to a persona (the editable link fields). */
export const partLinkSchema = z.object({
  priority: z.number().int().min(-1000).max(1000).default(0),
  pinned: z.boolean().default(false),
});
