import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { expect, test } from 'vitest';
import { catalogTables } from '#core/personas/persona-catalog-read.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { fuzzCaseCount, runFuzzKind } from '#core/testing/fuzz.ts';
import { jsonCaseText, refusalText } from '#core/testing/json-fuzz.ts';
import { buildMentorCatalog } from '#core/testing/mentor-catalog.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { openCatalog, readCatalogFile } from './catalog-file.ts';

const CASES = fuzzCaseCount();
/** Loading into a database is slower than reading: every 20th case is loaded (and saved back) as well. */
const DATABASE_EVERY = 20;
const CATALOG_KEYS = [
  'format',
  'version',
  'personas',
  'parts',
  'arcs',
  'arcStages',
  'personaParts',
  'worn',
  'id',
  'name',
  'personaId',
  'partId',
  'sessionId',
];

/** Rows in every catalog table of a database. */
async function catalogRows(db: AnimaDatabase): Promise<number> {
  const counts = await Promise.all(catalogTables(db).map((table) => table.count()));
  return counts.reduce((sum, count) => sum + count, 0);
}

// About 2 s per 1,000 cases here (most of it the loads); the timeout leaves room for 10,000 on a loaded machine.
test(
  `persona catalog reading survives ${CASES} random and broken files, and a refused one loads nothing`,
  { timeout: 600_000 },
  async () => {
    const folder = await mkdtemp(join(tmpdir(), 'anima-catalog-fuzz-'));
    const path = join(folder, 'catalog.json');
    const source = testService();
    const made = await openCatalog(source.db, path, { mustExist: false });
    await buildMentorCatalog(source.service);
    const { session } = await source.service.open({});
    await source.service.personaArcAssign({ persona: 'Mentor', arc: 'growth' });
    await source.service.sessionPersonaSet({ sessionId: session.id, persona: 'Mentor' });
    await made.save();
    const documents = [JSON.parse(await readFile(path, 'utf8'))];

    const report = await runFuzzKind({
      kind: 'persona catalog',
      seed: 0xca7a_1096,
      generate: (random, index) => ({
        bytes: new TextEncoder().encode(jsonCaseText(random, documents, CATALOG_KEYS)),
        index,
      }),
      describe: ({ bytes }) => JSON.stringify(new TextDecoder().decode(bytes)),
      read: async ({ bytes, index }) => {
        const read = readCatalogFile(bytes);
        if (index % DATABASE_EVERY === 0) {
          const file = join(folder, `case-${index}.json`);
          await writeFile(file, bytes);
          const db = new AnimaDatabase('anima-fuzz', freshIndexedDb());
          const loaded = await openCatalog(db, file, { mustExist: true }).then(
            (catalog) => catalog,
            (error: Error) => error,
          );
          if (loaded instanceof Error === read.ok)
            throw new Error(
              `loading and reading disagree: ${loaded instanceof Error ? loaded.message.slice(0, 300) : 'loaded'}`,
            );
          if (loaded instanceof Error && (await catalogRows(db)) !== 0)
            throw new Error('a refused catalog left rows in the database');
          if (!(loaded instanceof Error) && read.ok) {
            // Loaded and saved, it reads as the same catalog (the worn entries of sessions not loaded are kept).
            await loaded.save();
            const again = readCatalogFile(await readFile(file));
            if (!again.ok || !isDeepStrictEqual(again.catalog, read.catalog))
              throw new Error('a loaded catalog saves differently');
          }
          db.close();
        }
        return read.ok ? {} : { refused: refusalText(read.problems) };
      },
      checkAccepted: ({ bytes }) => {
        const read = readCatalogFile(bytes);
        if (!read.ok) return 'read differently the second time';
        const again = readCatalogFile(new TextEncoder().encode(JSON.stringify(read.catalog)));
        return again.ok && isDeepStrictEqual(again.catalog, read.catalog)
          ? undefined
          : 'its text does not read back the same';
      },
    });
    expect(report.failures).toEqual([]);
    expect(report.accepted).toBeGreaterThan(CASES / 50);
    expect(report.refused).toBeGreaterThan(CASES / 2);
  },
);
