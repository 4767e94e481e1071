import { existsSync } from 'node:fs';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { describeProblem, type Problem, problemsFromZod } from '#core/result.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import {
  arcRecordSchema,
  arcStageRecordSchema,
  guardrailRecordSchema,
  keptFieldsSchema,
  partRecordSchema,
  personaRecordSchema,
  skillRecordSchema,
  traitRecordSchema,
  type PersonaRecord,
} from '#core/records/persona-catalog.ts';
import { catalogTables } from '#core/personas/persona-catalog-read.ts';
import { readJson, sizeText } from '#core/safe-json.ts';
import { sessionIdSchema } from '#core/names.ts';
import { CliError } from './snapshot-file.ts';

/**
 * The persona catalog as the CLI keeps it: one JSON file, standing in for the device's IndexedDB
 * in the app. A session snapshot holds one session and leaves the catalog out (the catalog is
 * the device's, shared by sessions), so the catalog travels in a file of its own. Rows keep
 * their ids: links, arcs and the persona a session wears refer to them.
 */
const CATALOG_FILE_FORMAT = 'anima-catalog';
const CATALOG_FILE_VERSION = 1;
/** The largest catalog file read, and so written: a few hundred personas with their card images fit. */
export const MAX_CATALOG_FILE_BYTES = 256 * 2 ** 20;

const id = z.number().int().nonnegative();

/** A session of some snapshot and the persona it wears. Kept here because a snapshot, by design, does not name device-local personas. */
const wornSchema = z.object({ sessionId: sessionIdSchema, personaId: id }).strict();
type WornPersonaEntry = z.infer<typeof wornSchema>;

const catalogFileSchema = z
  .object({
    format: z.literal(CATALOG_FILE_FORMAT),
    version: z.literal(CATALOG_FILE_VERSION),
    // JSON has no bytes: a card's image is written as base64.
    personas: z.array(
      personaRecordSchema
        .extend({
          card: z
            .object({ extras: keptFieldsSchema, extensions: keptFieldsSchema, image: z.base64().optional() })
            .strict()
            .optional(),
        })
        .strict(),
    ),
    parts: z.array(partRecordSchema.strict()),
    traits: z.array(traitRecordSchema.strict()),
    skills: z.array(skillRecordSchema.strict()),
    guardrails: z.array(guardrailRecordSchema.strict()),
    arcs: z.array(arcRecordSchema.strict()),
    arcStages: z.array(arcStageRecordSchema.strict()),
    personaParts: z.array(
      z
        .object({ personaId: id, partId: id, order: z.number(), priority: z.number().int(), pinned: z.boolean() })
        .strict(),
    ),
    personaTraits: z.array(z.object({ personaId: id, traitId: id }).strict()),
    personaSkills: z.array(z.object({ personaId: id, skillId: id }).strict()),
    personaGuardrails: z.array(z.object({ personaId: id, guardrailId: id }).strict()),
    stageParts: z.array(z.object({ stageId: id, partId: id }).strict()),
    personaArcs: z.array(z.object({ personaId: id, arcId: id, currentStageId: id, updatedAt: z.number() }).strict()),
    worn: z.array(wornSchema),
  })
  .strict();
type CatalogFile = z.infer<typeof catalogFileSchema>;

/** The catalog loaded into a CLI command's database, and how to write it back. */
export type CliCatalog = {
  /** Writes the catalog (and the persona each loaded session wears) back to its file; a temporary file first, so a crash never leaves half a catalog. */
  save: () => Promise<void>;
};

/**
 * Loads the catalog file into the database, checked completely first. A missing file is an
 * empty catalog, or an error when `mustExist` (only an import creates a catalog, as only an
 * import or a run creates a snapshot). Call it after the snapshot is restored: a loaded session
 * gets back the persona the catalog says it wears.
 */
