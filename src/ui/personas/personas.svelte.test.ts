import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import { emptyDraft } from './item-fields.ts';
import { isNameTaken } from './persona-file-import.svelte.ts';
import { personasForTest } from './persona-test-host.ts';
import type { PersonasView } from './personas.svelte.ts';

const draft = (kind: Parameters<typeof emptyDraft>[0], values: Record<string, string | boolean>) => ({
  ...emptyDraft(kind),
  ...values,
});

/** A mentor with an identity, a warm tone and a goal; a stern tone waits in the library. */
async function mentor(view: PersonasView) {
  const ok = async (report: Promise<{ tone: string }>) => expect((await report).tone).toBe('success');
  await ok(
    view.catalog.create(draft('persona', { name: 'Mentor', summary: 'A patient teacher.', tags: 'teaching, calm' })),
  );
  await ok(
    view.library.create(
      'part',
      draft('part', { name: 'mentor-identity', type: 'identity', summary: 'You are a mentor.' }),
    ),
  );
  await ok(view.library.create('part', draft('part', { name: 'warm-tone', type: 'tone', summary: 'Speak warmly.' })));
  await ok(view.library.create('part', draft('part', { name: 'stern-tone', type: 'tone', summary: 'Speak sternly.' })));
  await ok(
    view.library.create(
      'part',
      draft('part', {
        name: 'teach-goal',
        type: 'goal',
        summary: 'Help the learner understand.',
        content: 'Help the learner understand, one step at a time.',
      }),
    ),
  );
  for (const name of ['mentor-identity', 'warm-tone', 'teach-goal']) await ok(view.editor.link('part', name));
}

const promptOf = (view: PersonasView) =>
  view.preview.result.status === 'ready' ? view.preview.result.assembled.text : undefined;

describe('the persona catalog', () => {
  it('creates a persona and selects it, lists it with its counts, and filters by text and tag', async () => {
    const { view } = await personasForTest();
    await view.load();
    expect(view.catalog.total).toBe(0);
    await mentor(view);
    await view.catalog.create(draft('persona', { name: 'Jester', description: 'Tells jokes.', tags: 'fun' }));
    flushSync();
    expect(view.selected).toBe('Jester');
    await view.select('Mentor');
    expect(view.catalog.personas.map((persona) => [persona.name, persona.parts])).toEqual([
      ['Jester', 0],
      ['Mentor', 3],
    ]);
    expect(view.catalog.allTags).toEqual(['calm', 'fun', 'teaching']);
    await view.catalog.filter({ text: 'joke' });
    expect(view.catalog.personas.map((persona) => persona.name)).toEqual(['Jester']);
    await view.catalog.filter({ text: '', tag: 'teaching' });
    expect(view.catalog.personas.map((persona) => persona.name)).toEqual(['Mentor']);
    expect(view.catalog.total).toBe(2);
  });

  it('says where a new persona is wrong, and that a name is taken', async () => {
    const { view } = await personasForTest();
    const bad = await view.catalog.create(draft('persona', { name: '  ' }));
    expect(bad).toMatchObject({ tone: 'failure', reason: 'invalid', problems: [{ path: 'name' }] });
    expect(bad.tone === 'failure' && bad.message).toBe('The persona was not created: some of it is not valid.');
    await view.catalog.create(draft('persona', { name: 'Mentor' }));
    expect(await view.catalog.create(draft('persona', { name: 'Mentor' }))).toMatchObject({
      tone: 'failure',
      reason: 'name-taken',
      message: 'The persona was not created: the name is already taken.',
    });
  });

  it('wears a persona in this session and takes it off; deleting a worn persona leaves the session wearing none', async () => {
    const { view } = await personasForTest();
    await mentor(view);
    expect(await view.catalog.wear('Mentor')).toEqual({ tone: 'success', message: 'This session wears Mentor now.' });
    flushSync();
    expect(view.catalog.worn?.name).toBe('Mentor');
    expect(view.catalog.personas[0]!.wornBy).toEqual(['My session']);
    await view.catalog.wear(null);
    expect(view.catalog.worn).toBeUndefined();
    await view.catalog.wear('Mentor');
    expect(await view.catalog.remove('Mentor')).toEqual({ tone: 'success', message: 'Deleted Mentor.' });
    flushSync();
    expect(view.selected).toBeUndefined();
    expect(view.editor.definition).toBeUndefined();
    expect(view.catalog.worn).toBeUndefined();
    expect(view.catalog.personas).toEqual([]);
    // Its parts stay in the library.
    expect(view.library.all.part.map((part) => [part.name, part.usedBy])).toContainEqual(['warm-tone', []]);
  });
});

