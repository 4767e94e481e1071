import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { AnimaDatabase } from '#core/store/database.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { openCatalog } from './catalog-file.ts';

let path: string;
beforeEach(async () => {
  path = join(await mkdtemp(join(tmpdir(), 'anima-catalog-')), 'catalog.json');
});

/** A catalog with a persona on an arc, worn by the one session of its database; saved to `path`. */
async function savedCatalog() {
  const db = new AnimaDatabase('anima-test', freshIndexedDb());
  const catalog = await openCatalog(db, path, { mustExist: false });
  const { service } = testService({ db });
  const { session } = await service.open({});
  await service.personaCreate({ fields: { name: 'Mentor', summary: 'A patient teacher.' } });
  await service.partCreate({ fields: { name: 'warm-tone', type: 'tone', summary: 'Speak warmly.' } });
  await service.personaLink({ persona: 'Mentor', kind: 'part', name: 'warm-tone' });
  await service.arcCreate({ fields: { name: 'growth' }, stages: [{ name: 'novice' }, { name: 'master' }] });
  await service.personaArcAssign({ persona: 'Mentor', arc: 'growth' });
  await service.sessionPersonaSet({ sessionId: session.id, persona: 'Mentor' });
  await catalog.save();
  return { sessionId: session.id, text: await readFile(path, 'utf8') };
}

describe('the catalog file', () => {
  it('saves what it opened byte for byte, keeping the persona worn by a session this command did not load', async () => {
    const { sessionId, text } = await savedCatalog();
    expect(JSON.parse(text).worn).toEqual([{ sessionId, personaId: 1 }]);
    const db = new AnimaDatabase('anima-test', freshIndexedDb());
    const reopened = await openCatalog(db, path, { mustExist: true });
    const { service } = testService({ db });
    expect(await service.personaList({})).toMatchObject({
      personas: [{ name: 'Mentor', parts: 1, arc: { name: 'growth', stage: 'novice' } }],
    });
    await reopened.save();
    expect(await readFile(path, 'utf8')).toBe(text);
    // New rows take ids after the loaded ones.
    expect(
      await service.partCreate({ fields: { name: 'stern-tone', type: 'tone', summary: 'Speak sternly.' } }),
    ).toMatchObject({ ok: true });
    expect((await db.parts.get(2))?.name).toBe('stern-tone');
  });

  it('refuses a file whose names repeat or whose references point nowhere, saying where, and loads nothing', async () => {
    await savedCatalog();
    const stored = JSON.parse(await readFile(path, 'utf8'));
    stored.parts.push({ ...stored.parts[0], id: 7 });
    stored.personaArcs[0].currentStageId = 42;
    await writeFile(path, JSON.stringify(stored));
    const db = new AnimaDatabase('anima-test', freshIndexedDb());
    await expect(openCatalog(db, path, { mustExist: true })).rejects.toThrow(
      `${path}: not a valid Anima persona catalog:\n  at parts.1.name: "warm-tone" appears twice\n  at personaArcs.0.currentStageId: 42 is not a stage of the arc 1`,
    );
    expect(await db.personas.count()).toBe(0);
    await writeFile(path, JSON.stringify({ ...stored, version: 2 }));
    await expect(openCatalog(db, path, { mustExist: true })).rejects.toThrow(/at version: /);
  });
});
