import type { z } from 'zod';
import type { AgentServiceImplementation } from '#core/api.ts';
import { problemsFromZod, type Problem } from '#core/result.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import { isQuotaExceeded, storageFull } from '#core/store/quota.ts';
import { assemblePersona, type AssembledPersona, type OverBudget, type PersonaDefinition } from '#core/personas/assemble.ts';
import {
  arcFieldsSchema,
  arcStageFieldsSchema,
  PART_TYPES,
  partTypeSchema,
  personaFieldsSchema,
  type ArcRecord,
  type CatalogKind,
  type PartRecord,
  type PartType,
  type PersonaRecord,
} from '#core/records/persona-catalog.ts';
import { catalogTables, readDefinition } from '#core/personas/persona-catalog-read.ts';
import {
  LIBRARY_FIELDS,
  type ArcView,
  type GuardrailView,
  type PartView,
  type PersonaManifest,
  type PersonaSummary,
  type personaContract,
  type SkillView,
  type TraitView,
} from '#core/api/persona-contract.ts';
import { personaFilesService, type Refusal } from './persona-files-service.ts';
import { estimateTokens } from '#core/personas/token-estimate.ts';

type PersonaMethods = keyof typeof personaContract;

/** A refusal, with the one problem that says why. */
const refusal = <R extends Refusal['reason']>(reason: R, message: string, path?: string) => ({ ok: false as const, reason, problems: [{ message, ...(path ? { path } : {}) }] });
const readOnly = (): Refusal => refusal('read-only', READ_ONLY_MESSAGE);

/** Thrown inside a catalog transaction to abort it with a refusal (nothing of the change is written). */
class CatalogRefusal extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.problems[0]?.message);
  }
}
const refuse = (reason: Refusal['reason'], message: string, path?: string): never => {
  throw new CatalogRefusal(refusal(reason, message, path));
};

