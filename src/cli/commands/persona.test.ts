import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentApi } from '#core/api.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { buildMentorCatalog, expectAccepted } from '#core/testing/mentor-catalog.ts';
import { openCatalog } from '../catalog-file.ts';
import { anima } from '../testing/run-anima.ts';

let folder: string;
let catalog: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'anima-persona-'));
  catalog = join(folder, 'catalog.json');
});

async function file(name: string, content: string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, content);
  return path;
}

/**
 * A catalog file made through the service, as the app would make it: a mentor with three parts,
 * a trait, a skill and a guardrail, at the "stern" stage of a growth arc; and a clerk.
 */
async function mentorCatalog(path: string): Promise<AgentApi> {
  const db = new AnimaDatabase('anima-test', freshIndexedDb());
  const file = await openCatalog(db, path, { mustExist: false });
  const { service } = testService({ db });
  const ok = expectAccepted;
  await buildMentorCatalog(service);
  ok(
    await service.personaCreate({
      fields: { name: 'Clerk', description: 'Files things.', summary: 'A careful clerk.', tags: ['office'] },
    }),
  );
  ok(await service.personaUpdate({ name: 'Mentor', changes: { tags: ['teaching', 'kind'] } }));
  ok(await service.personaArcAssign({ persona: 'Mentor', arc: 'growth', stage: 'stern' }));
  await file.save();
  return service;
}

/** A small Character Card V2, as SillyTavern writes one. */
const ARIA_CARD = {
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: {
    name: 'Aria',
    description: 'Aria is a ship navigator who reads the stars.',
    personality: 'Curious, blunt, loyal.',
    scenario: 'On the deck of the Meridian at night.',
    first_mes: 'The stars are out. Want to learn them?',
    mes_example: '',
    creator_notes: 'A navigator for star-lore chats.',
    system_prompt: '',
    post_history_instructions: '',
    alternate_greetings: ['Clear skies tonight.'],
    tags: ['sea', 'stars'],
    creator: 'someone',
    character_version: '1.0',
    extensions: { depth_prompt: { prompt: 'Mention the stars.', depth: 4 } },
  },
};

