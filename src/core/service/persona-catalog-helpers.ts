import type { z } from 'zod';
import { problemsFromZod, type Problem } from '#core/result.ts';
import { READ_ONLY_MESSAGE, type ServiceContext } from './service-context.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import { isQuotaExceeded, storageFull } from '#core/store/quota.ts';
import {
  assemblePersona,
  type AssembledPersona,
  type OverBudget,
  type PersonaDefinition,
} from '#core/personas/assemble.ts';
import {
  PART_TYPES,
  partTypeSchema,
  type ArcRecord,
  type CatalogKind,
  type PartRecord,
  type PartType,
  type PersonaRecord,
} from '#core/records/persona-catalog.ts';
import { catalogTables, readDefinition } from '#core/personas/persona-catalog-read.ts';
import { type ArcView, type PersonaSummary } from '#core/api/persona-contract.ts';
import type { Refusal } from './persona-files-service.ts';
import { estimateTokens } from '#core/personas/token-estimate.ts';

/** A refusal, with the one problem that says why. */
export const refusal = <R extends Refusal['reason']>(reason: R, message: string, path?: string) => ({
  ok: false as const,
  reason,
  problems: [{ message, ...(path ? { path } : {}) }],
});
export const readOnly = (): Refusal => refusal('read-only', READ_ONLY_MESSAGE);

/** Thrown inside a catalog transaction to abort it with a refusal (nothing of the change is written). */
export class CatalogRefusal extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.problems[0]?.message);
  }
}
export const refuse = (reason: Refusal['reason'], message: string, path?: string): never => {
  throw new CatalogRefusal(refusal(reason, message, path));
};

/** The library kinds: their tables, the link table that ties them to personas, and its key. */
export function libraryOf(db: AnimaDatabase, kind: 'part' | 'trait' | 'skill' | 'guardrail') {
  switch (kind) {
    case 'part':
      return { table: db.parts, links: db.personaParts, key: 'partId' as const };
    case 'trait':
      return { table: db.traits, links: db.personaTraits, key: 'traitId' as const };
    case 'skill':
      return { table: db.skills, links: db.personaSkills, key: 'skillId' as const };
    case 'guardrail':
      return { table: db.guardrails, links: db.personaGuardrails, key: 'guardrailId' as const };
  }
}
export type LibraryKind = 'part' | 'trait' | 'skill' | 'guardrail';
export type LibraryRecord = { id: number; name: string; createdAt: number; updatedAt: number };

/** Validates user-given fields strictly (an unknown key is a problem, so a typo is not silently lost). */
export function parseFields<S extends z.ZodObject>(
  schema: S,
  value: unknown,
): { ok: true; fields: z.output<S> } | Refusal {
  const parsed = schema.strict().safeParse(value);
  return parsed.success
    ? { ok: true, fields: parsed.data as z.output<S> }
    : { ok: false, reason: 'invalid', problems: problemsFromZod(parsed.error) };
}

/** The fields of a stored item, for merging changes over them. */
export function fieldsOf<S extends z.ZodObject>(schema: S, record: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(schema.shape).flatMap((key) =>
      key in record ? [[key, (record as Record<string, unknown>)[key]]] : [],
    ),
  );
}

export const partTypeList = PART_TYPES.join(', ');

