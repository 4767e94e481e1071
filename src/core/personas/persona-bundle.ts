import { z } from 'zod';
import type { Problem, Result } from '#core/result.ts';
import { problemsFromZod } from '#core/result.ts';
import { sortedKeys } from '#core/safe-json.ts';
import type { PersonaDefinition } from './assemble.ts';
import {
  arcFieldsSchema,
  arcStageFieldsSchema,
  catalogNameSchema,
  guardrailFieldsSchema,
  keptFieldsSchema,
  partFieldsSchema,
  partLinkSchema,
  personaFieldsSchema,
  skillFieldsSchema,
  traitFieldsSchema,
  type ArcStageRecord,
  type PartRecord,
} from '#core/records/persona-catalog.ts';

/** The format tag and version of an Anima persona bundle; a later version adds a migration here. */
export const BUNDLE_FORMAT = 'anima-persona';
export const BUNDLE_VERSION = 1;

const cardKeptSchema = z.object({ extras: keptFieldsSchema, extensions: keptFieldsSchema }).strict();

/**
 * A persona with everything it uses, by name, without ids or timestamps: an exported persona
 * that has not changed gives the same bytes every time. Imports (bundles and character cards)
 * become one of these first, and only a valid one is written.
 */
export const personaBundleSchema = z
  .object({
    format: z.literal(BUNDLE_FORMAT),
    version: z.literal(BUNDLE_VERSION),
    persona: personaFieldsSchema.strict(),
    /** Every part the persona or its arc's stages use. */
    parts: z.array(partFieldsSchema.strict()).max(1000),
    /** The persona's own parts, in order. */
    links: z.array(partLinkSchema.extend({ part: catalogNameSchema }).strict()).max(1000),
    traits: z.array(traitFieldsSchema.strict()).max(1000),
    skills: z.array(skillFieldsSchema.strict()).max(1000),
    guardrails: z.array(guardrailFieldsSchema.strict()).max(1000),
    arc: arcFieldsSchema
      .extend({
        stages: z
          .array(arcStageFieldsSchema.extend({ parts: z.array(catalogNameSchema).max(1000) }).strict())
          .min(1)
          .max(100),
        currentStage: catalogNameSchema,
      })
      .strict()
      .optional(),
    card: cardKeptSchema.optional(),
  })
  .strict()
  .superRefine((bundle, context) => {
    const issue = (path: (string | number)[], message: string) => context.addIssue({ code: 'custom', path, message });
    const unique = (names: string[], path: string, what: string) =>
      names.forEach(
        (name, index) =>
          names.indexOf(name) !== index && issue([path, index, 'name'], `two ${what} are named "${name}"`),
      );
    const partNames = bundle.parts.map((part) => part.name);
    unique(partNames, 'parts', 'parts');
    unique(
      bundle.traits.map((trait) => trait.name),
      'traits',
      'traits',
    );
    unique(
      bundle.skills.map((skill) => skill.name),
      'skills',
      'skills',
    );
    unique(
      bundle.guardrails.map((guardrail) => guardrail.name),
      'guardrails',
      'guardrails',
    );
    bundle.links.forEach((link, index) => {
      if (!partNames.includes(link.part))
        issue(['links', index, 'part'], `the part "${link.part}" is not in the bundle's parts`);
      if (bundle.links.findIndex((other) => other.part === link.part) !== index)
        issue(['links', index, 'part'], `the part "${link.part}" is linked twice`);
    });
    if (bundle.arc) {
      const stageNames = bundle.arc.stages.map((stage) => stage.name);
      unique(stageNames, 'arc.stages', 'stages');
      if (!stageNames.includes(bundle.arc.currentStage))
        issue(['arc', 'currentStage'], `there is no stage named "${bundle.arc.currentStage}"`);
      bundle.arc.stages.forEach((stage, stageIndex) =>
        stage.parts.forEach(
          (part, partIndex) =>
            !partNames.includes(part) &&
            issue(['arc', 'stages', stageIndex, 'parts', partIndex], `the part "${part}" is not in the bundle's parts`),
        ),
      );
    }
  });
export type PersonaBundle = z.output<typeof personaBundleSchema>;

const partFields = ({ name, type, description, summary, content, tags }: PartRecord) => ({
  name,
  type,
  description,
  summary,
  content,
  tags,
});

/**
 * A persona as a bundle, with the parts of every stage of its arc. Keys are written in one fixed
 * order and nothing time-dependent is included, so the text depends only on the persona.
 */
export function bundleOf(
  definition: PersonaDefinition,
  arcStages: { stage: ArcStageRecord; parts: PartRecord[] }[],
  card?: PersonaBundle['card'],
): PersonaBundle {
  const { persona } = definition;
  const parts: PartRecord[] = [];
  const include = (part: PartRecord) => parts.some((other) => other.id === part.id) || parts.push(part);
  definition.parts.forEach(({ part }) => include(part));
  arcStages.forEach(({ parts: stageParts }) => stageParts.forEach(include));
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    persona: {
      name: persona.name,
      description: persona.description,
      summary: persona.summary,
      detail: persona.detail,
      tags: persona.tags,
    },
    parts: parts.map(partFields),
    links: definition.parts.map(({ part, priority, pinned }) => ({ part: part.name, priority, pinned })),
    traits: definition.traits.map(({ name, type, description, instruction, tags }) => ({
      name,
      type,
      description,
      instruction,
      tags,
    })),
    skills: definition.skills.map(({ name, description, content, tags }) => ({ name, description, content, tags })),
    guardrails: definition.guardrails.map(
      ({ name, description, content, severity, triggers, requireApproval, tags }) => ({
        name,
        description,
        content,
        severity,
        triggers,
        requireApproval,
        tags,
      }),
    ),
    ...(definition.arc
      ? {
          arc: {
            name: definition.arc.arc.name,
            description: definition.arc.arc.description,
            summary: definition.arc.arc.summary,
            stages: arcStages.map(({ stage, parts: stageParts }) => ({
              name: stage.name,
              description: stage.description,
              condition: stage.condition,
              parts: stageParts.map((part) => part.name),
            })),
            currentStage: definition.arc.current.name,
          },
        }
      : {}),
    ...(card ? { card: { extras: card.extras, extensions: card.extensions } } : {}),
  };
}

/** A bundle as file text: two-space JSON with a final newline. */
export function bundleText(bundle: PersonaBundle): string {
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

/**
 * Whether two bundles hold the same persona. Their keys may come in other orders: a card's kept
 * fields keep the card's order, which a session snapshot (whose rows are written with sorted keys) does not.
 */
export function isSameBundle(a: PersonaBundle, b: PersonaBundle): boolean {
  return JSON.stringify(sortedKeys(a)) === JSON.stringify(sortedKeys(b));
}

/** Validates a value as a bundle; problems name the place (`parts.2.summary: ...`). */
export function readBundle(value: unknown): Result<PersonaBundle> {
  if (
    typeof value === 'object' &&
    value !== null &&
    'format' in value &&
    value.format === BUNDLE_FORMAT &&
    'version' in value &&
    value.version !== BUNDLE_VERSION
  )
    return {
      ok: false,
      error: [
        {
          path: 'version',
          message: `this is a version ${String(value.version)} bundle; this Anima reads version ${BUNDLE_VERSION}`,
        },
      ],
    };
  const parsed = personaBundleSchema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: problemsFromZod(parsed.error) satisfies Problem[] };
}
