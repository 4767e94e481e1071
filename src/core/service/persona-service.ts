import type { AgentServiceImplementation } from '#core/api.ts';
import type { ServiceContext } from './service-context.ts';
import { assemblePersona } from '#core/personas/assemble.ts';
import { personaFieldsSchema, type PersonaRecord } from '#core/records/persona-catalog.ts';
import { readDefinition } from '#core/personas/persona-catalog-read.ts';
import {
  type GuardrailView,
  type PartView,
  type PersonaManifest,
  type personaContract,
  type SkillView,
  type TraitView,
  libraryMethodsOf,
} from '#core/api/persona-contract.ts';
import { personaFilesService } from './persona-files-service.ts';
import { estimateTokens } from '#core/personas/token-estimate.ts';
import { catalogHelpers, fieldsOf, parseFields, refusal } from './persona-catalog-helpers.ts';
import { libraryService } from './persona-library-service.ts';
import { personaArcService } from './persona-arc-service.ts';

type PersonaMethods = keyof typeof personaContract;

/** The persona catalog's slice of the AgentService: personas, joined with the libraries', the arcs' and the files' methods. */
export function personaService(context: ServiceContext): Pick<AgentServiceImplementation, PersonaMethods> {
  const { db, now, sessionOf } = context;
  const helpers = catalogHelpers(context);
  const {
    change,
    read,
    personaNamed,
    itemNamed,
    ensureNameFree,
    summaryOf,
    touch,
    compiledNow,
    resolveOverrides,
    assembled,
    overBudgetRefusal,
    compiledOf,
    linkTable,
    linkRecord,
  } = helpers;

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
        if (typeof changes !== 'object' || changes === null)
          return refusal('invalid', 'the changes must be an object of fields', 'changes');
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
        for (const table of [db.personaParts, db.personaTraits, db.personaSkills, db.personaGuardrails])
          await table.where('personaId').equals(persona.id).delete();
        await db.personaArcs.delete(persona.id);
        for (const { personaId, ...session } of await db.sessions.toArray())
          if (personaId === persona.id) await db.sessions.put(session);
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
            (wanted === '' ||
              [persona.name, persona.description, persona.summary, ...persona.tags].some((value) =>
                value.toLowerCase().includes(wanted),
              )),
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
            parts: definition.parts.map(({ part, priority, pinned }) => ({
              name: part.name,
              type: part.type,
              summary: part.summary,
              priority,
              pinned,
            })),
            traits: definition.traits.map(({ name: traitName, type, description }) => ({
              name: traitName,
              type,
              description,
            })),
            skills: definition.skills.map(({ name: skillName, description }) => ({ name: skillName, description })),
            guardrails: definition.guardrails.map(
              ({ name: guardrailName, description, severity, triggers, requireApproval }) => ({
                name: guardrailName,
                description,
                severity,
                triggers,
                requireApproval,
              }),
            ),
            ...(definition.arc
              ? {
                  arc: {
                    name: definition.arc.arc.name,
                    stages: definition.arc.stages.map((stage) => stage.name),
                    currentStage: definition.arc.current.name,
                  },
                }
              : {}),
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
          traits: definition.traits.map((trait) => ({
            name: trait.name,
            type: trait.type,
            description: trait.description,
            tokens: estimateTokens(trait.instruction || trait.description),
          })),
          skills: definition.skills.map((skill) => ({
            name: skill.name,
            tokens: estimateTokens(skill.content || skill.description),
          })),
          guardrails: definition.guardrails.map((guardrail) => ({
            name: guardrail.name,
            tokens: estimateTokens(guardrail.content || guardrail.description),
          })),
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
            {
              call: 'personaGet(name, {detail, overrides, types, limit, budgetTokens})',
              loads: 'the assembled prompt',
            },
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
          const order =
            existing?.order ??
            (await db.personaParts.where('personaId').equals(persona.id).toArray()).reduce(
              (last, other) => Math.max(last, other.order + 1),
              0,
            );
          await db.personaParts.put({
            personaId: persona.id,
            partId: item.id,
            order,
            priority: link?.priority ?? existing?.priority ?? 0,
            pinned: link?.pinned ?? existing?.pinned ?? false,
          });
        } else await linkTable(kind).put(linkRecord(kind, persona.id, item.id));
        await touch(persona.id);
        return { ok: true as const };
      });
    },

    async personaUnlink({ persona: personaName, kind, name }) {
      return change(async () => {
        const persona = await personaNamed(personaName, 'persona');
        const item = await itemNamed(kind, name);
        if (!(await linkTable(kind).get([persona.id, item.id])))
          return refusal('not-found', `"${name}" is not linked to "${persona.name}"`, 'name');
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
          return refusal(
            'invalid',
            `list each of the persona's parts once${unknown.length > 0 ? `; not linked: ${unknown.join(', ')}` : ''}${missing.length > 0 ? `; missing: ${missing.join(', ')}` : ''}`,
            'parts',
          );
        for (const [order, part] of arranged.entries())
          await db.personaParts.put({
            personaId: persona.id,
            partId: idByName.get(part.name)!,
            order,
            priority: part.priority,
            pinned: part.pinned,
          });
        await touch(persona.id);
        return { ok: true as const };
      });
    },
    ...libraryMethodsOf('part', libraryService<PartView>(context, helpers, 'part')),
    ...libraryMethodsOf('trait', libraryService<TraitView>(context, helpers, 'trait')),
    ...libraryMethodsOf('skill', libraryService<SkillView>(context, helpers, 'skill')),
    ...libraryMethodsOf('guardrail', libraryService<GuardrailView>(context, helpers, 'guardrail')),
    ...personaArcService(context, helpers),

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
