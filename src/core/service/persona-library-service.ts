import type { z } from 'zod';
import type { ServiceContext } from './service-context.ts';
import { LIBRARY_FIELDS } from '#core/api/persona-contract.ts';
import {
  type CatalogHelpers,
  fieldsOf,
  type LibraryKind,
  libraryOf,
  type LibraryRecord,
  parseFields,
  refusal,
} from './persona-catalog-helpers.ts';

/** Create, update, delete, list and get for one library of the catalog (parts, traits, skills or guardrails). */
export function libraryService<View>(context: ServiceContext, helpers: CatalogHelpers, kind: LibraryKind) {
  const { db, now } = context;
  const { change, read, itemNamed, ensureNameFree, itemViewOf, touch } = helpers;
  const schema = LIBRARY_FIELDS[kind] as z.ZodObject;
  const { table, links, key } = libraryOf(db, kind);
  const tableOf = table as unknown as {
    add(record: object): Promise<number>;
    get(id: number): Promise<LibraryRecord | undefined>;
    put(record: object): Promise<number>;
    delete(id: number): Promise<void>;
    toArray(): Promise<LibraryRecord[]>;
  };
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
        if (typeof changes !== 'object' || changes === null)
          return refusal('invalid', 'the changes must be an object of fields', 'changes');
        const parsed = parseFields(schema, { ...fieldsOf(schema, current), ...changes });
        if (!parsed.ok) return parsed;
        await ensureNameFree(kind, parsed.fields.name as string, current.id);
        await tableOf.put({ ...current, ...parsed.fields, updatedAt: now() });
        const personaIds = (await links.toArray())
          .filter((link) => (link as Record<string, number>)[key] === current.id)
          .map((link) => link.personaId);
        for (const personaId of new Set(personaIds)) await touch(personaId);
        return { ok: true as const, item: await itemViewOf<View>(kind, (await tableOf.get(current.id))!) };
      }),
    delete: async ({ name, force }: { name: string; force: boolean }) =>
      change(async () => {
        const current = await itemNamed(kind, name);
        const linked = (await links.toArray()).filter((link) => (link as Record<string, number>)[key] === current.id);
        const inStages =
          kind === 'part' ? (await db.stageParts.toArray()).filter((link) => link.partId === current.id) : [];
        if (!force && (linked.length > 0 || inStages.length > 0)) {
          const users = (await db.personas.bulkGet(linked.map((link) => link.personaId))).flatMap((persona) =>
            persona ? [`persona "${persona.name}"`] : [],
          );
          const stages = await Promise.all(inStages.map(async (link) => db.arcStages.get(link.stageId)));
          const stageUsers = stages.flatMap((stage) => (stage ? [`stage "${stage.name}"`] : []));
          return refusal(
            'in-use',
            `"${name}" is used by ${[...users, ...stageUsers].join(', ')}; unlink it first, or delete it anyway`,
          );
        }
        for (const link of linked) {
          await (links as unknown as { delete(key: [number, number]): Promise<void> }).delete([
            link.personaId,
            (link as Record<string, number>)[key]!,
          ]);
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
        const record = (await libraryOf(db, kind).table.where('name').equals(name).first()) as
          LibraryRecord | undefined;
        return record
          ? { ok: true as const, item: await itemViewOf<View>(kind, record) }
          : refusal('not-found', `there is no ${kind} named "${name}"`, 'name');
      }),
  };
}