describe('anima persona list and show', () => {
  it('lists each persona with its counts, its arc stage and its tags, filtered by tag and text', async () => {
    await mentorCatalog(catalog);
    const listed = await anima('persona', 'list', '--catalog', catalog);
    expect(listed).toMatchObject({ code: 0, error: '' });
    expect(listed.out).toBe(
      'Clerk\t0 parts, 0 traits, 0 skills, 0 guardrails\t-\toffice\nMentor\t3 parts, 1 trait, 1 skill, 1 guardrail\tgrowth:stern\tteaching, kind\n',
    );
    expect((await anima('persona', 'list', '--tag', 'teaching', '--catalog', catalog)).out).toMatch(
      /^Mentor\t[^\n]*\n$/,
    );
    expect((await anima('persona', 'list', '--search', 'files', '--catalog', catalog)).out).toMatch(
      /^Clerk\t[^\n]*\n$/,
    );
    expect(await anima('persona', 'list', '--tag', 'nothing', '--catalog', catalog)).toMatchObject({
      code: 0,
      out: '',
      error: 'anima: no persona matches\n',
    });
    expect(JSON.parse((await anima('persona', 'list', '--catalog', catalog, '--json')).out)[1]).toMatchObject({
      name: 'Mentor',
      parts: 3,
      arc: { name: 'growth', stage: 'stern' },
    });
  });

  it('prints the assembled prompt, and on stderr its tokens and the part its arc stage puts in', async () => {
    const service = await mentorCatalog(catalog);
    const shown = await anima('persona', 'show', 'Mentor', '--catalog', catalog);
    const assembled = await service.personaGet({ name: 'Mentor' });
    if (!assembled.ok) throw new Error('not assembled');
    expect(shown).toMatchObject({ code: 0, out: `${assembled.assembled.text}\n` });
    expect(shown.out).toContain('## Tone\nSpeak sternly.');
    expect(shown.error).toBe(
      `anima: Mentor, summary view: about ${assembled.assembled.tokens} tokens\nanima: on the arc growth at the stage stern, which puts in stern-tone (tone)\n`,
    );
    const detail = await anima('persona', 'show', 'Mentor', '--detail', '--catalog', catalog);
    expect(detail.out).toContain('one step at a time');
    expect(detail.error).toMatch(/^anima: Mentor, detail view: /);
  });

  it('overrides a part for one call, and says what --budget, --limit and --types left out', async () => {
    await mentorCatalog(catalog);
    const overridden = await anima(
      'persona',
      'show',
      'Mentor',
      '--override',
      'tone=playful-tone',
      '--catalog',
      catalog,
    );
    expect(overridden.out).toContain('## Tone\nSpeak playfully.');
    expect(overridden.error).toContain('anima: overridden for this call: playful-tone (tone)\n');

    const budgeted = await anima('persona', 'show', 'Mentor', '--detail', '--budget', '40', '--catalog', catalog);
    expect(budgeted.code).toBe(0);
    expect(budgeted.out).not.toContain('## Goal');
    expect(budgeted.error).toMatch(/^anima: Mentor, detail view: about \d+ tokens \(budget 40\)\n/);
    expect(budgeted.error).toContain(
      'anima: left out to fit the budget: part teach-goal, trait patient, skill socratic\n',
    );

    const shortened = await anima('persona', 'show', 'Mentor', '--detail', '--budget', '50', '--catalog', catalog);
    expect(shortened.out).toContain('## Goal\nHelp the learner understand.\n');
    expect(shortened.error).toContain(
      'anima: in their summary to fit the budget: teach-goal\nanima: left out to fit the budget: trait patient, skill socratic\n',
    );

    const limited = await anima('persona', 'show', 'Mentor', '--limit', '1', '--catalog', catalog);
    expect(limited.error).toContain('anima: left out by --limit: part stern-tone, part teach-goal\n');
    const typed = await anima('persona', 'show', 'Mentor', '--types', 'tone,goal', '--catalog', catalog);
    expect(typed.out).not.toContain('## Identity');
    expect(typed.error).toContain('anima: only parts of the types tone, goal (--types)\n');
  });

  it('refuses an unknown persona, a bad override and a budget the pinned parts exceed, on stderr with exit 1', async () => {
    const service = await mentorCatalog(catalog);
    expect(await anima('persona', 'show', 'Nobody', '--catalog', catalog)).toEqual({
      code: 1,
      out: '',
      error: 'anima: persona show: NAME: there is no persona named "Nobody"\n',
    });
    expect(
      await anima(
        'persona',
        'show',
        'Mentor',
        '--override',
        'tone=teach-goal',
        '--override',
        'mood=warm-tone',
        '--catalog',
        catalog,
      ),
    ).toMatchObject({
      code: 1,
      out: '',
      error: expect.stringMatching(
        /^anima: persona show:\n {2}--override tone: "teach-goal" is a goal part, not a tone part\n {2}--override mood: there is no part type "mood"; the types are system, /,
      ),
    });
    expect(await anima('persona', 'show', 'Mentor', '--budget', '5', '--catalog', catalog)).toMatchObject({
      code: 1,
      out: '',
      error: expect.stringMatching(
        /^anima: persona show: --budget: the persona's own text, guardrails and pinned parts need about \d+ tokens, over the budget of 5; raise the budget or unpin a part\n$/,
      ),
    });
    // The catalog was not changed by any of it.
    expect((await service.personaList({})).personas).toHaveLength(2);
  });

  it('explains wrong usage with exit 2, and a missing or broken catalog with exit 1', async () => {
    await mentorCatalog(catalog);
    expect(await anima('persona', 'list')).toMatchObject({
      code: 2,
      error: expect.stringContaining('persona list: --catalog C is required'),
    });
    expect(await anima('persona', 'show', '--catalog', catalog)).toMatchObject({
      code: 2,
      error: expect.stringContaining('persona show: which persona NAME?'),
    });
    expect(await anima('persona', 'bogus', '--catalog', catalog)).toMatchObject({
      code: 2,
      error: expect.stringContaining('unknown command "persona bogus"'),
    });
    expect(await anima('persona', 'show', 'Mentor', '--override', 'tone', '--catalog', catalog)).toMatchObject({
      code: 2,
      error: expect.stringContaining('--override takes TYPE=PART'),
    });
    expect(
      await anima('persona', 'show', 'Mentor', '--override', 'tone=a', '--override', 'tone=b', '--catalog', catalog),
    ).toMatchObject({ code: 2, error: expect.stringContaining('--override tone is given twice') });
    expect(await anima('persona', 'show', 'Mentor', '--types', 'tone,mood', '--catalog', catalog)).toMatchObject({
      code: 2,
      error: expect.stringContaining('--types: no part type "mood"; the types are system, '),
    });
    expect(await anima('persona', 'show', 'Mentor', '--budget', '0', '--catalog', catalog)).toMatchObject({
      code: 2,
      error: expect.stringContaining('--budget must be a whole number from 1 to 1000000, not "0"'),
    });
    expect(await anima('persona', 'show', 'M'.repeat(121), '--catalog', catalog)).toMatchObject({
      code: 2,
      error: 'anima: persona show: NAME: a name has at most 120 characters\n',
    });
    expect(await anima('persona', 'list', '--tag', 'x'.repeat(61), '--catalog', catalog)).toMatchObject({
      code: 2,
      error: expect.stringMatching(/^anima: persona list: --tag: /),
    });

    expect(await anima('persona', 'list', '--catalog', join(folder, 'none.json'))).toMatchObject({
      code: 1,
      error: expect.stringContaining('no catalog at'),
    });
    const stored = JSON.parse(await readFile(catalog, 'utf8'));
    stored.personaParts[0].partId = 99;
    const broken = await file('broken.json', JSON.stringify(stored));
    expect(await anima('persona', 'list', '--catalog', broken)).toEqual({
      code: 1,
      out: '',
      error: `anima: ${broken}: not a valid Anima persona catalog:\n  at personaParts.0.partId: 99 is not a part of this catalog\n`,
    });
    expect(await anima('--help')).toMatchObject({
      code: 0,
      out: expect.stringContaining('anima persona show NAME --catalog C [--detail] [--budget N]'),
    });
  });
});