/** What the persona catalog's slices share: its transactions, lookups by name, views and compiling. */
export function catalogHelpers(context: ServiceContext) {
  const { db, now, exclusively, canWrite } = context;

  /** Runs a catalog change in the write queue and one transaction; a CatalogRefusal thrown inside aborts it and becomes the answer. */
  const change = async <T>(work: () => Promise<T>): Promise<T | Refusal> => {
    if (!canWrite()) return readOnly();
    try {
      return await exclusively(() => db.transaction('rw', catalogTables(db), work));
    } catch (error) {
      if (error instanceof CatalogRefusal) return error.refusal;
      if (error instanceof Error && error.name === 'ConstraintError')
        return refusal('name-taken', 'that name is already taken');
      if (isQuotaExceeded(error)) return storageFull();
      throw error;
    }
  };
  const read = <T>(work: () => Promise<T>): Promise<T> => db.transaction('r', catalogTables(db), work);

  const personaNamed = async (name: string, path = 'name'): Promise<PersonaRecord> =>
    (await db.personas.where('name').equals(name).first()) ??
    refuse('not-found', `there is no persona named "${name}"`, path);
  const itemNamed = async (kind: LibraryKind, name: string, path = 'name'): Promise<LibraryRecord> =>
    ((await libraryOf(db, kind).table.where('name').equals(name).first()) as LibraryRecord | undefined) ??
    refuse('not-found', `there is no ${kind} named "${name}"`, path);
  const arcNamed = async (name: string, path = 'arc'): Promise<ArcRecord> =>
    (await db.arcs.where('name').equals(name).first()) ?? refuse('not-found', `there is no arc named "${name}"`, path);
  const stagesOf = async (arcId: number) =>
    (await db.arcStages.where('arcId').equals(arcId).toArray()).sort((left, right) => left.position - right.position);
  const stageNamed = async (arc: ArcRecord, name: string) =>
    (await stagesOf(arc.id)).find((stage) => stage.name === name) ??
    refuse('not-found', `the arc "${arc.name}" has no stage named "${name}"`, 'stage');
  const ensureNameFree = async (kind: CatalogKind, name: string, exceptId?: number) => {
    const table = kind === 'persona' ? db.personas : kind === 'arc' ? db.arcs : libraryOf(db, kind).table;
    const holder = (await table.where('name').equals(name).first()) as { id: number } | undefined;
    if (holder && holder.id !== exceptId) refuse('name-taken', `there is already a ${kind} named "${name}"`, 'name');
  };

  const summaryOf = async (persona: PersonaRecord): Promise<PersonaSummary> => {
    const count = (table: { where(index: string): { equals(value: number): { count(): Promise<number> } } }) =>
      table.where('personaId').equals(persona.id).count();
    const onArc = await db.personaArcs.get(persona.id);
    const arc = onArc && (await db.arcs.get(onArc.arcId));
    const stage = onArc && (await db.arcStages.get(onArc.currentStageId));
    const sessions = await db.sessions.toArray();
    return {
      name: persona.name,
      description: persona.description,
      summary: persona.summary,
      tags: persona.tags,
      parts: await count(db.personaParts),
      traits: await count(db.personaTraits),
      skills: await count(db.personaSkills),
      guardrails: await count(db.personaGuardrails),
      ...(arc && stage ? { arc: { name: arc.name, stage: stage.name } } : {}),
      ...(persona.compiledAt !== undefined ? { compiledAt: persona.compiledAt } : {}),
      updatedAt: persona.updatedAt,
      wornBy: sessions.filter((session) => session.personaId === persona.id).map((session) => session.name),
    };
  };

  const itemViewOf = async <View>(kind: LibraryKind, record: LibraryRecord): Promise<View> => {
    const { links, key } = libraryOf(db, kind);
    const personaIds = (await links.toArray())
      .filter((link) => (link as Record<string, number>)[key] === record.id)
      .map((link) => link.personaId);
    const users = (await db.personas.bulkGet([...new Set(personaIds)]))
      .flatMap((persona) => (persona ? [persona.name] : []))
      .sort();
    const { id: _id, ...view } = record;
    return { ...view, usedBy: users } as View;
  };

  const arcViewOf = async (arc: ArcRecord): Promise<ArcView> => {
    const stages = await stagesOf(arc.id);
    const stageViews = await Promise.all(
      stages.map(async (stage) => {
        const partIds = (await db.stageParts.where('stageId').equals(stage.id).toArray()).map((link) => link.partId);
        const parts = (await db.parts.bulkGet(partIds))
          .flatMap((part) => (part ? [{ name: part.name, type: part.type }] : []))
          .sort((left, right) => (left.name < right.name ? -1 : 1));
        return {
          name: stage.name,
          description: stage.description,
          condition: stage.condition,
          position: stage.position,
          parts,
        };
      }),
    );
    const onArc = await db.personaArcs.where('arcId').equals(arc.id).toArray();
    const personas = (
      await Promise.all(
        onArc.map(async (link) => ({
          persona: await db.personas.get(link.personaId),
          stage: stages.find((stage) => stage.id === link.currentStageId),
        })),
      )
    ).flatMap(({ persona, stage }) => (persona && stage ? [{ name: persona.name, stage: stage.name }] : []));
    return {
      name: arc.name,
      description: arc.description,
      summary: arc.summary,
      createdAt: arc.createdAt,
      updatedAt: arc.updatedAt,
      stages: stageViews,
      personas,
    };
  };

  const touch = (personaId: number) => db.personas.update(personaId, { updatedAt: now() });

  /** The compiled summary and detail of a persona as it is now, stamped. */
  const compiledNow = (definition: PersonaDefinition) => ({
    compiledSummary: assembled(definition, false).text,
    compiledDetail: assembled(definition, true).text,
    compiledAt: now(),
  });

  /**
   * A persona that was compiled is compiled again when its arc stage changes: seed 003 asks for a
   * compile after every advance, and a session wearing it gives its model the compiled text.
   */
  const recompileIfCompiled = async (personaId: number) => {
    const persona = await db.personas.get(personaId);
    if (persona?.compiledAt !== undefined)
      await db.personas.put({ ...persona, ...compiledNow(await readDefinition(db, persona)) });
  };

  /** Overrides by part type, resolved to parts of that type. */
  const resolveOverrides = async (
    overrides: Record<string, string>,
  ): Promise<Partial<Record<PartType, PartRecord>> | { ok: false; reason: 'invalid'; problems: Problem[] }> => {
    const resolved: Partial<Record<PartType, PartRecord>> = {};
    const problems: Problem[] = [];
    for (const [type, partName] of Object.entries(overrides)) {
      const path = `overrides.${type}`;
      const partType = partTypeSchema.safeParse(type);
      if (!partType.success) {
        problems.push({ path, message: `there is no part type "${type}"; the types are ${partTypeList}` });
        continue;
      }
      const part = await db.parts.where('name').equals(partName).first();
      if (!part) problems.push({ path, message: `there is no part named "${partName}"` });
      else if (part.type !== type)
        problems.push({ path, message: `"${partName}" is a ${part.type} part, not a ${type} part` });
      else resolved[partType.data] = part;
    }
    return problems.length > 0 ? { ok: false, reason: 'invalid', problems } : resolved;
  };

  const assembled = (definition: PersonaDefinition, detail: boolean): AssembledPersona => {
    const result = assemblePersona(definition, { detail });
    if (!result.ok) throw new Error('assembly without a budget cannot run over one');
    return result.value;
  };

  const overBudgetRefusal = (error: OverBudget) => ({
    ok: false as const,
    reason: 'pinned-over-budget' as const,
    problems: [
      {
        path: 'budgetTokens',
        message: `the persona's own text, guardrails and pinned parts${error.pinned.length > 0 ? ` (${error.pinned.join(', ')})` : ''} need about ${error.fixedTokens} tokens, over the budget of ${error.budgetTokens}; raise the budget or unpin a part`,
      },
    ],
  });

  const compiledOf = (persona: PersonaRecord, definition: PersonaDefinition) => {
    if (
      persona.compiledAt === undefined ||
      persona.compiledSummary === undefined ||
      persona.compiledDetail === undefined
    )
      return undefined;
    const isCurrent =
      persona.compiledSummary === assembled(definition, false).text &&
      persona.compiledDetail === assembled(definition, true).text;
    return {
      summary: persona.compiledSummary,
      detail: persona.compiledDetail,
      compiledAt: persona.compiledAt,
      summaryTokens: estimateTokens(persona.compiledSummary),
      detailTokens: estimateTokens(persona.compiledDetail),
      isCurrent,
    };
  };

  const linkTable = (kind: LibraryKind) =>
    libraryOf(db, kind).links as unknown as {
      get(key: [number, number]): Promise<unknown>;
      put(record: object): Promise<unknown>;
      delete(key: [number, number]): Promise<void>;
    };
  const linkRecord = (kind: LibraryKind, personaId: number, itemId: number) => ({
    personaId,
    [libraryOf(db, kind).key]: itemId,
  });

  return {
    change,
    read,
    personaNamed,
    itemNamed,
    arcNamed,
    stagesOf,
    stageNamed,
    ensureNameFree,
    summaryOf,
    itemViewOf,
    arcViewOf,
    touch,
    compiledNow,
    recompileIfCompiled,
    resolveOverrides,
    assembled,
    overBudgetRefusal,
    compiledOf,
    linkTable,
    linkRecord,
  };
}

export type CatalogHelpers = ReturnType<typeof catalogHelpers>;