describe('the persona editor', () => {
  it('saves the fields, keeps the persona selected under a new name, and shows problems by field', async () => {
    const { view } = await personasForTest();
    await mentor(view);
    const renamed = await view.editor.save(draft('persona', { name: 'Guide', summary: 'A guide.', tags: 'teaching' }));
    expect(renamed).toEqual({ tone: 'success', message: 'Saved Guide.' });
    flushSync();
    expect(view.selected).toBe('Guide');
    expect(view.editor.definition?.persona).toMatchObject({ name: 'Guide', summary: 'A guide.', tags: ['teaching'] });
    expect(view.editor.parts.map((part) => part.name)).toEqual(['mentor-identity', 'warm-tone', 'teach-goal']);
    const bad = await view.editor.save(draft('persona', { name: 'Guide', description: 'x'.repeat(2001) }));
    expect(bad).toMatchObject({
      tone: 'failure',
      reason: 'invalid',
      problems: [{ path: 'description', message: 'at most 2000 characters' }],
    });
  });

  it('moves, pins and prioritises parts, sending the whole arrangement, and the prompt follows the order', async () => {
    const { view, calls } = await personasForTest();
    await mentor(view);
    expect(promptOf(view)).toMatch(/You are a mentor\.[\s\S]*Speak warmly\.[\s\S]*Help the learner/);
    calls.length = 0;
    expect(await view.editor.move(2, 0)).toEqual({ tone: 'success', message: 'Moved teach-goal to place 1.' });
    expect(calls.find((call) => call.method === 'personaArrangeParts')?.args).toEqual({
      persona: 'Mentor',
      parts: [
        { name: 'teach-goal', priority: 0, pinned: false },
        { name: 'mentor-identity', priority: 0, pinned: false },
        { name: 'warm-tone', priority: 0, pinned: false },
      ],
    });
    flushSync();
    expect(view.editor.parts.map((part) => part.name)).toEqual(['teach-goal', 'mentor-identity', 'warm-tone']);
    expect(promptOf(view)).toMatch(/Help the learner[\s\S]*You are a mentor\./);

    await view.editor.setPinned('warm-tone', true);
    await view.editor.setPriority('mentor-identity', 5);
    flushSync();
    expect(view.editor.definition?.parts.map((part) => [part.name, part.priority, part.pinned])).toEqual([
      ['teach-goal', 0, false],
      ['mentor-identity', 5, false],
      ['warm-tone', 0, true],
    ]);
    // Moves made while one is being sent all land: the next send carries them.
    calls.length = 0;
    const first = view.editor.move(2, 1);
    const second = view.editor.move(1, 0);
    expect(view.editor.parts.map((part) => part.name)).toEqual(['warm-tone', 'teach-goal', 'mentor-identity']);
    expect(await Promise.all([first, second])).toEqual([
      { tone: 'success', message: 'Moved warm-tone to place 2.' },
      { tone: 'success', message: 'Moved warm-tone to place 1.' },
    ]);
    expect(calls.filter((call) => call.method === 'personaArrangeParts')).toHaveLength(2);
    flushSync();
    expect(view.editor.definition?.parts.map((part) => part.name)).toEqual([
      'warm-tone',
      'teach-goal',
      'mentor-identity',
    ]);
    // A move past either end does nothing.
    expect(await view.editor.move(0, -1)).toBeUndefined();
    expect(await view.editor.move(2, 3)).toBeUndefined();
  });

  it('links and unlinks traits, skills and guardrails; unlinking keeps the item in the library', async () => {
    const { view } = await personasForTest();
    await mentor(view);
    await view.library.create(
      'trait',
      draft('trait', { name: 'patient', type: 'emotional', description: 'Never rushes.' }),
    );
    await view.library.create('skill', draft('skill', { name: 'socratic', description: 'Asks questions.' }));
    await view.library.create(
      'guardrail',
      draft('guardrail', {
        name: 'no-deletions',
        description: 'Never deletes.',
        severity: '0.9',
        triggers: 'kg_mutate\n\n delete ',
      }),
    );
    for (const [kind, name] of [
      ['trait', 'patient'],
      ['skill', 'socratic'],
      ['guardrail', 'no-deletions'],
    ] as const)
      expect((await view.editor.link(kind, name)).tone).toBe('success');
    flushSync();
    expect(view.editor.definition).toMatchObject({
      traits: [{ name: 'patient' }],
      skills: [{ name: 'socratic' }],
      guardrails: [{ name: 'no-deletions', severity: 0.9, triggers: ['kg_mutate', 'delete'] }],
    });
    expect(promptOf(view)).toContain('- socratic: Asks questions.');
    expect(await view.editor.unlink('skill', 'socratic')).toEqual({
      tone: 'success',
      message: 'Removed socratic from Mentor; it stays in the library.',
    });
    flushSync();
    expect(view.editor.definition?.skills).toEqual([]);
    expect(view.library.all.skill.map((skill) => skill.name)).toEqual(['socratic']);
  });

  it('exports a bundle and card files', async () => {
    const { view } = await personasForTest();
    await mentor(view);
    const bundle = await view.editor.exportAs('bundle');
    expect(bundle).toMatchObject({
      ok: true,
      file: { fileName: 'mentor.persona.json', mediaType: 'application/json' },
    });
    const png = await view.editor.exportAs('card-png');
    expect(png.ok && png.file.data instanceof Uint8Array).toBe(true);
  });
});