describe('anima persona export and import', () => {
  it('imports an exported bundle into a fresh catalog, where show prints the same prompt', async () => {
    await mentorCatalog(catalog);
    const exported = await anima('persona', 'export', 'Mentor', '--output', folder, '--catalog', catalog);
    const bundle = join(folder, 'mentor.persona.json');
    expect(exported).toEqual({
      code: 0,
      out: '',
      error: `anima: wrote Mentor as an Anima persona bundle to ${bundle}\n`,
    });
    // Without --output a text format prints, as `psyche export` does.
    expect((await anima('persona', 'export', 'Mentor', '--catalog', catalog)).out).toBe(await readFile(bundle, 'utf8'));

    const fresh = join(folder, 'fresh.json');
    const preview = await anima('persona', 'import', bundle, '--dry-run', '--catalog', fresh);
    expect(preview.out.split('\n')).toEqual([
      `${bundle}: an Anima persona bundle; importing it would create the persona Mentor (--dry-run: nothing written)`,
      '  new part mentor-identity (identity): You are a mentor.',
      '  new part warm-tone (tone): Speak warmly.',
      '  new part teach-goal (goal): Help the learner understand.',
      '  new part stern-tone (tone): Speak sternly.',
      '  new trait patient (emotional): Never rushes.',
      '  new skill socratic: Asks questions.',
      '  new guardrail no-deletions: Never deletes knowledge.',
      '  new arc growth',
      '  on the arc growth (novice -> stern -> master) at the stage stern',
      '',
    ]);
    expect(await anima('persona', 'list', '--catalog', fresh)).toMatchObject({
      code: 1,
      error: expect.stringContaining('no catalog at'),
    });

    const imported = await anima('persona', 'import', bundle, '--catalog', fresh);
    expect(imported).toMatchObject({
      code: 0,
      out: expect.stringMatching(
        /^.*mentor\.persona\.json: imported an Anima persona bundle as the persona Mentor\n {2}new part mentor-identity/,
      ),
    });
    for (const view of [[], ['--detail']]) {
      const original = await anima('persona', 'show', 'Mentor', ...view, '--catalog', catalog);
      expect(await anima('persona', 'show', 'Mentor', ...view, '--catalog', fresh)).toEqual(original);
    }
    expect((await anima('persona', 'list', '--catalog', fresh)).out).toBe(
      'Mentor\t3 parts, 1 trait, 1 skill, 1 guardrail\tgrowth:stern\tteaching, kind\n',
    );
  });

  it('refuses a taken name, suggesting --as, and under another name reuses the identical parts', async () => {
    await mentorCatalog(catalog);
    const bundle = join(folder, 'mentor.persona.json');
    await anima('persona', 'export', 'Mentor', '--output', bundle, '--catalog', catalog);
    const before = await readFile(catalog, 'utf8');
    expect(await anima('persona', 'import', bundle, '--catalog', catalog)).toEqual({
      code: 1,
      out: '',
      error: `anima: ${bundle}: nothing imported:\n  at persona.name: there is already a persona named "Mentor"; import it under another name\n  (--as NAME imports it under another name)\n`,
    });
    expect(await readFile(catalog, 'utf8')).toBe(before);
    const copied = await anima('persona', 'import', bundle, '--as', 'Mentor 2', '--catalog', catalog);
    expect(copied.out).toContain('as the persona Mentor 2\n  reused part mentor-identity (identity)');
    expect(copied.out).not.toMatch(/^ {2}new /m);
    expect((await anima('persona', 'list', '--catalog', catalog)).out.split('\n')).toContain(
      'Mentor 2\t3 parts, 1 trait, 1 skill, 1 guardrail\tgrowth:stern\tteaching, kind',
    );
    const garbage = await file('garbage.json', '{"format": "anima-persona", ');
    expect(await anima('persona', 'import', garbage, '--catalog', catalog)).toMatchObject({
      code: 1,
      error: expect.stringMatching(
        /^anima: .*garbage\.json: nothing imported:\n {2}line 1, column 29, at \$: a key in double quotes was expected, but the end of the text was found\n$/,
      ),
    });
    expect(await anima('persona', 'import', join(folder, 'absent.json'), '--catalog', catalog)).toMatchObject({
      code: 1,
      error: expect.stringContaining('cannot read'),
    });
  });

  it('imports a Character Card V2: previews the parts it becomes and the card fields it keeps, then shows it', async () => {
    const card = await file('aria.json', JSON.stringify(ARIA_CARD));
    const preview = await anima('persona', 'import', card, '--dry-run', '--catalog', catalog);
    expect(preview.out.split('\n')).toEqual([
      `${card}: a character card (V2); importing it would create the persona Aria (--dry-run: nothing written)`,
      '  new part Aria: description (identity): Aria is a ship navigator who reads the stars.',
      '  new part Aria: personality (soul): Curious, blunt, loyal.',
      '  new part Aria: scenario (context): On the deck of the Meridian at night.',
      '  kept for export, unused by Anima: alternate_greetings, character_version, creator, creator_notes, extensions.depth_prompt, first_mes',
      '',
    ]);
    expect((await anima('persona', 'import', card, '--catalog', catalog)).code).toBe(0);
    expect((await anima('persona', 'list', '--catalog', catalog)).out).toBe(
      'Aria\t3 parts, 0 traits, 0 skills, 0 guardrails\t-\tsea, stars\n',
    );
    const shown = await anima('persona', 'show', 'Aria', '--catalog', catalog);
    expect(shown.out).toContain('## Identity\nAria is a ship navigator who reads the stars.');
    expect(shown.out).toContain('## Context\nOn the deck of the Meridian at night.');
    // The kept fields go back out in the card it exports.
    const exported = JSON.parse(
      (await anima('persona', 'export', 'Aria', '--format', 'card-json', '--catalog', catalog)).out,
    );
    expect(exported.data).toMatchObject({
      first_mes: ARIA_CARD.data.first_mes,
      alternate_greetings: ['Clear skies tonight.'],
      extensions: { depth_prompt: ARIA_CARD.data.extensions.depth_prompt },
    });
  });

  it('never replaces an existing file without --force; a PNG card goes to its own name and keeps its image through the catalog', async () => {
    await mentorCatalog(catalog);
    const png = join(folder, 'mentor.card.png');
    expect(
      await anima('persona', 'export', 'Mentor', '--format', 'card-png', '--output', folder, '--catalog', catalog),
    ).toMatchObject({ code: 0, error: `anima: wrote Mentor as a character card (PNG) to ${png}\n` });
    const written = await readFile(png);
    expect(
      await anima('persona', 'export', 'Mentor', '--format', 'card-png', '--output', folder, '--catalog', catalog),
    ).toEqual({
      code: 1,
      out: '',
      error: `anima: ${png} already exists; nothing written (--force replaces it)\n`,
    });
    const mine = await file('mine.json', 'my own notes\n');
    expect((await anima('persona', 'export', 'Mentor', '--output', mine, '--catalog', catalog)).code).toBe(1);
    expect(await readFile(mine, 'utf8')).toBe('my own notes\n');
    expect((await anima('persona', 'export', 'Mentor', '--output', mine, '--force', '--catalog', catalog)).code).toBe(
      0,
    );
    expect(await readFile(mine, 'utf8')).toContain('"format": "anima-persona"');
    expect(await anima('persona', 'export', 'Mentor', '--format', 'yaml', '--catalog', catalog)).toMatchObject({
      code: 2,
      error: expect.stringContaining('--format must be bundle, card-json, card-png, not "yaml"'),
    });
    expect(await anima('persona', 'export', 'Nobody', '--catalog', catalog)).toMatchObject({
      code: 1,
      error: 'anima: persona export: NAME: there is no persona named "Nobody"\n',
    });

    // The PNG's image is kept in the catalog file (as base64) and comes back in the next export.
    const other = join(folder, 'other.json');
    const preview = await anima('persona', 'import', png, '--dry-run', '--catalog', other);
    expect(preview.out).toMatch(
      /^.*mentor\.card\.png: a character card \(V3\); importing it would create the persona Mentor/,
    );
    expect(preview.out).toContain("  kept for export: the card's image\n");
    expect((await anima('persona', 'import', png, '--catalog', other)).code).toBe(0);
    const again = join(folder, 'again.png');
    await anima('persona', 'export', 'Mentor', '--format', 'card-png', '--output', again, '--catalog', other);
    expect(new Uint8Array(await readFile(again))).toEqual(new Uint8Array(written));
  });
});

