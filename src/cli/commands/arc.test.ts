import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { AnimaDatabase } from '#core/store/database.ts';
import { buildMentorCatalog } from '#core/testing/mentor-catalog.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { openCatalog } from '../catalog-file.ts';
import { anima } from '../testing/run-anima.ts';

let catalog: string;
beforeEach(async () => {
  catalog = join(await mkdtemp(join(tmpdir(), 'anima-arc-')), 'catalog.json');
  // The mentor catalog, made through the service as the app makes it: a growth arc (novice, stern, master).
  const db = new AnimaDatabase('anima-test', freshIndexedDb());
  const file = await openCatalog(db, catalog, { mustExist: false });
  await buildMentorCatalog(testService({ db }).service);
  await file.save();
});

describe('anima arc', () => {
  it('creates an arc with stages, gives a stage a part, puts a persona on it, and shows it all', async () => {
    expect(
      await anima(
        'arc',
        'create',
        'career',
        '--stage',
        'junior',
        '--stage',
        'senior',
        '--description',
        'From junior to senior.',
        '--catalog',
        catalog,
      ),
    ).toMatchObject({ code: 0, out: 'created the arc career\n' });
    expect(
      (await anima('arc', 'stage-add', 'career', 'lead', '--condition', 'after ten goals', '--catalog', catalog)).code,
    ).toBe(0);
    expect((await anima('arc', 'part-add', 'career', 'senior', 'stern-tone', '--catalog', catalog)).code).toBe(0);
    expect(await anima('arc', 'assign', 'Mentor', 'career', '--stage', 'senior', '--catalog', catalog)).toMatchObject({
      code: 0,
      out: 'Mentor is on the arc career at the stage senior\n',
    });
    expect((await anima('arc', 'show', 'career', '--catalog', catalog)).out).toBe(
      'career: From junior to senior.\n  1. junior\n  2. senior: stern-tone (tone)\n  3. lead (when after ten goals)\n  on it: Mentor at senior\n',
    );
    expect((await anima('arc', 'list', '--catalog', catalog)).out).toBe(
      'career\tjunior -> senior -> lead\tMentor:senior\ngrowth\tnovice -> stern -> master\t-\n',
    );
    // What the persona commands read: the stage puts its part into the prompt.
    expect((await anima('persona', 'show', 'Mentor', '--catalog', catalog)).error).toContain(
      'on the arc career at the stage senior, which puts in stern-tone (tone)',
    );
  });

  it('takes a persona off its arc, then deletes it; removes parts and stages', async () => {
    await anima('arc', 'assign', 'Mentor', 'growth', '--catalog', catalog);
    expect(await anima('arc', 'delete', 'growth', '--catalog', catalog)).toMatchObject({
      code: 1,
      error: expect.stringMatching(/^anima: arc delete: .*Mentor/),
    });
    expect((await anima('arc', 'unassign', 'Mentor', '--catalog', catalog)).out).toBe('Mentor is on no arc\n');
    expect((await anima('arc', 'part-remove', 'growth', 'stern', 'stern-tone', '--catalog', catalog)).code).toBe(0);
    expect((await anima('arc', 'stage-remove', 'growth', 'master', '--catalog', catalog)).code).toBe(0);
    expect(JSON.parse((await anima('arc', 'show', 'growth', '--catalog', catalog, '--json')).out).stages).toEqual([
      expect.objectContaining({ name: 'novice', parts: [] }),
      expect.objectContaining({ name: 'stern', parts: [] }),
    ]);
    expect((await anima('arc', 'delete', 'growth', '--catalog', catalog)).out).toBe('deleted the arc growth\n');
    expect(await anima('arc', 'list', '--catalog', catalog)).toMatchObject({
      code: 0,
      out: '',
      error: expect.stringContaining('no arcs'),
    });
  });

  it('explains wrong usage and refusals, and leaves the catalog file as it was', async () => {
    const before = await readFile(catalog, 'utf8');
    expect(await anima('arc', 'bogus', '--catalog', catalog)).toMatchObject({
      code: 2,
      error: expect.stringContaining('unknown command "arc bogus"'),
    });
    expect(await anima('arc', 'show', 'growth')).toMatchObject({
      code: 2,
      error: expect.stringContaining('--catalog C is required'),
    });
    expect(await anima('arc', 'part-add', 'growth', 'stern', '--catalog', catalog)).toMatchObject({
      code: 2,
      error: expect.stringContaining('arc part-add: which PART?'),
    });
    expect(await anima('arc', 'show', 'nothing', '--catalog', catalog)).toMatchObject({
      code: 1,
      error: expect.stringMatching(/^anima: arc show: .*nothing/),
    });
    expect(await anima('arc', 'create', 'growth', '--catalog', catalog)).toMatchObject({ code: 1 });
    expect(await anima('arc', 'assign', 'Nobody', 'growth', '--catalog', catalog)).toMatchObject({ code: 1 });
    expect(await readFile(catalog, 'utf8')).toBe(before);
  });
});