describe('the libraries', () => {
  it('says where a part is wrong, filters parts by type and tags, and traits by type', async () => {
    const { view } = await personasForTest();
    await mentor(view);
    expect(
      await view.library.create('part', draft('part', { name: 'empty', type: 'tone', summary: '' })),
    ).toMatchObject({
      tone: 'failure',
      problems: [{ path: 'summary', message: 'a part needs a summary' }],
    });
    await view.library.create(
      'part',
      draft('part', { name: 'calm-tone', type: 'tone', summary: 'Speak calmly.', tags: 'calm' }),
    );
    await view.library.filterParts({ type: 'tone' });
    expect(view.library.shown.part.map((part) => part.name)).toEqual(['calm-tone', 'stern-tone', 'warm-tone']);
    await view.library.filterParts({ tags: 'calm' });
    expect(view.library.shown.part.map((part) => part.name)).toEqual(['calm-tone']);
    // Every part stays at hand for the editor and the overrides.
    expect(view.library.all.part).toHaveLength(5);
    await view.library.create('trait', draft('trait', { name: 'witty', type: 'social' }));
    await view.library.filterTraits({ type: 'emotional' });
    expect(view.library.shown.trait).toEqual([]);
  });

  it('edits an item, refuses to delete one in use, and deletes it anyway when asked', async () => {
    const { view } = await personasForTest();
    await mentor(view);
    expect(
      await view.library.update(
        'part',
        'warm-tone',
        draft('part', { name: 'kind-tone', type: 'tone', summary: 'Speak kindly.' }),
      ),
    ).toEqual({
      tone: 'success',
      message: 'Saved the part kind-tone.',
    });
    flushSync();
    expect(view.editor.parts.map((part) => part.name)).toContain('kind-tone');
    expect(promptOf(view)).toContain('Speak kindly.');
    const refused = await view.library.remove('part', 'kind-tone');
    expect(refused).toMatchObject({
      tone: 'failure',
      reason: 'in-use',
      message: 'kind-tone was not deleted: it is still in use.',
      problems: [{ message: expect.stringContaining('persona "Mentor"') }],
    });
    expect(await view.library.remove('part', 'kind-tone', { force: true })).toEqual({
      tone: 'success',
      message: 'Deleted the part kind-tone.',
    });
    flushSync();
    expect(view.editor.parts.map((part) => part.name)).toEqual(['mentor-identity', 'teach-goal']);
  });
});