describe('anima persona compile, manifest and wear', () => {
  it('compiles into the catalog file and prints the manifest as JSON', async () => {
    await mentorCatalog(catalog);
    expect(await anima('persona', 'compile', 'Mentor', '--catalog', catalog)).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^compiled Mentor: the summary is about \d+ tokens, the detail about \d+;/),
    });
    const manifest = JSON.parse((await anima('persona', 'manifest', 'Mentor', '--catalog', catalog)).out);
    expect(manifest).toMatchObject({
      name: 'Mentor',
      arc: { name: 'growth', stage: 'stern' },
      tokens: { compiled: expect.any(Number) },
    });
    expect(manifest.parts.map((part: { name: string }) => part.name)).toEqual([
      'mentor-identity',
      'warm-tone',
      'teach-goal',
    ]);
    expect(JSON.parse((await anima('persona', 'show', 'Mentor', '--json', '--catalog', catalog)).out)).toMatchObject({
      compiled: { isCurrent: true },
    });
    expect(await anima('persona', 'manifest', 'Nobody', '--catalog', catalog)).toMatchObject({ code: 1 });
  });

  it('a session wears a persona kept in the catalog: runs given --catalog write in its name, and --none takes it off', async () => {
    await mentorCatalog(catalog);
    const snapshot = join(folder, 'session.json');
    const kg = await file('mars.csv', 'Mars,is-a,Planet\nPlanet,is-a,CelestialBody\n');
    expect(await anima('persona', 'wear', 'Mentor', '--catalog', catalog)).toMatchObject({
      code: 2,
      error: expect.stringContaining('--snapshot S is required'),
    });
    expect(await anima('persona', 'wear', '--catalog', catalog, '--snapshot', snapshot)).toMatchObject({
      code: 2,
      error: expect.stringContaining('give a persona NAME, or --none'),
    });
    expect(await anima('persona', 'wear', 'Mentor', '--catalog', catalog, '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: expect.stringContaining('no snapshot at'),
    });
    await anima(
      'run',
      '--goal',
      'Learn about Mars',
      '--criteria',
      'volcano crater',
      '--kg',
      kg,
      '--max-cycles',
      '2',
      '--snapshot',
      snapshot,
    );
    const before = await readFile(snapshot, 'utf8');

    expect(await anima('persona', 'wear', 'Nobody', '--catalog', catalog, '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: 'anima: persona wear: NAME: there is no persona named "Nobody"\n',
    });
    expect(await anima('persona', 'wear', 'Mentor', '--catalog', catalog, '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^the session "My session" wears Mentor now;/),
    });
    // The snapshot leaves device-local personas out: the catalog remembers who wears what.
    expect(await readFile(snapshot, 'utf8')).toBe(before);

    expect(
      (await anima('write-up', '1', '--grammar', 'narrative', '--catalog', catalog, '--snapshot', snapshot)).out,
    ).toMatch(/^As Mentor, /);
    expect((await anima('write-up', '1', '--grammar', 'narrative', '--snapshot', snapshot)).out).not.toMatch(
      /^As Mentor, /,
    );
    expect(await anima('goals', '--catalog', join(folder, 'none.json'), '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: expect.stringContaining('no catalog at'),
    });

    expect(await anima('persona', 'wear', '--none', '--catalog', catalog, '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: 'the session "My session" wears no persona now\n',
    });
    expect(
      (await anima('write-up', '1', '--grammar', 'narrative', '--catalog', catalog, '--snapshot', snapshot)).out,
    ).not.toMatch(/^As Mentor, /);
  });
});
