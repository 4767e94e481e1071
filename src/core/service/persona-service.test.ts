import { describe, expect, it } from 'vitest';
import type { AgentApi } from '#core/api.ts';
import { testService } from '#core/testing/test-database.ts';
import { buildMentorCatalog, expectAccepted } from '#core/testing/mentor-catalog.ts';

type Service = AgentApi;

async function setUp() {
  const { db, service } = testService();
  const { session } = await service.open({});
  await buildMentorCatalog(service);
  return { db, service, sessionId: session.id, ok: expectAccepted };
}

const toneOf = async (service: Service, overrides: Record<string, string> = {}) => {
  const got = await service.personaGet({ name: 'Mentor', overrides });
  if (!got.ok) throw new Error(JSON.stringify(got));
  return got.assembled.parts.find((part) => part.type === 'tone')?.name;
};

describe('the persona catalog', () => {
  it('creates, lists with filters, updates and deletes personas and library items', async () => {
    const { service } = await setUp();
    expect((await service.personaList({})).personas).toEqual([
      expect.objectContaining({
        name: 'Mentor',
        parts: 3,
        traits: 1,
        skills: 1,
        guardrails: 1,
        tags: ['teaching'],
        wornBy: [],
      }),
    ]);
    expect((await service.personaList({ tags: ['nothing'] })).personas).toEqual([]);
    expect((await service.personaList({ text: 'impatient' })).personas).toEqual([]);
    expect((await service.personaList({ text: 'PATIENT' })).personas).toHaveLength(1);
    expect((await service.partList({ type: 'tone' })).items.map((part) => part.name)).toEqual([
      'playful-tone',
      'stern-tone',
      'warm-tone',
    ]);
    expect(await service.partGet({ name: 'warm-tone' })).toMatchObject({
      ok: true,
      item: { usedBy: ['Mentor'], summary: 'Speak warmly.' },
    });
    expect(await service.traitList({ type: 'social' })).toEqual({ items: [] });

    const renamed = await service.partUpdate({
      name: 'warm-tone',
      changes: { name: 'kind-tone', summary: 'Speak kindly.' },
    });
    expect(renamed).toMatchObject({ ok: true, item: { name: 'kind-tone', type: 'tone', usedBy: ['Mentor'] } });
    // A rename keeps the link.
    expect(await toneOf(service)).toBe('kind-tone');

    const updated = await service.personaUpdate({ name: 'Mentor', changes: { description: 'Teaches.' } });
    expect(updated).toMatchObject({ ok: true, item: { name: 'Mentor', description: 'Teaches.', parts: 3 } });
    expect(await service.personaDelete({ name: 'Mentor' })).toEqual({ ok: true });
    expect((await service.personaList({})).personas).toEqual([]);
    // Its parts stay in the library.
    expect(await service.partGet({ name: 'kind-tone' })).toMatchObject({ ok: true, item: { usedBy: [] } });
  });

  it('refuses bad fields with their place, a taken name, an unknown key, and a missing item', async () => {
    const { service } = await setUp();
    expect(await service.partCreate({ fields: { name: 'x', type: 'mood', summary: 'y' } })).toMatchObject({
      ok: false,
      reason: 'invalid',
      problems: [{ path: 'type' }],
    });
    expect(await service.partCreate({ fields: { name: 'x', type: 'tone', summary: '' } })).toMatchObject({
      ok: false,
      reason: 'invalid',
      problems: [{ path: 'summary', message: 'a part needs a summary' }],
    });
    expect(await service.partCreate({ fields: { name: 'warm-tone', type: 'tone', summary: 'again' } })).toMatchObject({
      ok: false,
      reason: 'name-taken',
      problems: [{ message: 'there is already a part named "warm-tone"' }],
    });
    expect(
      await service.partCreate({ fields: { name: 'x', type: 'tone', summary: 'y', colour: 'red' } }),
    ).toMatchObject({ ok: false, reason: 'invalid' });
    expect(await service.personaCreate({ fields: { name: 'two\nlines' } })).toMatchObject({
      ok: false,
      reason: 'invalid',
      problems: [{ path: 'name' }],
    });
    expect(await service.personaUpdate({ name: 'Nobody', changes: {} })).toMatchObject({
      ok: false,
      reason: 'not-found',
      problems: [{ message: 'there is no persona named "Nobody"' }],
    });
    expect(await service.partUpdate({ name: 'warm-tone', changes: { name: 'stern-tone' } })).toMatchObject({
      ok: false,
      reason: 'name-taken',
    });
    expect(await service.personaLink({ persona: 'Mentor', kind: 'skill', name: 'juggling' })).toMatchObject({
      ok: false,
      reason: 'not-found',
    });
  });

  it('refuses a guardrail trigger with nothing visible, which could never fire, and keeps a real one with hidden characters', async () => {
    const { service } = await setUp();
    const before = (await service.guardrailList({})).items.length;
    for (const trigger of ['\u200b\u200b', '  ', '\u200b \ufeff'])
      expect(
        await service.guardrailCreate({ fields: { name: 'invisible', triggers: ['delete', trigger] } }),
      ).toMatchObject({
        ok: false,
        reason: 'invalid',
        problems: [{ path: 'triggers.1', message: expect.stringContaining('could never match') }],
      });
    expect((await service.guardrailList({})).items).toHaveLength(before);
    expect(await service.guardrailCreate({ fields: { name: 'wipe', triggers: ['rm\u200b -rf'] } })).toMatchObject({
      ok: true,
    });
  });

  it('refuses to delete a linked item unless forced, and then unlinks it everywhere', async () => {
    const { service } = await setUp();
    const refused = await service.partDelete({ name: 'warm-tone' });
    expect(refused).toMatchObject({
      ok: false,
      reason: 'in-use',
      problems: [{ message: expect.stringContaining('persona "Mentor"') }],
    });
    expect(await service.partDelete({ name: 'stern-tone' })).toMatchObject({
      ok: false,
      reason: 'in-use',
      problems: [{ message: expect.stringContaining('stage "stern"') }],
    });
    expect(await service.partDelete({ name: 'warm-tone', force: true })).toEqual({ ok: true });
    expect(await toneOf(service)).toBeUndefined();
    expect((await service.personaList({})).personas[0]!.parts).toBe(2);
  });

  it('orders, prioritises and pins parts, and unlinks them', async () => {
    const { service } = await setUp();
    expect(
      await service.personaArrangeParts({
        persona: 'Mentor',
        parts: [
          { name: 'teach-goal', priority: 3, pinned: true },
          { name: 'mentor-identity', priority: 2, pinned: false },
          { name: 'warm-tone', priority: 1, pinned: false },
        ],
      }),
    ).toEqual({ ok: true });
    const definition = await service.personaDefinition({ name: 'Mentor' });
    expect(definition.ok && definition.definition.parts.map((part) => [part.name, part.priority, part.pinned])).toEqual(
      [
        ['teach-goal', 3, true],
        ['mentor-identity', 2, false],
        ['warm-tone', 1, false],
      ],
    );
    expect(
      await service.personaArrangeParts({
        persona: 'Mentor',
        parts: [{ name: 'teach-goal', priority: 0, pinned: false }],
      }),
    ).toMatchObject({
      ok: false,
      problems: [{ message: expect.stringContaining('missing: mentor-identity, warm-tone') }],
    });
    expect(await service.personaUnlink({ persona: 'Mentor', kind: 'part', name: 'warm-tone' })).toEqual({ ok: true });
    expect(await service.personaUnlink({ persona: 'Mentor', kind: 'part', name: 'warm-tone' })).toMatchObject({
      ok: false,
      reason: 'not-found',
    });
  });

  it('assembles with overrides over the arc stage over the persona, and names a bad override', async () => {
    const { service, ok } = await setUp();
    expect(await toneOf(service)).toBe('warm-tone');
    ok(await service.personaArcAssign({ persona: 'Mentor', arc: 'growth' }));
    expect(await toneOf(service)).toBe('warm-tone');
    ok(await service.personaStageAdvance({ persona: 'Mentor' }));
    expect(await toneOf(service)).toBe('stern-tone');
    expect(await toneOf(service, { tone: 'playful-tone' })).toBe('playful-tone');
    const bad = await service.personaGet({
      name: 'Mentor',
      overrides: { tone: 'teach-goal', mood: 'x', goal: 'nothing' },
    });
    expect(bad).toMatchObject({
      ok: false,
      reason: 'invalid',
      problems: [
        { path: 'overrides.tone', message: '"teach-goal" is a goal part, not a tone part' },
        {
          path: 'overrides.mood',
          message: expect.stringMatching(/^there is no part type "mood"; the types are system, /),
        },
        { path: 'overrides.goal', message: 'there is no part named "nothing"' },
      ],
    });
  });

  it('advances through the arc, refuses past the last stage, and resets to the first', async () => {
    const { service, ok } = await setUp();
    expect(await service.personaStageAdvance({ persona: 'Mentor' })).toMatchObject({
      ok: false,
      problems: [{ message: '"Mentor" is on no arc; assign one first' }],
    });
    ok(await service.personaArcAssign({ persona: 'Mentor', arc: 'growth' }));
    expect(await service.personaStageAdvance({ persona: 'Mentor' })).toMatchObject({
      ok: true,
      item: { arc: { name: 'growth', stage: 'stern' } },
    });
    expect(await service.personaStageAdvance({ persona: 'Mentor' })).toMatchObject({
      ok: true,
      item: { arc: { stage: 'master' } },
    });
    expect(await service.personaStageAdvance({ persona: 'Mentor' })).toMatchObject({
      ok: false,
      reason: 'invalid',
      problems: [{ message: '"Mentor" is already at the last stage, "master"' }],
    });
    expect(await service.personaStageReset({ persona: 'Mentor' })).toMatchObject({
      ok: true,
      item: { arc: { stage: 'novice' } },
    });
    expect(await service.personaArcAssign({ persona: 'Mentor', arc: 'growth', stage: 'master' })).toMatchObject({
      ok: true,
      item: { arc: { stage: 'master' } },
    });
    expect(await service.arcGet({ name: 'growth' })).toMatchObject({
      ok: true,
      item: { personas: [{ name: 'Mentor', stage: 'master' }] },
    });
    expect(await service.arcStageRemove({ arc: 'growth', stage: 'master' })).toMatchObject({
      ok: false,
      reason: 'in-use',
    });
    expect(await service.arcDelete({ name: 'growth' })).toMatchObject({ ok: false, reason: 'in-use' });
    ok(await service.personaArcAssign({ persona: 'Mentor', arc: null }));
    expect((await service.personaList({})).personas[0]!.arc).toBeUndefined();
    expect(await service.arcDelete({ name: 'growth' })).toEqual({ ok: true });
  });

  it('adds stages at a position, refuses a duplicate stage name, and removes stage parts', async () => {
    const { service } = await setUp();
    const added = await service.arcStageAdd({
      arc: 'growth',
      fields: { name: 'apprentice', condition: 'after ten goals' },
      position: 1,
    });
    expect(added.ok && added.item.stages.map((stage) => [stage.name, stage.position])).toEqual([
      ['novice', 0],
      ['apprentice', 1],
      ['stern', 2],
      ['master', 3],
    ]);
    expect(await service.arcStageAdd({ arc: 'growth', fields: { name: 'novice' } })).toMatchObject({
      ok: false,
      reason: 'name-taken',
    });
    const removed = await service.stagePartRemove({ arc: 'growth', stage: 'stern', part: 'stern-tone' });
    expect(removed.ok && removed.item.stages.find((stage) => stage.name === 'stern')!.parts).toEqual([]);
    expect(
      await service.arcCreate({ fields: { name: 'twice' }, stages: [{ name: 'a' }, { name: 'a' }] }),
    ).toMatchObject({ ok: false, problems: [{ message: 'two stages are named "a"' }] });
  });

  it('compiles the summary and detail, says when they are out of date, and gives a manifest', async () => {
    const { service, ok } = await setUp();
    const compiled = await service.personaCompile({ name: 'Mentor' });
    if (!compiled.ok) throw new Error('not compiled');
    expect(compiled.compiled).toMatchObject({ isCurrent: true, compiledAt: 1_700_000_000_000 });
    expect(compiled.compiled.summary).toContain('Speak warmly.');
    expect(compiled.compiled.detail).toContain('one step at a time');
    ok(await service.partUpdate({ name: 'warm-tone', changes: { summary: 'Speak very warmly.' } }));
    expect(await service.personaGet({ name: 'Mentor' })).toMatchObject({ ok: true, compiled: { isCurrent: false } });
    const manifest = await service.personaManifest({ name: 'Mentor' });
    if (!manifest.ok) throw new Error('no manifest');
    expect(manifest.manifest.parts.map((part) => part.name)).toEqual(['mentor-identity', 'warm-tone', 'teach-goal']);
    expect(JSON.stringify(manifest.manifest)).not.toContain('Speak very warmly.');
    expect(manifest.manifest.tokens.detail).toBeGreaterThan(manifest.manifest.tokens.summary);
    expect(manifest.manifest.onDemand.map((entry) => entry.call)).toContain('partGet(name)');
  });

  it('compiles again by itself when the arc stage of a compiled persona changes', async () => {
    const { service, ok } = await setUp();
    ok(await service.personaArcAssign({ persona: 'Mentor', arc: 'growth' }));
    ok(await service.personaCompile({ name: 'Mentor' }));
    ok(await service.personaStageAdvance({ persona: 'Mentor' }));
    const got = expectAccepted(await service.personaGet({ name: 'Mentor' }));
    expect(got.compiled).toMatchObject({ isCurrent: true, summary: expect.stringContaining('Speak sternly.') });
    ok(await service.personaArcAssign({ persona: 'Mentor', arc: null }));
    expect(expectAccepted(await service.personaGet({ name: 'Mentor' })).compiled).toMatchObject({
      isCurrent: true,
      summary: expect.stringContaining('Speak warmly.'),
    });
  });

  it('refuses a budget the pinned parts alone exceed, naming them', async () => {
    const { service, ok } = await setUp();
    ok(
      await service.personaLink({
        persona: 'Mentor',
        kind: 'part',
        name: 'teach-goal',
        link: { priority: 0, pinned: true },
      }),
    );
    const refused = await service.personaGet({ name: 'Mentor', detail: true, budgetTokens: 10 });
    expect(refused).toMatchObject({
      ok: false,
      reason: 'pinned-over-budget',
      problems: [
        {
          path: 'budgetTokens',
          message: expect.stringMatching(/pinned parts \(teach-goal\) need about \d+ tokens, over the budget of 10/),
        },
      ],
    });
  });

  it('a session wears a persona; deleting the persona leaves the session wearing none', async () => {
    const { service, sessionId } = await setUp();
    expect(await service.sessionPersonaGet({ sessionId })).toEqual({});
    expect(await service.sessionPersonaSet({ sessionId, persona: 'Mentor' })).toMatchObject({
      ok: true,
      persona: { name: 'Mentor', wornBy: ['My session'] },
    });
    expect(await service.sessionPersonaGet({ sessionId })).toMatchObject({ persona: { name: 'Mentor' } });
    await service.personaDelete({ name: 'Mentor' });
    expect(await service.sessionPersonaGet({ sessionId })).toEqual({});
    expect(await service.sessionPersonaSet({ sessionId, persona: 'Mentor' })).toMatchObject({
      ok: false,
      reason: 'not-found',
    });
  });
});