describe('the assembled prompt', () => {
  it('uses an override instead of the own part of its type, and drops an override whose part is gone', async () => {
    const { view } = await personasForTest();
    await mentor(view);
    flushSync();
    expect(promptOf(view)).toContain('Speak warmly.');
    await view.preview.setOverride('tone', 'stern-tone');
    flushSync();
    expect(promptOf(view)).toContain('Speak sternly.');
    expect(promptOf(view)).not.toContain('Speak warmly.');
    const result = view.preview.result;
    expect(result.status === 'ready' && result.assembled.parts.find((part) => part.type === 'tone')).toMatchObject({
      name: 'stern-tone',
      source: 'override',
    });
    await view.library.remove('part', 'stern-tone');
    flushSync();
    expect(view.preview.overrides).toEqual({});
    expect(promptOf(view)).toContain('Speak warmly.');
    await view.preview.setOverride('tone', '');
    expect(view.preview.overrides).toEqual({});
  });

  it('shows the detail view, leaves out what a budget cannot hold, and says when the pinned parts are over it', async () => {
    const { view, calledSince } = await personasForTest();
    await mentor(view);
    await view.preview.setDetail(true);
    expect(promptOf(view)).toContain('one step at a time');
    const full = view.preview.result.status === 'ready' ? view.preview.result.assembled.tokens : 0;
    await view.preview.setBudget(String(full - 5));
    flushSync();
    const trimmed = view.preview.result;
    expect(trimmed.status === 'ready' && trimmed.assembled.tokens).toBeLessThanOrEqual(full - 5);
    expect(
      trimmed.status === 'ready' &&
        [...trimmed.assembled.leftOut, ...trimmed.assembled.parts.filter((part) => part.view === 'summary')].length,
    ).toBeGreaterThan(0);
    await view.preview.setBudget('12');
    flushSync();
    const small = view.preview.result;
    expect(small.status === 'ready' && small.assembled.leftOut.map((item) => item.because)).toContain('budget');

    await view.editor.setPinned('teach-goal', true);
    await view.preview.setBudget('10');
    flushSync();
    expect(view.preview.result).toMatchObject({
      status: 'refused',
      reason: 'pinned-over-budget',
      problems: [{ path: 'budgetTokens', message: expect.stringContaining('teach-goal') }],
    });

    calledSince();
    await view.preview.setBudget('ten');
    expect(view.preview.budgetProblem).toContain('whole number');
    expect(calledSince()).toEqual([]);
    await view.preview.setBudget('');
    flushSync();
    expect(view.preview.result.status).toBe('ready');
  });

  it('keeps only the types asked for', async () => {
    const { view } = await personasForTest();
    await mentor(view);
    await view.preview.setTypes(['tone', 'identity']);
    flushSync();
    expect(view.preview.types).toEqual(['identity', 'tone']);
    const result = view.preview.result;
    expect(result.status === 'ready' && result.assembled.parts.map((part) => part.name)).toEqual([
      'mentor-identity',
      'warm-tone',
    ]);
  });

  it('compiles, and says the compiled prompt is out of date after a change', async () => {
    const { view } = await personasForTest();
    await mentor(view);
    expect(await view.preview.compile()).toEqual({ tone: 'success', message: 'Compiled Mentor.' });
    flushSync();
    expect(view.preview.result).toMatchObject({ status: 'ready', compiled: { isCurrent: true } });
    expect(view.preview.manifest?.tokens.compiled).toBeGreaterThan(0);
    await view.library.update(
      'part',
      'warm-tone',
      draft('part', { name: 'warm-tone', type: 'tone', summary: 'Speak very warmly.' }),
    );
    flushSync();
    expect(view.preview.result).toMatchObject({ status: 'ready', compiled: { isCurrent: false } });
  });
});

