import type { AgentServiceImplementation } from '#core/api.ts';
import type { Problem } from '#core/result.ts';
import type { ServiceContext } from './service-context.ts';
import type { ArcRecord, PersonaRecord } from '#core/records/persona-catalog.ts';
import {
  readCharacterCard,
  writeCharacterCardJson,
  writeCharacterCardPng,
  type CharacterCard,
} from '#core/personas/character-card.ts';
import { bundleFromCard, cardFromBundle } from '#core/personas/persona-card.ts';
import { BUNDLE_FORMAT, bundleText, readBundle, type PersonaBundle } from '#core/personas/persona-bundle.ts';
import { readJson } from '#core/safe-json.ts';
import { decodeUtf8Text } from '#core/text-bytes.ts';
import { MAX_IMPORT_BYTES, type PersonaImportPreview, type PersonaSummary } from '#core/api/persona-contract.ts';
import { isPng, MAX_PNG_BYTES } from '#core/personas/png-text.ts';
import { personaBundleOf } from '#core/personas/persona-catalog-read.ts';

type FileMethods = 'personaExport' | 'personaImportCheck' | 'personaImport';
/** Why a catalog change was refused, with the problems that say where. */
export type Refusal = {
  ok: false;
  reason: 'invalid' | 'not-found' | 'name-taken' | 'in-use' | 'read-only' | 'storage-full';
  problems: Problem[];
};

/** What the catalog service lends the file operations: its write transaction, read transaction and persona summary. */
export type CatalogAccess = {
  change: <T>(work: () => Promise<T>) => Promise<T | Refusal>;
  read: <T>(work: () => Promise<T>) => Promise<T>;
  summaryOf: (persona: PersonaRecord) => Promise<PersonaSummary>;
};

/** A file name made from a persona's name: letters and digits, dashes between. */
function slugOf(name: string): string {
  return (
    name
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '') || 'persona'
  );
}

const isBundle = (value: unknown) =>
  typeof value === 'object' && value !== null && 'format' in value && value.format === BUNDLE_FORMAT;

type ReadImport =
  { ok: true; bundle: PersonaBundle; format: PersonaImportPreview['format']; image?: Uint8Array } | Refusal;

/** Reads an import file (bundle, card JSON or card PNG) into a bundle, validated; nothing is written. */
function readImport(data: string | Uint8Array, asName: string | undefined): ReadImport {
  const invalid = (problems: Problem[]): Refusal => ({ ok: false, reason: 'invalid', problems });
  const fromCard = (card: CharacterCard): ReadImport => {
    const named = asName !== undefined ? { ...card, name: asName } : card;
    const bundle = bundleFromCard(named);
    if (!bundle.ok) return invalid(bundle.error);
    return {
      ok: true,
      bundle: bundle.value,
      format: `card-${card.spec}`,
      ...(card.image ? { image: card.image } : {}),
    };
  };
  if (data instanceof Uint8Array) {
    // A card (PNG or JSON) unless the bytes are UTF-8 JSON of a bundle; the card reader says what is wrong with anything else.
    const text = isPng(data) ? undefined : decodeUtf8Text(data);
    const json = text?.ok ? readJson(text.value, { maxBytes: MAX_IMPORT_BYTES }) : undefined;
    if (!text?.ok || !json?.ok || !isBundle(json.value)) {
      const card = readCharacterCard({ bytes: data });
      return card.ok ? fromCard(card.value) : invalid(card.error);
    }
    return readImport(text.value, asName);
  }
  const text = data;
  const json = readJson(text, { maxBytes: MAX_IMPORT_BYTES });
  if (!json.ok) return invalid(json.error);
  const value = json.value;
  if (isBundle(value)) {
    const bundle = readBundle(value);
    if (!bundle.ok) return invalid(bundle.error);
    return {
      ok: true,
      bundle:
        asName !== undefined ? { ...bundle.value, persona: { ...bundle.value.persona, name: asName } } : bundle.value,
      format: 'bundle',
    };
  }
  const card = readCharacterCard({ text });
  return card.ok ? fromCard(card.value) : invalid(card.error);
}

const same = (left: unknown, right: unknown) => JSON.stringify(left) === JSON.stringify(right);
const fieldsIn = <T extends object>(record: T, keys: readonly (keyof T)[]) =>
  Object.fromEntries(keys.map((key) => [key, record[key]]));