export async function openCatalog(
  db: AnimaDatabase,
  path: string,
  { mustExist }: { mustExist: boolean },
): Promise<CliCatalog> {
  let worn: WornPersonaEntry[] = [];
  const save = async () => {
    const text = `${JSON.stringify(await readCatalog(db, worn), null, 2)}\n`;
    const size = Buffer.byteLength(text);
    if (size > MAX_CATALOG_FILE_BYTES)
      throw new CliError(
        `${path}: the catalog would be ${sizeText(size)}, more than the ${sizeText(MAX_CATALOG_FILE_BYTES)} a catalog file holds; the file was left as it was`,
      );
    const temporary = `${path}.tmp-${process.pid}`;
    await writeFile(temporary, text);
    await rename(temporary, path);
  };
  if (!existsSync(path)) {
    if (mustExist)
      throw new CliError(`no catalog at ${path} (\`anima persona import FILE --catalog ${path}\` creates it)`);
    return { save };
  }
  let bytes: Uint8Array;
  try {
    // The size first: a file far too large is refused without being read.
    const { size } = await stat(path);
    if (size > MAX_CATALOG_FILE_BYTES)
      throw new CliError(
        `${path}: the catalog is ${sizeText(size)}, more than the ${sizeText(MAX_CATALOG_FILE_BYTES)} Anima reads`,
      );
    bytes = await readFile(path);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${path}: not a readable catalog (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = readCatalogFile(bytes);
  if (!parsed.ok)
    throw new CliError(
      [
        `${path}: not a valid Anima persona catalog:`,
        ...parsed.problems.slice(0, 20).map((problem) => `  ${describeProblem(problem)}`),
      ].join('\n'),
    );
  await writeCatalog(db, parsed.catalog);
  worn = parsed.catalog.worn;
  return { save };
}

/** Reads a catalog file's bytes: its JSON, its shape, then that every reference names a row of the file and every name is unique in its kind. */
export function readCatalogFile(
  bytes: Uint8Array,
): { ok: true; catalog: CatalogFile } | { ok: false; problems: Problem[] } {
  const json = readJson(bytes, { maxBytes: MAX_CATALOG_FILE_BYTES });
  if (!json.ok) return { ok: false, problems: json.error };
  const parsed = catalogFileSchema.safeParse(json.value);
  if (!parsed.success) return { ok: false, problems: problemsFromZod(parsed.error) };
  const catalog = parsed.data;
  const problems: Problem[] = [];
  const rowsOf = (table: 'personas' | 'parts' | 'traits' | 'skills' | 'guardrails' | 'arcs' | 'arcStages') => {
    const ids = new Set<number>();
    const names = new Set<string>();
    for (const [index, row] of catalog[table].entries()) {
      if (ids.has(row.id)) problems.push({ path: `${table}.${index}.id`, message: `id ${row.id} appears twice` });
      ids.add(row.id);
      // Stage names are unique within their arc only (checked below).
      if (table !== 'arcStages' && names.has(row.name))
        problems.push({ path: `${table}.${index}.name`, message: `"${row.name}" appears twice` });
      names.add(row.name);
    }
    return ids;
  };
  const personaIds = rowsOf('personas');
  const partIds = rowsOf('parts');
  const traitIds = rowsOf('traits');
  const skillIds = rowsOf('skills');
  const guardrailIds = rowsOf('guardrails');
  const arcIds = rowsOf('arcs');
  const stageIds = rowsOf('arcStages');
  /** Each reference must name a row; a link (`isLink`) must also appear once, as its primary key in the database. */
  const refers = <Row extends object>(
    table: keyof CatalogFile,
    rows: Row[],
    references: [keyof Row & string, Set<number>, string][],
    isLink = true,
  ) => {
    const keys = new Set<string>();
    for (const [index, row] of rows.entries()) {
      for (const [field, ids, what] of references) {
        const referenced = row[field] as number;
        if (!ids.has(referenced))
          problems.push({
            path: `${table}.${index}.${field}`,
            message: `${referenced} is not ${what} of this catalog`,
          });
      }
      const key = references.map(([field]) => row[field]).join(' ');
      if (isLink && keys.has(key)) problems.push({ path: `${table}.${index}`, message: 'this link appears twice' });
      keys.add(key);
    }
  };
  refers('personaParts', catalog.personaParts, [
    ['personaId', personaIds, 'a persona'],
    ['partId', partIds, 'a part'],
  ]);
  refers('personaTraits', catalog.personaTraits, [
    ['personaId', personaIds, 'a persona'],
    ['traitId', traitIds, 'a trait'],
  ]);
  refers('personaSkills', catalog.personaSkills, [
    ['personaId', personaIds, 'a persona'],
    ['skillId', skillIds, 'a skill'],
  ]);
  refers('personaGuardrails', catalog.personaGuardrails, [
    ['personaId', personaIds, 'a persona'],
    ['guardrailId', guardrailIds, 'a guardrail'],
  ]);
  refers('stageParts', catalog.stageParts, [
    ['stageId', stageIds, 'a stage'],
    ['partId', partIds, 'a part'],
  ]);
  refers('arcStages', catalog.arcStages, [['arcId', arcIds, 'an arc']], false);
  refers('personaArcs', catalog.personaArcs, [['personaId', personaIds, 'a persona']]);
  refers('personaArcs', catalog.personaArcs, [['arcId', arcIds, 'an arc']], false);
  refers('worn', catalog.worn, [['personaId', personaIds, 'a persona']], false);
  const stageNames = new Set<string>();
  for (const [index, stage] of catalog.arcStages.entries()) {
    const key = `${stage.arcId} ${stage.name}`;
    if (stageNames.has(key))
      problems.push({
        path: `arcStages.${index}.name`,
        message: `the arc ${stage.arcId} has two stages named "${stage.name}"`,
      });
    stageNames.add(key);
  }
  for (const [index, onArc] of catalog.personaArcs.entries()) {
    const stage = catalog.arcStages.find((candidate) => candidate.id === onArc.currentStageId);
    if (stage?.arcId !== onArc.arcId)
      problems.push({
        path: `personaArcs.${index}.currentStageId`,
        message: `${onArc.currentStageId} is not a stage of the arc ${onArc.arcId}`,
      });
  }
  const wornSessions = new Set<string>();
  for (const [index, entry] of catalog.worn.entries()) {
    if (wornSessions.has(entry.sessionId))
      problems.push({ path: `worn.${index}.sessionId`, message: `the session ${entry.sessionId} appears twice` });
    wornSessions.add(entry.sessionId);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, catalog };
}

/** Fills the database's empty catalog tables from a checked file, and puts each loaded session's persona back on it. */
async function writeCatalog(db: AnimaDatabase, catalog: CatalogFile): Promise<void> {
  const personas = catalog.personas.map(({ card, ...persona }): PersonaRecord => {
    if (!card) return persona;
    const { image, ...kept } = card;
    return {
      ...persona,
      card: { ...kept, ...(image !== undefined ? { image: new Uint8Array(Buffer.from(image, 'base64')) } : {}) },
    };
  });
  await db.transaction('rw', catalogTables(db), async () => {
    await db.personas.bulkAdd(personas);
    await db.parts.bulkAdd(catalog.parts);
    await db.traits.bulkAdd(catalog.traits);
    await db.skills.bulkAdd(catalog.skills);
    await db.guardrails.bulkAdd(catalog.guardrails);
    await db.arcs.bulkAdd(catalog.arcs);
    await db.arcStages.bulkAdd(catalog.arcStages);
    await db.personaParts.bulkAdd(catalog.personaParts);
    await db.personaTraits.bulkAdd(catalog.personaTraits);
    await db.personaSkills.bulkAdd(catalog.personaSkills);
    await db.personaGuardrails.bulkAdd(catalog.personaGuardrails);
    await db.stageParts.bulkAdd(catalog.stageParts);
    await db.personaArcs.bulkAdd(catalog.personaArcs);
    for (const entry of catalog.worn) await db.sessions.update(entry.sessionId, { personaId: entry.personaId });
  });
}

/**
 * The catalog in the database as a file, in key order (the same catalog gives the same bytes).
 * The persona each loaded session wears comes from the database; the file's entries for
 * sessions this command did not load are kept, unless their persona is gone.
 */
async function readCatalog(db: AnimaDatabase, previouslyWorn: WornPersonaEntry[]): Promise<CatalogFile> {
  return db.transaction('r', catalogTables(db), async () => {
    const sessions = await db.sessions.toArray();
    const loaded = new Set(sessions.map((session) => session.id));
    const personas = await db.personas.toArray();
    const personaIds = new Set(personas.map((persona) => persona.id));
    const worn = [
      ...previouslyWorn.filter((entry) => !loaded.has(entry.sessionId)),
      ...sessions.flatMap((session) =>
        session.personaId !== undefined ? [{ sessionId: session.id, personaId: session.personaId }] : [],
      ),
    ]
      .filter((entry) => personaIds.has(entry.personaId))
      .sort((left, right) => (left.sessionId < right.sessionId ? -1 : left.sessionId > right.sessionId ? 1 : 0));
    // Passing it through the schema fixes the key order of every row.
    return catalogFileSchema.parse({
      format: CATALOG_FILE_FORMAT,
      version: CATALOG_FILE_VERSION,
      personas: personas.map(({ card, ...persona }) => {
        if (!card) return persona;
        const { image, ...kept } = card;
        return { ...persona, card: { ...kept, ...(image ? { image: Buffer.from(image).toString('base64') } : {}) } };
      }),
      parts: await db.parts.toArray(),
      traits: await db.traits.toArray(),
      skills: await db.skills.toArray(),
      guardrails: await db.guardrails.toArray(),
      arcs: await db.arcs.toArray(),
      arcStages: await db.arcStages.toArray(),
      personaParts: await db.personaParts.toArray(),
      personaTraits: await db.personaTraits.toArray(),
      personaSkills: await db.personaSkills.toArray(),
      personaGuardrails: await db.personaGuardrails.toArray(),
      stageParts: await db.stageParts.toArray(),
      personaArcs: await db.personaArcs.toArray(),
      worn,
    });
  });
}