describe('character arcs', () => {
  it('creates an arc with stages, adds one at a place, and swaps a stage part into the prompt as the persona advances', async () => {
    const { view } = await personasForTest();
    await mentor(view);
    expect(await view.arcs.create(draft('arc', { name: 'growth', stages: 'novice\nstern\n\nmaster' }))).toEqual({
      tone: 'success',
      message: 'Created the arc growth.',
    });
    expect(
      await view.arcs.addStage('growth', draft('stage', { name: 'apprentice', condition: 'after ten goals' }), 1),
    ).toMatchObject({ tone: 'success' });
    expect(await view.arcs.addStagePart('growth', 'stern', 'stern-tone')).toMatchObject({ tone: 'success' });
    flushSync();
    expect(view.arcs.arcs[0]!.stages.map((stage) => [stage.name, stage.parts.map((part) => part.name)])).toEqual([
      ['novice', []],
      ['apprentice', []],
      ['stern', ['stern-tone']],
      ['master', []],
    ]);

    expect(await view.arcs.assign('growth', 'apprentice')).toEqual({
      tone: 'success',
      message: 'Mentor is on growth, at stage apprentice.',
    });
    expect(promptOf(view)).toContain('Speak warmly.');
    expect(await view.arcs.advance()).toEqual({ tone: 'success', message: 'Mentor is at stage stern now.' });
    flushSync();
    expect(promptOf(view)).toContain('Speak sternly.');
    expect(view.editor.definition?.arc).toEqual({
      name: 'growth',
      stages: ['novice', 'apprentice', 'stern', 'master'],
      currentStage: 'stern',
    });
    expect(view.catalog.personas[0]!.arc).toEqual({ name: 'growth', stage: 'stern' });
    const result = view.preview.result;
    expect(result.status === 'ready' && result.assembled.parts.find((part) => part.type === 'tone')?.source).toBe(
      'stage',
    );

    expect(await view.arcs.removeStage('growth', 'stern')).toMatchObject({ tone: 'failure', reason: 'in-use' });
    await view.arcs.advance();
    expect(await view.arcs.advance()).toMatchObject({
      tone: 'failure',
      problems: [{ message: '"Mentor" is already at the last stage, "master"' }],
    });
    expect(await view.arcs.reset()).toEqual({ tone: 'success', message: 'Mentor is at stage novice now.' });
    expect(await view.arcs.assign(null)).toEqual({ tone: 'success', message: 'Mentor is on no arc now.' });
    expect(await view.arcs.removeStagePart('growth', 'stern', 'stern-tone')).toMatchObject({ tone: 'success' });
    expect(await view.arcs.remove('growth')).toEqual({ tone: 'success', message: 'Deleted the arc growth.' });
    flushSync();
    expect(view.arcs.arcs).toEqual([]);
  });

  it('names a bad stage with its place', async () => {
    const { view } = await personasForTest();
    expect(await view.arcs.create(draft('arc', { name: 'loop', stages: 'a\na' }))).toMatchObject({
      tone: 'failure',
      problems: [{ path: 'stages', message: 'two stages are named "a"' }],
    });
  });
});