/** Persona import and export: Anima bundles and character cards (see persona-bundle.ts, persona-card.ts). */
export function personaFilesService(
  context: ServiceContext,
  catalog: CatalogAccess,
): Pick<AgentServiceImplementation, FileMethods> {
  const { db, now } = context;

  /**
   * Checks a bundle against the catalog: the persona's name must be free; each item is new, or the
   * same as the stored one of its name (reused), or clashes (a problem naming it).
   */
  const preview = async (
    bundle: PersonaBundle,
    format: PersonaImportPreview['format'],
    hasImage: boolean,
  ): Promise<{ ok: true; preview: PersonaImportPreview } | Refusal> => {
    const problems: Problem[] = [];
    if (await db.personas.where('name').equals(bundle.persona.name).first())
      return {
        ok: false,
        reason: 'name-taken',
        problems: [
          {
            path: 'persona.name',
            message: `there is already a persona named "${bundle.persona.name}"; import it under another name`,
          },
        ],
      };
    const items: PersonaImportPreview['items'] = [];
    const check = async (
      kind: 'part' | 'trait' | 'skill' | 'guardrail',
      table: { where(index: string): { equals(value: string): { first(): Promise<object | undefined> } } },
      fields: object & { name: string; type?: string },
      summary: string,
      index: number,
    ) => {
      const stored = await table.where('name').equals(fields.name).first();
      if (stored && !same(fieldsIn(stored as Record<string, unknown>, Object.keys(fields)), fields)) {
        problems.push({
          path: `${kind}s.${index}.name`,
          message: `there is already a ${kind} named "${fields.name}" with other content; rename one of them`,
        });
        return;
      }
      items.push({
        kind,
        name: fields.name,
        ...(fields.type ? { type: fields.type } : {}),
        summary,
        state: stored ? 'reused' : 'new',
      });
    };
    for (const [index, part] of bundle.parts.entries()) await check('part', db.parts, part, part.summary, index);
    for (const [index, trait] of bundle.traits.entries())
      await check('trait', db.traits, trait, trait.description, index);
    for (const [index, skill] of bundle.skills.entries())
      await check('skill', db.skills, skill, skill.description, index);
    for (const [index, guardrail] of bundle.guardrails.entries())
      await check('guardrail', db.guardrails, guardrail, guardrail.description, index);
    if (bundle.arc) {
      const stored = await db.arcs.where('name').equals(bundle.arc.name).first();
      const { currentStage: _current, ...arcShape } = bundle.arc;
      if (stored && !same(await storedArcShape(stored), arcShape))
        problems.push({
          path: 'arc.name',
          message: `there is already an arc named "${bundle.arc.name}" with other stages or text; rename one of them`,
        });
      else
        items.push({
          kind: 'arc',
          name: bundle.arc.name,
          summary: bundle.arc.summary,
          state: stored ? 'reused' : 'new',
        });
    }
    if (problems.length > 0) return { ok: false, reason: 'name-taken', problems };
    return {
      ok: true,
      preview: {
        format,
        persona: bundle.persona,
        items,
        ...(bundle.arc
          ? {
              arc: {
                name: bundle.arc.name,
                stages: bundle.arc.stages.map((stage) => stage.name),
                currentStage: bundle.arc.currentStage,
              },
            }
          : {}),
        kept: [
          ...Object.keys(bundle.card?.extras ?? {}),
          ...Object.keys(bundle.card?.extensions ?? {}).map((key) => `extensions.${key}`),
        ].sort(),
        hasImage,
      },
    };
  };

  /** An arc as a bundle writes it, for comparing with an imported one. */
  const storedArcShape = async (arc: ArcRecord) => {
    const stages = (await db.arcStages.where('arcId').equals(arc.id).toArray()).sort(
      (left, right) => left.position - right.position,
    );
    return {
      name: arc.name,
      description: arc.description,
      summary: arc.summary,
      stages: await Promise.all(
        stages.map(async (stage) => {
          const partIds = (await db.stageParts.where('stageId').equals(stage.id).toArray()).map((link) => link.partId);
          const names = (await db.parts.bulkGet(partIds)).flatMap((part) => (part ? [part.name] : [])).sort();
          return { name: stage.name, description: stage.description, condition: stage.condition, parts: names };
        }),
      ),
    };
  };

  return {
    async personaExport({ name, format }) {
      return catalog.read(async () => {
        const persona = await db.personas.where('name').equals(name).first();
        if (!persona)
          return {
            ok: false as const,
            reason: 'not-found' as const,
            problems: [{ path: 'name', message: `there is no persona named "${name}"` }],
          };
        const bundle = await personaBundleOf(db, persona);
        const slug = slugOf(persona.name);
        if (format === 'bundle')
          return {
            ok: true as const,
            fileName: `${slug}.persona.json`,
            mediaType: 'application/json',
            data: bundleText(bundle),
          };
        const card = cardFromBundle(bundle);
        if (format === 'card-json')
          return {
            ok: true as const,
            fileName: `${slug}.card.json`,
            mediaType: 'application/json',
            data: writeCharacterCardJson(card),
          };
        const png = writeCharacterCardPng(card, persona.card?.image);
        // Its image and two copies of the card must still be a file an import reads back.
        if (png.byteLength > MAX_PNG_BYTES)
          return {
            ok: false as const,
            reason: 'too-large' as const,
            problems: [
              {
                message: `the card PNG would be ${(png.byteLength / 2 ** 20).toFixed(1)} MB, more than the ${MAX_PNG_BYTES / 2 ** 20} MB a card import reads; export it as card JSON or as a bundle`,
              },
            ],
          };
        return { ok: true as const, fileName: `${slug}.card.png`, mediaType: 'image/png', data: png };
      });
    },

    async personaImportCheck({ data, asName }) {
      const read = readImport(data, asName);
      if (!read.ok) return read;
      return catalog.read(() => preview(read.bundle, read.format, read.image !== undefined));
    },

    async personaImport({ data, asName }) {
      const read = readImport(data, asName);
      if (!read.ok) return read;
      const { bundle, image } = read;
      return catalog.change(async () => {
        // Checked again inside the transaction: the catalog may have changed since the preview.
        const checked = await preview(bundle, read.format, image !== undefined);
        if (!checked.ok) return checked;
        const stamp = { createdAt: now(), updatedAt: now() };
        const idOf = async (
          table: {
            where(index: string): { equals(value: string): { first(): Promise<{ id: number } | undefined> } };
            add(record: never): Promise<number>;
          },
          fields: { name: string },
        ) =>
          (await table.where('name').equals(fields.name).first())?.id ??
          (await table.add({ ...fields, ...stamp } as never));
        const partIds = new Map<string, number>();
        for (const part of bundle.parts) partIds.set(part.name, await idOf(db.parts as never, part));
        const personaId = await db.personas.add({
          ...bundle.persona,
          ...stamp,
          ...(bundle.card || image
            ? {
                card: {
                  extras: bundle.card?.extras ?? {},
                  extensions: bundle.card?.extensions ?? {},
                  ...(image ? { image } : {}),
                },
              }
            : {}),
        } as PersonaRecord);
        for (const [order, link] of bundle.links.entries())
          await db.personaParts.put({
            personaId,
            partId: partIds.get(link.part)!,
            order,
            priority: link.priority,
            pinned: link.pinned,
          });
        for (const trait of bundle.traits)
          await db.personaTraits.put({ personaId, traitId: await idOf(db.traits as never, trait) });
        for (const skill of bundle.skills)
          await db.personaSkills.put({ personaId, skillId: await idOf(db.skills as never, skill) });
        for (const guardrail of bundle.guardrails)
          await db.personaGuardrails.put({ personaId, guardrailId: await idOf(db.guardrails as never, guardrail) });
        if (bundle.arc) {
          let arc = await db.arcs.where('name').equals(bundle.arc.name).first();
          if (!arc) {
            const arcId = await db.arcs.add({
              name: bundle.arc.name,
              description: bundle.arc.description,
              summary: bundle.arc.summary,
              ...stamp,
            } as ArcRecord);
            for (const [position, stage] of bundle.arc.stages.entries()) {
              const stageId = await db.arcStages.add({
                name: stage.name,
                description: stage.description,
                condition: stage.condition,
                arcId,
                position,
                createdAt: stamp.createdAt,
              } as never);
              for (const part of stage.parts) await db.stageParts.put({ stageId, partId: partIds.get(part)! });
            }
            arc = (await db.arcs.get(arcId))!;
          }
          const current = (await db.arcStages.where('arcId').equals(arc.id).toArray()).find(
            (stage) => stage.name === bundle.arc!.currentStage,
          )!;
          await db.personaArcs.put({
            personaId,
            arcId: arc.id,
            currentStageId: current.id,
            updatedAt: stamp.updatedAt,
          });
        }
        return { ok: true as const, item: await catalog.summaryOf((await db.personas.get(personaId))!) };
      });
    },
  };
}