describe('persona bundles', () => {
  it('exports the same bytes twice, and imports into another catalog as the same persona', async () => {
    const { service, ok } = await setUp();
    ok(await service.personaArcAssign({ persona: 'Mentor', arc: 'growth', stage: 'stern' }));
    const first = await service.personaExport({ name: 'Mentor', format: 'bundle' });
    const second = await service.personaExport({ name: 'Mentor', format: 'bundle' });
    if (!first.ok || !second.ok) throw new Error('no export');
    expect(first.fileName).toBe('mentor.persona.json');
    expect(second.data).toBe(first.data);

    const other = testService();
    await other.service.open({});
    const check = await other.service.personaImportCheck({ fileName: first.fileName, data: first.data });
    expect(check).toMatchObject({
      ok: true,
      preview: { format: 'bundle', persona: { name: 'Mentor' }, arc: { name: 'growth', currentStage: 'stern' } },
    });
    expect(check.ok && check.preview.items.every((item) => item.state === 'new')).toBe(true);
    expect(await other.service.personaList({})).toEqual({ personas: [] });
    expect(await other.service.personaImport({ fileName: first.fileName, data: first.data })).toMatchObject({
      ok: true,
      item: { name: 'Mentor', arc: { stage: 'stern' } },
    });
    const again = await other.service.personaExport({ name: 'Mentor', format: 'bundle' });
    expect(again.ok && again.data).toBe(first.data);
    const original = expectAccepted(await service.personaGet({ name: 'Mentor', detail: true }));
    const imported = expectAccepted(await other.service.personaGet({ name: 'Mentor', detail: true }));
    expect(imported.assembled.text).toBe(original.assembled.text);
  });

  it('refuses a persona name already taken, and imports under another name reusing identical parts', async () => {
    const { service } = await setUp();
    const exported = await service.personaExport({ name: 'Mentor', format: 'bundle' });
    if (!exported.ok) throw new Error('no export');
    expect(await service.personaImport({ fileName: 'm.json', data: exported.data })).toMatchObject({
      ok: false,
      reason: 'name-taken',
      problems: [{ path: 'persona.name' }],
    });
    const check = await service.personaImportCheck({ fileName: 'm.json', data: exported.data, asName: 'Mentor 2' });
    expect(check.ok && check.preview.items.map((item) => item.state)).toEqual(
      Array(check.ok ? check.preview.items.length : 0).fill('reused'),
    );
    expect(await service.personaImport({ fileName: 'm.json', data: exported.data, asName: 'Mentor 2' })).toMatchObject({
      ok: true,
      item: { name: 'Mentor 2', parts: 3 },
    });
    expect((await service.partList({})).items).toHaveLength(5);
  });

  it('refuses a clashing item, a broken reference, bad JSON and another version, and changes nothing', async () => {
    const { db, service } = await setUp();
    const exported = await service.personaExport({ name: 'Mentor', format: 'bundle' });
    if (!exported.ok || typeof exported.data !== 'string') throw new Error('no export');
    const bundle = JSON.parse(exported.data);
    const before = { parts: await db.parts.count(), personas: await db.personas.count() };
    bundle.persona.name = 'Other';
    bundle.parts[1].summary = 'Speak coldly.';
    expect(await service.personaImport({ fileName: 'x.json', data: JSON.stringify(bundle) })).toMatchObject({
      ok: false,
      reason: 'name-taken',
      problems: [
        {
          path: 'parts.1.name',
          message: 'there is already a part named "warm-tone" with other content; rename one of them',
        },
      ],
    });
    bundle.links.push({ part: 'ghost', priority: 0, pinned: false });
    expect(await service.personaImportCheck({ fileName: 'x.json', data: JSON.stringify(bundle) })).toMatchObject({
      ok: false,
      reason: 'invalid',
      problems: [{ path: 'links.3.part', message: 'the part "ghost" is not in the bundle\'s parts' }],
    });
    expect(await service.personaImport({ fileName: 'x.json', data: '{"format": "anima-persona", ' })).toMatchObject({
      ok: false,
      reason: 'invalid',
      problems: [
        {
          line: 1,
          column: 29,
          path: '$',
          message: 'a key in double quotes was expected, but the end of the text was found',
        },
      ],
    });
    expect(
      await service.personaImport({ fileName: 'x.json', data: JSON.stringify({ ...bundle, version: 9 }) }),
    ).toMatchObject({
      ok: false,
      problems: [{ path: 'version', message: 'this is a version 9 bundle; this Anima reads version 1' }],
    });
    expect({ parts: await db.parts.count(), personas: await db.personas.count() }).toEqual(before);
  });
});