/** The library kinds: their tables, the link table that ties them to personas, and its key. */
function libraryOf(db: AnimaDatabase, kind: 'part' | 'trait' | 'skill' | 'guardrail') {
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
type LibraryKind = 'part' | 'trait' | 'skill' | 'guardrail';
type LibraryRecord = { id: number; name: string; createdAt: number; updatedAt: number };

/** Validates user-given fields strictly (an unknown key is a problem, so a typo is not silently lost). */
function parseFields<S extends z.ZodObject>(schema: S, value: unknown): { ok: true; fields: z.output<S> } | Refusal {
  const parsed = schema.strict().safeParse(value);
  return parsed.success ? { ok: true, fields: parsed.data as z.output<S> } : { ok: false, reason: 'invalid', problems: problemsFromZod(parsed.error) };
}

/** The fields of a stored item, for merging changes over them. */
function fieldsOf<S extends z.ZodObject>(schema: S, record: object): Record<string, unknown> {
  return Object.fromEntries(Object.keys(schema.shape).flatMap((key) => (key in record ? [[key, (record as Record<string, unknown>)[key]]] : [])));
}

const partTypeList = PART_TYPES.join(', ');

/** The persona catalog's slice of the AgentService. */
export function personaService(context: ServiceContext): Pick<AgentServiceImplementation, PersonaMethods> {
  const { db, now, exclusively, canWrite, sessionOf } = context;

  /** Runs a catalog change in the write queue and one transaction; a CatalogRefusal thrown inside aborts it and becomes the answer. */
  const change = async <T>(work: () => Promise<T>): Promise<T | Refusal> => {
    if (!canWrite()) return readOnly();
    try {
      return await exclusively(() => db.transaction('rw', catalogTables(db), work));
    } catch (error) {
      if (error instanceof CatalogRefusal) return error.refusal;
      if (error instanceof Error && error.name === 'ConstraintError') return refusal('name-taken', 'that name is already taken');
      if (isQuotaExceeded(error)) return storageFull();
      throw error;
    }
  };
  const read = <T>(work: () => Promise<T>): Promise<T> => db.transaction('r', catalogTables(db), work);

  const personaNamed = async (name: string, path = 'name'): Promise<PersonaRecord> => (await db.personas.where('name').equals(name).first()) ?? refuse('not-found', `there is no persona named "${name}"`, path);
  const itemNamed = async (kind: LibraryKind, name: string, path = 'name'): Promise<LibraryRecord> =>
    ((await libraryOf(db, kind).table.where('name').equals(name).first()) as LibraryRecord | undefined) ?? refuse('not-found', `there is no ${kind} named "${name}"`, path);
  const arcNamed = async (name: string, path = 'arc'): Promise<ArcRecord> => (await db.arcs.where('name').equals(name).first()) ?? refuse('not-found', `there is no arc named "${name}"`, path);
  const stagesOf = async (arcId: number) => (await db.arcStages.where('arcId').equals(arcId).toArray()).sort((left, right) => left.position - right.position);
  const stageNamed = async (arc: ArcRecord, name: string) => (await stagesOf(arc.id)).find((stage) => stage.name === name) ?? refuse('not-found', `the arc "${arc.name}" has no stage named "${name}"`, 'stage');
  const ensureNameFree = async (kind: CatalogKind, name: string, exceptId?: number) => {
    const table = kind === 'persona' ? db.personas : kind === 'arc' ? db.arcs : libraryOf(db, kind).table;
    const holder = (await table.where('name').equals(name).first()) as { id: number } | undefined;
    if (holder && holder.id !== exceptId) refuse('name-taken', `there is already a ${kind} named "${name}"`, 'name');
  };

  const summaryOf = async (persona: PersonaRecord): Promise<PersonaSummary> => {
    const count = (table: { where(index: string): { equals(value: number): { count(): Promise<number> } } }) => table.where('personaId').equals(persona.id).count();
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
    const personaIds = (await links.toArray()).filter((link) => (link as Record<string, number>)[key] === record.id).map((link) => link.personaId);
    const users = (await db.personas.bulkGet([...new Set(personaIds)])).flatMap((persona) => (persona ? [persona.name] : [])).sort();
    const { id: _id, ...view } = record;
    return { ...view, usedBy: users } as View;
  };

  const arcViewOf = async (arc: ArcRecord): Promise<ArcView> => {
    const stages = await stagesOf(arc.id);
    const stageViews = await Promise.all(
      stages.map(async (stage) => {
        const partIds = (await db.stageParts.where('stageId').equals(stage.id).toArray()).map((link) => link.partId);
        const parts = (await db.parts.bulkGet(partIds)).flatMap((part) => (part ? [{ name: part.name, type: part.type }] : [])).sort((left, right) => (left.name < right.name ? -1 : 1));
        return { name: stage.name, description: stage.description, condition: stage.condition, position: stage.position, parts };
      }),
    );
    const onArc = await db.personaArcs.where('arcId').equals(arc.id).toArray();
    const personas = (
      await Promise.all(onArc.map(async (link) => ({ persona: await db.personas.get(link.personaId), stage: stages.find((stage) => stage.id === link.currentStageId) })))
    ).flatMap(({ persona, stage }) => (persona && stage ? [{ name: persona.name, stage: stage.name }] : []));
    return { name: arc.name, description: arc.description, summary: arc.summary, createdAt: arc.createdAt, updatedAt: arc.updatedAt, stages: stageViews, personas };
  };

  const touch = (personaId: number) => db.personas.update(personaId, { updatedAt: now() });

  /** The compiled summary and detail of a persona as it is now, stamped. */
  const compiledNow = (definition: PersonaDefinition) => ({ compiledSummary: assembled(definition, false).text, compiledDetail: assembled(definition, true).text, compiledAt: now() });

  /**
   * A persona that was compiled is compiled again when its arc stage changes: seed 003 asks for a
   * compile after every advance, and a session wearing it gives its model the compiled text.
   */
  const recompileIfCompiled = async (personaId: number) => {
    const persona = await db.personas.get(personaId);
    if (persona?.compiledAt !== undefined) await db.personas.put({ ...persona, ...compiledNow(await readDefinition(db, persona)) });
  };

  /** Overrides by part type, resolved to parts of that type. */
  const resolveOverrides = async (overrides: Record<string, string>): Promise<Partial<Record<PartType, PartRecord>> | { ok: false; reason: 'invalid'; problems: Problem[] }> => {
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
      else if (part.type !== type) problems.push({ path, message: `"${partName}" is a ${part.type} part, not a ${type} part` });
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
    if (persona.compiledAt === undefined || persona.compiledSummary === undefined || persona.compiledDetail === undefined) return undefined;
    const isCurrent = persona.compiledSummary === assembled(definition, false).text && persona.compiledDetail === assembled(definition, true).text;
    return { summary: persona.compiledSummary, detail: persona.compiledDetail, compiledAt: persona.compiledAt, summaryTokens: estimateTokens(persona.compiledSummary), detailTokens: estimateTokens(persona.compiledDetail), isCurrent };
  };

  /** Create / update / delete / list / get for one library kind. */
  const libraryMethods = <View>(kind: LibraryKind) => {
    const schema = LIBRARY_FIELDS[kind] as z.ZodObject;
    const { table, links, key } = libraryOf(db, kind);
    const tableOf = table as unknown as { add(record: object): Promise<number>; get(id: number): Promise<LibraryRecord | undefined>; put(record: object): Promise<number>; delete(id: number): Promise<void>; toArray(): Promise<LibraryRecord[]> };
    return {
      create: async ({ fields }: { fields: unknown }) => {
        const parsed = parseFields(schema, fields);
        if (!parsed.ok) return parsed;
        return change(async () => {
          await ensureNameFree(kind, parsed.fields.name as string);
          const id = await tableOf.add({ ...parsed.fields, createdAt: now(), updatedAt: now() });
          return { ok: true as const, item: await itemViewOf<View>(kind, (await tableOf.get(id))!) };
        });
      },
      update: async ({ name, changes }: { name: string; changes: unknown }) =>
        change(async () => {
          const current = await itemNamed(kind, name);
          if (typeof changes !== 'object' || changes === null) return refusal('invalid', 'the changes must be an object of fields', 'changes');
          const parsed = parseFields(schema, { ...fieldsOf(schema, current), ...changes });
          if (!parsed.ok) return parsed;
          await ensureNameFree(kind, parsed.fields.name as string, current.id);
          await tableOf.put({ ...current, ...parsed.fields, updatedAt: now() });
          const personaIds = (await links.toArray()).filter((link) => (link as Record<string, number>)[key] === current.id).map((link) => link.personaId);
          for (const personaId of new Set(personaIds)) await touch(personaId);
          return { ok: true as const, item: await itemViewOf<View>(kind, (await tableOf.get(current.id))!) };
        }),
      delete: async ({ name, force }: { name: string; force: boolean }) =>
        change(async () => {
          const current = await itemNamed(kind, name);
          const linked = (await links.toArray()).filter((link) => (link as Record<string, number>)[key] === current.id);
          const inStages = kind === 'part' ? (await db.stageParts.toArray()).filter((link) => link.partId === current.id) : [];
          if (!force && (linked.length > 0 || inStages.length > 0)) {
            const users = (await db.personas.bulkGet(linked.map((link) => link.personaId))).flatMap((persona) => (persona ? [`persona "${persona.name}"`] : []));
            const stages = await Promise.all(inStages.map(async (link) => db.arcStages.get(link.stageId)));
            const stageUsers = stages.flatMap((stage) => (stage ? [`stage "${stage.name}"`] : []));
            return refusal('in-use', `"${name}" is used by ${[...users, ...stageUsers].join(', ')}; unlink it first, or delete it anyway`);
          }
          for (const link of linked) {
            await (links as unknown as { delete(key: [number, number]): Promise<void> }).delete([link.personaId, (link as Record<string, number>)[key]!]);
            await touch(link.personaId);
          }
          for (const link of inStages) await db.stageParts.delete([link.stageId, link.partId]);
          await tableOf.delete(current.id);
          return { ok: true as const };
        }),
      list: async (filter: { type?: string; tags?: string[]; text?: string }) =>
        read(async () => {
          const text = filter.text?.trim().toLowerCase() ?? '';
          const records = (await tableOf.toArray()).filter((record) => {
            const item = record as LibraryRecord & { type?: string; tags: string[]; description: string };
            if (filter.type !== undefined && item.type !== filter.type) return false;
            if (filter.tags && !filter.tags.every((tag) => item.tags.includes(tag))) return false;
            return text === '' || item.name.toLowerCase().includes(text) || item.description.toLowerCase().includes(text);
          });
          records.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
          return { items: await Promise.all(records.map((record) => itemViewOf<View>(kind, record))) };
        }),
      get: async ({ name }: { name: string }) =>
        read(async () => {
          const record = (await libraryOf(db, kind).table.where('name').equals(name).first()) as LibraryRecord | undefined;
          return record ? { ok: true as const, item: await itemViewOf<View>(kind, record) } : refusal('not-found', `there is no ${kind} named "${name}"`, 'name');
        }),
    };
  };

  const parts = libraryMethods<PartView>('part');
  const traits = libraryMethods<TraitView>('trait');
  const skills = libraryMethods<SkillView>('skill');
  const guardrails = libraryMethods<GuardrailView>('guardrail');

  const linkTable = (kind: LibraryKind) => libraryOf(db, kind).links as unknown as { get(key: [number, number]): Promise<unknown>; put(record: object): Promise<unknown>; delete(key: [number, number]): Promise<void> };
  const linkRecord = (kind: LibraryKind, personaId: number, itemId: number) => ({ personaId, [libraryOf(db, kind).key]: itemId });

  const stageMove = async (personaName: string, where: 'next' | 'first') =>
    change(async () => {
      const persona = await personaNamed(personaName, 'persona');
      const onArc = (await db.personaArcs.get(persona.id)) ?? refuse('invalid', `"${persona.name}" is on no arc; assign one first`, 'persona');
      const stages = await stagesOf(onArc.arcId);
      const index = stages.findIndex((stage) => stage.id === onArc.currentStageId);
      const target = where === 'first' ? stages[0] : stages[index + 1];
      if (!target) return refusal('invalid', `"${persona.name}" is already at the last stage, "${stages[index]?.name ?? '?'}"`, 'persona');
      await db.personaArcs.put({ ...onArc, currentStageId: target.id, updatedAt: now() });
      await touch(persona.id);
      await recompileIfCompiled(persona.id);
      return { ok: true as const, item: await summaryOf((await db.personas.get(persona.id))!) };
    });

  return {
    async personaCreate({ fields }) {
      const parsed = parseFields(personaFieldsSchema, fields);
      if (!parsed.ok) return parsed;
      return change(async () => {
        await ensureNameFree('persona', parsed.fields.name);
        const id = await db.personas.add({ ...parsed.fields, createdAt: now(), updatedAt: now() } as PersonaRecord);
        return { ok: true as const, item: await summaryOf((await db.personas.get(id))!) };
      });
    },

    async personaUpdate({ name, changes }) {
      return change(async () => {
        const current = await personaNamed(name);
        if (typeof changes !== 'object' || changes === null) return refusal('invalid', 'the changes must be an object of fields', 'changes');
        const parsed = parseFields(personaFieldsSchema, { ...fieldsOf(personaFieldsSchema, current), ...changes });
        if (!parsed.ok) return parsed;
        await ensureNameFree('persona', parsed.fields.name, current.id);
        await db.personas.put({ ...current, ...parsed.fields, updatedAt: now() });
        return { ok: true as const, item: await summaryOf((await db.personas.get(current.id))!) };
      });
    },

    async personaDelete({ name }) {
      return change(async () => {
        const persona = await personaNamed(name);
        for (const table of [db.personaParts, db.personaTraits, db.personaSkills, db.personaGuardrails]) await table.where('personaId').equals(persona.id).delete();
        await db.personaArcs.delete(persona.id);
        for (const { personaId, ...session } of await db.sessions.toArray()) if (personaId === persona.id) await db.sessions.put(session);
        await db.personas.delete(persona.id);
        return { ok: true as const };
      });
    },

    async personaList({ tags, text }) {
      return read(async () => {
        const wanted = text?.trim().toLowerCase() ?? '';
        const personas = (await db.personas.orderBy('name').toArray()).filter(
          (persona) =>
            (!tags || tags.every((tag) => persona.tags.includes(tag))) &&
            (wanted === '' || [persona.name, persona.description, persona.summary, ...persona.tags].some((value) => value.toLowerCase().includes(wanted))),
        );
        return { personas: await Promise.all(personas.map(summaryOf)) };
      });
    },

    async personaGet({ name, detail, overrides, types, limit, budgetTokens }) {
      return read(async () => {
        const persona = await db.personas.where('name').equals(name).first();
        if (!persona) return refusal('not-found', `there is no persona named "${name}"`, 'name');
        const resolved = await resolveOverrides(overrides);
        if ('ok' in resolved) return resolved;
        const definition = await readDefinition(db, persona);
        const result = assemblePersona(definition, { detail, overrides: resolved, types, limit, budgetTokens });
        if (!result.ok) return overBudgetRefusal(result.error);
        const compiled = compiledOf(persona, definition);
        return { ok: true as const, assembled: result.value, ...(compiled ? { compiled } : {}) };
      });
    },

    async personaDefinition({ name }) {
      return read(async () => {
        const persona = await db.personas.where('name').equals(name).first();
        if (!persona) return refusal('not-found', `there is no persona named "${name}"`, 'name');
        const definition = await readDefinition(db, persona);
        return {
          ok: true as const,
          definition: {
            persona: {
              name: persona.name,
              description: persona.description,
              summary: persona.summary,
              detail: persona.detail,
              tags: persona.tags,
              createdAt: persona.createdAt,
              updatedAt: persona.updatedAt,
              ...(persona.compiledAt !== undefined ? { compiledAt: persona.compiledAt } : {}),
            },
            parts: definition.parts.map(({ part, priority, pinned }) => ({ name: part.name, type: part.type, summary: part.summary, priority, pinned })),
            traits: definition.traits.map(({ name: traitName, type, description }) => ({ name: traitName, type, description })),
            skills: definition.skills.map(({ name: skillName, description }) => ({ name: skillName, description })),
            guardrails: definition.guardrails.map(({ name: guardrailName, description, severity, triggers, requireApproval }) => ({ name: guardrailName, description, severity, triggers, requireApproval })),
            ...(definition.arc ? { arc: { name: definition.arc.arc.name, stages: definition.arc.stages.map((stage) => stage.name), currentStage: definition.arc.current.name } } : {}),
          },
        };
      });
    },

    async personaCompile({ name }) {
      return change(async () => {
        const persona = await personaNamed(name);
        const definition = await readDefinition(db, persona);
        const compiled = compiledNow(definition);
        // Compiling is not an edit: updatedAt stays, so the catalog's order and "changed" marks mean edits.
        await db.personas.put({ ...persona, ...compiled });
        return { ok: true as const, compiled: compiledOf({ ...persona, ...compiled }, definition)! };
      });
    },

    async personaManifest({ name }) {
      return read(async () => {
        const persona = await db.personas.where('name').equals(name).first();
        if (!persona) return refusal('not-found', `there is no persona named "${name}"`, 'name');
        const definition = await readDefinition(db, persona);
        const manifest: PersonaManifest = {
          name: persona.name,
          description: persona.description,
          parts: definition.parts.map(({ part, pinned, priority }) => ({
            name: part.name,
            type: part.type,
            description: part.description,
            summaryTokens: estimateTokens(part.summary),
            detailTokens: estimateTokens(part.content.trim() !== '' ? part.content : part.summary),
            pinned,
            priority,
          })),
          traits: definition.traits.map((trait) => ({ name: trait.name, type: trait.type, description: trait.description, tokens: estimateTokens(trait.instruction || trait.description) })),
          skills: definition.skills.map((skill) => ({ name: skill.name, tokens: estimateTokens(skill.content || skill.description) })),
          guardrails: definition.guardrails.map((guardrail) => ({ name: guardrail.name, tokens: estimateTokens(guardrail.content || guardrail.description) })),
          ...(definition.arc ? { arc: { name: definition.arc.arc.name, stage: definition.arc.current.name } } : {}),
          tokens: {
            summary: assembled(definition, false).tokens,
            detail: assembled(definition, true).tokens,
            ...(persona.compiledSummary !== undefined ? { compiled: estimateTokens(persona.compiledSummary) } : {}),
          },
          onDemand: [
            { call: 'partGet(name)', loads: "a part's full content" },
            { call: 'traitGet(name)', loads: "a trait's instruction" },
            { call: 'skillGet(name)', loads: "a skill's content" },
            { call: 'guardrailGet(name)', loads: "a guardrail's content, severity and triggers" },
            { call: 'personaGet(name, {detail, overrides, types, limit, budgetTokens})', loads: 'the assembled prompt' },
            { call: 'personaCompile(name)', loads: 'the pre-merged compiled summary and detail, stored for reuse' },
          ],
        };
        return { ok: true as const, manifest };
      });
    },

    async personaLink({ persona: personaName, kind, name, link }) {
      return change(async () => {
        const persona = await personaNamed(personaName, 'persona');
        const item = await itemNamed(kind, name);
        if (kind === 'part') {
          const existing = await db.personaParts.get([persona.id, item.id]);
          const order = existing?.order ?? (await db.personaParts.where('personaId').equals(persona.id).toArray()).reduce((last, other) => Math.max(last, other.order + 1), 0);
          await db.personaParts.put({ personaId: persona.id, partId: item.id, order, priority: link?.priority ?? existing?.priority ?? 0, pinned: link?.pinned ?? existing?.pinned ?? false });
        } else await linkTable(kind).put(linkRecord(kind, persona.id, item.id));
        await touch(persona.id);
        return { ok: true as const };
      });
    },

    async personaUnlink({ persona: personaName, kind, name }) {
      return change(async () => {
        const persona = await personaNamed(personaName, 'persona');
        const item = await itemNamed(kind, name);
        if (!(await linkTable(kind).get([persona.id, item.id]))) return refusal('not-found', `"${name}" is not linked to "${persona.name}"`, 'name');
        await linkTable(kind).delete([persona.id, item.id]);
        await touch(persona.id);
        return { ok: true as const };
      });
    },

    async personaArrangeParts({ persona: personaName, parts: arranged }) {
      return change(async () => {
        const persona = await personaNamed(personaName, 'persona');
        const links = await db.personaParts.where('personaId').equals(persona.id).toArray();
        const linkedParts = await db.parts.bulkGet(links.map((link) => link.partId));
        const idByName = new Map(linkedParts.flatMap((part) => (part ? [[part.name, part.id] as const] : [])));
        const names = arranged.map((part) => part.name);
        const missing = [...idByName.keys()].filter((partName) => !names.includes(partName));
        const unknown = names.filter((partName) => !idByName.has(partName));
        if (unknown.length > 0 || missing.length > 0 || new Set(names).size !== names.length)
          return refusal('invalid', `list each of the persona's parts once${unknown.length > 0 ? `; not linked: ${unknown.join(', ')}` : ''}${missing.length > 0 ? `; missing: ${missing.join(', ')}` : ''}`, 'parts');
        for (const [order, part] of arranged.entries()) await db.personaParts.put({ personaId: persona.id, partId: idByName.get(part.name)!, order, priority: part.priority, pinned: part.pinned });
        await touch(persona.id);
        return { ok: true as const };
      });
    },

    partCreate: parts.create,
    partUpdate: parts.update,
    partDelete: parts.delete,
    partList: parts.list,
    partGet: parts.get,
    traitCreate: traits.create,
    traitUpdate: traits.update,
    traitDelete: traits.delete,
    traitList: traits.list,
    traitGet: traits.get,
    skillCreate: skills.create,
    skillUpdate: skills.update,
    skillDelete: skills.delete,
    skillList: skills.list,
    skillGet: skills.get,
    guardrailCreate: guardrails.create,
    guardrailUpdate: guardrails.update,
    guardrailDelete: guardrails.delete,
    guardrailList: guardrails.list,
    guardrailGet: guardrails.get,

    async arcCreate({ fields, stages }) {
      const parsed = parseFields(arcFieldsSchema, fields);
      if (!parsed.ok) return parsed;
      const stageFields: z.output<typeof arcStageFieldsSchema>[] = [];
      for (const [index, stage] of stages.entries()) {
        const parsedStage = parseFields(arcStageFieldsSchema, stage);
        if (!parsedStage.ok) return { ...parsedStage, problems: parsedStage.problems.map((problem) => ({ ...problem, path: `stages.${index}${problem.path ? `.${problem.path}` : ''}` })) };
        stageFields.push(parsedStage.fields);
      }
      const duplicate = stageFields.find((stage, index) => stageFields.findIndex((other) => other.name === stage.name) !== index);
      if (duplicate) return refusal('invalid', `two stages are named "${duplicate.name}"`, 'stages');
      return change(async () => {
        await ensureNameFree('arc', parsed.fields.name);
        const arcId = await db.arcs.add({ ...parsed.fields, createdAt: now(), updatedAt: now() } as ArcRecord);
        for (const [position, stage] of stageFields.entries()) await db.arcStages.add({ ...stage, arcId, position, createdAt: now() } as never);
        return { ok: true as const, item: await arcViewOf((await db.arcs.get(arcId))!) };
      });
    },

    async arcList() {
      return read(async () => ({ arcs: await Promise.all((await db.arcs.orderBy('name').toArray()).map(arcViewOf)) }));
    },

    async arcGet({ name }) {
      return read(async () => {
        const arc = await db.arcs.where('name').equals(name).first();
        return arc ? { ok: true as const, item: await arcViewOf(arc) } : refusal('not-found', `there is no arc named "${name}"`, 'name');
      });
    },

    async arcDelete({ name }) {
      return change(async () => {
        const arc = await arcNamed(name, 'name');
        const onArc = await db.personaArcs.where('arcId').equals(arc.id).toArray();
        if (onArc.length > 0) {
          const personas = (await db.personas.bulkGet(onArc.map((link) => link.personaId))).flatMap((persona) => (persona ? [`"${persona.name}"`] : []));
          return refusal('in-use', `${personas.join(', ')} ${personas.length === 1 ? 'is' : 'are'} on this arc; take ${personas.length === 1 ? 'it' : 'them'} off first`);
        }
        for (const stage of await stagesOf(arc.id)) {
          await db.stageParts.where('stageId').equals(stage.id).delete();
          await db.arcStages.delete(stage.id);
        }
        await db.arcs.delete(arc.id);
        return { ok: true as const };
      });
    },

    async arcStageAdd({ arc: arcName, fields, position }) {
      const parsed = parseFields(arcStageFieldsSchema, fields);
      if (!parsed.ok) return parsed;
      return change(async () => {
        const arc = await arcNamed(arcName);
        const stages = await stagesOf(arc.id);
        if (stages.some((stage) => stage.name === parsed.fields.name)) return refusal('name-taken', `the arc already has a stage named "${parsed.fields.name}"`, 'name');
        const at = Math.min(position ?? stages.length, stages.length);
        for (const stage of stages) if (stage.position >= at) await db.arcStages.update(stage.id, { position: stage.position + 1 });
        await db.arcStages.add({ ...parsed.fields, arcId: arc.id, position: at, createdAt: now() } as never);
        await db.arcs.update(arc.id, { updatedAt: now() });
        return { ok: true as const, item: await arcViewOf((await db.arcs.get(arc.id))!) };
      });
    },

    async arcStageRemove({ arc: arcName, stage: stageName }) {
      return change(async () => {
        const arc = await arcNamed(arcName);
        const stage = await stageNamed(arc, stageName);
        const atStage = (await db.personaArcs.where('arcId').equals(arc.id).toArray()).filter((link) => link.currentStageId === stage.id);
        if (atStage.length > 0) return refusal('in-use', `a persona is at the stage "${stage.name}"; move it first`, 'stage');
        await db.stageParts.where('stageId').equals(stage.id).delete();
        await db.arcStages.delete(stage.id);
        for (const [position, other] of (await stagesOf(arc.id)).entries()) await db.arcStages.update(other.id, { position });
        await db.arcs.update(arc.id, { updatedAt: now() });
        return { ok: true as const, item: await arcViewOf((await db.arcs.get(arc.id))!) };
      });
    },

    async stagePartAdd({ arc: arcName, stage: stageName, part: partName }) {
      return change(async () => {
        const arc = await arcNamed(arcName);
        const stage = await stageNamed(arc, stageName);
        const part = await itemNamed('part', partName, 'part');
        await db.stageParts.put({ stageId: stage.id, partId: part.id });
        await db.arcs.update(arc.id, { updatedAt: now() });
        return { ok: true as const, item: await arcViewOf((await db.arcs.get(arc.id))!) };
      });
    },

    async stagePartRemove({ arc: arcName, stage: stageName, part: partName }) {
      return change(async () => {
        const arc = await arcNamed(arcName);
        const stage = await stageNamed(arc, stageName);
        const part = await itemNamed('part', partName, 'part');
        if (!(await db.stageParts.get([stage.id, part.id]))) return refusal('not-found', `the stage "${stage.name}" has no part "${part.name}"`, 'part');
        await db.stageParts.delete([stage.id, part.id]);
        await db.arcs.update(arc.id, { updatedAt: now() });
        return { ok: true as const, item: await arcViewOf((await db.arcs.get(arc.id))!) };
      });
    },

    async personaArcAssign({ persona: personaName, arc: arcName, stage: stageName }) {
      return change(async () => {
        const persona = await personaNamed(personaName, 'persona');
        if (arcName === null) await db.personaArcs.delete(persona.id);
        else {
          const arc = await arcNamed(arcName);
          const stages = await stagesOf(arc.id);
          const stage = stageName !== undefined ? await stageNamed(arc, stageName) : (stages[0] ?? refuse('invalid', `the arc "${arc.name}" has no stages yet; add one first`, 'arc'));
          await db.personaArcs.put({ personaId: persona.id, arcId: arc.id, currentStageId: stage.id, updatedAt: now() });
        }
        await touch(persona.id);
        await recompileIfCompiled(persona.id);
        return { ok: true as const, item: await summaryOf((await db.personas.get(persona.id))!) };
      });
    },

    personaStageAdvance: ({ persona }) => stageMove(persona, 'next'),
    personaStageReset: ({ persona }) => stageMove(persona, 'first'),

    ...personaFilesService(context, { change, read, summaryOf }),

    async sessionPersonaGet({ sessionId }) {
      const session = await sessionOf(sessionId);
      return read(async () => {
        const persona = session.personaId !== undefined ? await db.personas.get(session.personaId) : undefined;
        return persona ? { persona: await summaryOf(persona) } : {};
      });
    },

    async sessionPersonaSet({ sessionId, persona: personaName }) {
      await sessionOf(sessionId);
      return change(async () => {
        const session = (await db.sessions.get(sessionId))!;
        const persona = personaName === null ? undefined : await personaNamed(personaName, 'persona');
        const { personaId: _worn, ...rest } = session;
        await db.sessions.put({ ...rest, ...(persona ? { personaId: persona.id } : {}), updatedAt: now() });
        return { ok: true as const, ...(persona ? { persona: await summaryOf(persona) } : {}) };
      });
    },
  };
}