describe('importing a persona file', () => {
  const CARD = JSON.stringify({
    spec: 'chara_card_v2',
    spec_version: '2.0',
    data: {
      name: 'Seraphina',
      description: '<img src=x onerror=window.__xss=1> A guardian.',
      personality: 'Kind.',
      first_mes: 'Hello!',
      tags: ['fantasy'],
      extensions: { world: 'x' },
    },
  });

  it('previews a card, imports it, and selects the persona it made', async () => {
    const { view, calledSince } = await personasForTest();
    await view.fileImport.choose('seraphina.json', CARD);
    flushSync();
    const state = view.fileImport.state;
    expect(state).toMatchObject({
      status: 'checked',
      fileName: 'seraphina.json',
      check: {
        ok: true,
        preview: { format: 'card-v2', persona: { name: 'Seraphina', tags: ['fantasy'] }, hasImage: false },
      },
    });
    expect(
      state.status === 'checked' &&
        state.check.ok &&
        state.check.preview.items.map((item) => [item.kind, item.type, item.state]),
    ).toEqual([
      ['part', 'identity', 'new'],
      ['part', 'soul', 'new'],
    ]);
    expect(state.status === 'checked' && state.check.ok && state.check.preview.kept).toEqual([
      'extensions.world',
      'first_mes',
    ]);
    calledSince();
    await view.fileImport.confirm();
    flushSync();
    expect(calledSince()[0]).toBe('personaImport');
    expect(view.fileImport.state).toEqual({
      status: 'ended',
      report: { tone: 'success', message: 'Imported Seraphina from seraphina.json.' },
    });
    expect(view.selected).toBe('Seraphina');
    // The card's text comes in as it was, markup and all: the screen shows it as text.
    expect(promptOf(view)).toContain('<img src=x onerror=window.__xss=1> A guardian.');
  });

  it('offers another name when the persona name is taken, and imports under it', async () => {
    const { view } = await personasForTest();
    await view.fileImport.choose('seraphina.json', CARD);
    await view.fileImport.confirm();
    await view.fileImport.choose('seraphina.json', CARD);
    flushSync();
    const taken = view.fileImport.state;
    expect(taken.status === 'checked' && isNameTaken(taken.check)).toBe(true);
    await view.fileImport.confirm();
    expect(view.fileImport.state.status).toBe('checked');
    await view.fileImport.importAs('Seraphina 2');
    flushSync();
    expect(view.fileImport.state).toMatchObject({
      status: 'checked',
      asName: 'Seraphina 2',
      check: { ok: true, preview: { persona: { name: 'Seraphina 2' } } },
    });
    await view.fileImport.confirm();
    flushSync();
    expect(view.catalog.personas.map((persona) => persona.name)).toEqual(['Seraphina', 'Seraphina 2']);
  });

  it('shows the problems of a file it cannot read, with their place, and changes nothing', async () => {
    const { view } = await personasForTest();
    await view.fileImport.choose('broken.json', '{"spec": "chara_card_v2", "data": {"description": 5}}');
    flushSync();
    const state = view.fileImport.state;
    expect(state).toMatchObject({ status: 'checked', check: { ok: false, reason: 'invalid' } });
    expect(
      state.status === 'checked' &&
        !state.check.ok &&
        state.check.problems.every((problem) => problem.path !== undefined),
    ).toBe(true);
    view.fileImport.failToRead('gone.png', new Error('the file went away'));
    expect(view.fileImport.state).toEqual({
      status: 'ended',
      report: {
        tone: 'failure',
        message: 'gone.png could not be read; nothing changed: the file went away',
        problems: [],
      },
    });
    view.fileImport.cancel();
    expect(view.fileImport.state).toEqual({ status: 'idle' });
  });
});

describe('when the worker fails', () => {
  it('says so for a change, and for a fetch', async () => {
    const { view, broken } = await personasForTest();
    broken.add('personaCreate');
    expect(await view.catalog.create(draft('persona', { name: 'Mentor' }))).toEqual({
      tone: 'failure',
      message: 'The persona was not created: personaCreate broke',
      problems: [],
    });
    broken.add('personaList');
    await view.load();
    expect(view.catalog.status).toBe('error');
    expect(view.catalog.errorMessage).toBe('personaList broke');
  });

  it('says why a tab that only shows the session cannot change personas', async () => {
    const { view } = await personasForTest({ canWrite: false });
    expect(view.blockedReason).toContain('open in another tab');
  });
});
