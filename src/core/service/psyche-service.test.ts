import { describe, expect, it } from 'vitest';
import { describeProblem } from '#core/result.ts';
import { testService } from '#core/testing/test-database.ts';

async function openService(options: Parameters<typeof testService>[0] = {}) {
  const { db, service } = testService(options);
  const { session } = await service.open({});
  return { db, service, sessionId: session.id };
}

const EXPLORER = `[persona]
name = "Explorer"
grammar_preference = "terse"
traits = ["adventurous"]
tone = ["concise"]

[archetypes]
healer = 0.3
sage = 0.4
guardian = 0.3
explorer = 0.9
`;

describe('the psyche of a session', () => {
  it('starts as the default psyche, version 1, not stored', async () => {
    const { db, service, sessionId } = await openService();
    const current = await service.psycheGet({ sessionId });
    expect(current).toMatchObject({
      version: 1,
      reason: 'the default psyche',
      psyche: { persona: { name: 'Scholar' }, selfIntegration: { dominantArchetype: 'sage' } },
    });
    expect(await db.psyches.count()).toBe(0);
    expect((await service.psycheHistory({ sessionId })).versions.map((version) => version.version)).toEqual([1]);
  });

  it('numbers versions without a gap: the default shown as version 1 is stored as version 1 by the first change', async () => {
    const { service, sessionId } = await openService();
    expect((await service.psycheGet({ sessionId })).version).toBe(1);
    const imported = await service.psycheImport({ sessionId, toml: EXPLORER, fileName: 'explorer.toml' });
    expect(imported).toMatchObject({ ok: true, current: { version: 2 } });
    expect((await service.psycheHistory({ sessionId })).versions.map((version) => version.version)).toEqual([1, 2]);
  });

  it('imports a psyche.toml as a new version over the current one, keeping what the file leaves out', async () => {
    const { service, sessionId } = await openService();
    const imported = await service.psycheImport({ sessionId, toml: EXPLORER, fileName: 'explorer.toml' });
    if (!imported.ok) throw new Error(imported.problems.map(describeProblem).join('\n'));
    expect(imported.current).toMatchObject({
      version: 2,
      reason: 'imported explorer.toml',
      psyche: {
        persona: { name: 'Explorer' },
        archetypes: { explorer: 0.9 },
        selfIntegration: { dominantArchetype: 'explorer' },
      },
    });
    // No [shadow] in the file: the current shadow stays, and a warning says so.
    expect(imported.current.psyche.shadow.vetoPatterns.map((pattern) => pattern.name)).toContain('destructive_action');
    expect(imported.warnings.map((warning) => warning.message).join(' ')).toMatch(/shadow/);
    const history = await service.psycheHistory({ sessionId });
    expect(history.versions.map((version) => [version.version, version.reason, version.archetypes.explorer])).toEqual([
      [1, 'the default psyche', 0.5],
      [2, 'imported explorer.toml', 0.9],
    ]);
  });

  it('refuses a broken file, naming the line, and changes nothing', async () => {
    const { db, service, sessionId } = await openService();
    const broken = EXPLORER.replace('explorer = 0.9', 'explorer = "very"');
    const checked = await service.psycheCheck({ sessionId, toml: broken });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problems[0]).toMatchObject({ line: 11, path: 'archetypes.explorer' });
    const imported = await service.psycheImport({ sessionId, toml: broken });
    expect(imported).toMatchObject({ ok: false, reason: 'invalid' });
    expect(await db.psyches.count()).toBe(0);
    expect(await db.provenance.where('kind').equals('psyche-change').count()).toBe(0);
  });

  it('refuses a custom grammar synthesis could not use', async () => {
    const { service, sessionId } = await openService();
    const toml = `${EXPLORER}\n[grammar]\nname = "mine"\nsource = "layout = 12"\n`;
    const imported = await service.psycheImport({ sessionId, toml });
    expect(imported.ok).toBe(false);
    if (!imported.ok) expect(imported.problems[0]!.path).toMatch(/^grammar\.source/);
  });

  it('saves an edited psyche, keeping the counters, and validates it first', async () => {
    const { service, sessionId } = await openService();
    const { psyche } = await service.psycheGet({ sessionId });
    const edited = {
      ...psyche,
      archetypes: { ...psyche.archetypes, guardian: 0.9 },
      selfIntegration: { ...psyche.selfIntegration, shadowEncounters: 99 },
    };
    const saved = await service.psycheSave({ sessionId, psyche: edited });
    expect(saved).toMatchObject({
      ok: true,
      current: {
        version: 2,
        reason: 'edited',
        psyche: {
          archetypes: { guardian: 0.9 },
          selfIntegration: { shadowEncounters: 0, dominantArchetype: 'guardian' },
        },
      },
    });
    const refused = await service.psycheSave({
      sessionId,
      psyche: { ...psyche, archetypes: { ...psyche.archetypes, sage: 3 } },
    });
    expect(refused).toMatchObject({ ok: false, reason: 'invalid', problems: [{ path: 'archetypes.sage' }] });
  });

  it('restores an earlier version as a new one, and exports what re-imports to the same psyche', async () => {
    const { service, sessionId } = await openService();
    await service.psycheImport({ sessionId, toml: EXPLORER });
    const restored = await service.psycheRestore({ sessionId, version: 1 });
    expect(restored).toMatchObject({
      ok: true,
      current: {
        version: 3,
        reason: 'restored version 1',
        psyche: { persona: { name: 'Scholar' }, archetypes: { explorer: 0.5 } },
      },
    });
    expect(await service.psycheRestore({ sessionId, version: 9 })).toMatchObject({ ok: false, reason: 'not-found' });

    await service.psycheImport({ sessionId, toml: EXPLORER });
    const exported = await service.psycheExport({ sessionId });
    expect(exported.fileName).toBe('explorer.psyche.toml');
    const before = await service.psycheGet({ sessionId });
    const again = await service.psycheImport({ sessionId, toml: exported.text });
    expect(again.ok && again.current.psyche).toEqual(before.psyche);
    expect((await service.psycheExport({ sessionId })).text).toBe(exported.text);
  });

  it('refuses a veto whose only trigger is zero-width, in a file and from the form, and stores nothing', async () => {
    const { db, service, sessionId } = await openService();
    const toml = `${EXPLORER}\n[[shadow.veto_patterns]]\nname = "stop"\ntriggers = ["\\u200b\\u200b"]\nseverity = 1.0\nexplanation = "No."\n`;
    const checked = await service.psycheCheck({ sessionId, toml });
    expect(checked).toMatchObject({
      ok: false,
      problems: [
        { line: 15, path: 'shadow.veto_patterns.0.triggers.0', message: expect.stringContaining('"\\u200b\\u200b"') },
      ],
    });
    expect(await service.psycheImport({ sessionId, toml })).toMatchObject({
      ok: false,
      reason: 'invalid',
      problems: [{ line: 15 }],
    });

    // The Psyche screen's form sends patterns as data: the same rule, the same sentence.
    const { psyche } = await service.psycheGet({ sessionId });
    const invisible = {
      name: 'stop',
      triggers: ['\u200b\u200b'],
      capabilityTriggers: [],
      severity: 1,
      explanation: '',
      requireApproval: false,
    };
    const saved = await service.psycheSave({
      sessionId,
      psyche: { ...psyche, shadow: { ...psyche.shadow, vetoPatterns: [...psyche.shadow.vetoPatterns, invisible] } },
    });
    expect(saved.ok ? [] : saved.problems.map(describeProblem)).toEqual([
      'at shadow.vetoPatterns.3.triggers.0: the trigger "\\u200b\\u200b" of the veto pattern "stop" has no visible character (case, width, zero-width characters and spacing aside), so it could never match',
    ]);
    const silent = { ...invisible, triggers: [] };
    const savedSilent = await service.psycheSave({
      sessionId,
      psyche: { ...psyche, shadow: { ...psyche.shadow, biasPatterns: [silent] } },
    });
    expect(savedSilent.ok ? [] : savedSilent.problems.map(describeProblem)).toEqual([
      'at shadow.biasPatterns.0: the bias pattern "stop" can never fire: it has no text trigger, capability trigger or danger threshold',
    ]);
    expect(await db.psyches.count()).toBe(0);
  });

  it('still shows a psyche stored before the rule, but does not restore its pattern that cannot fire', async () => {
    const { db, service, sessionId } = await openService();
    const { psyche } = await service.psycheGet({ sessionId });
    const old = {
      ...psyche,
      shadow: {
        ...psyche.shadow,
        vetoPatterns: [
          {
            name: 'old',
            triggers: ['\u200b'],
            capabilityTriggers: [],
            severity: 1,
            explanation: '',
            requireApproval: false,
          },
        ],
      },
    };
    await db.psyches.bulkAdd([
      { sessionId, version: 1, psyche: old, cycle: 0, reason: 'imported old.toml', createdAt: 1 },
      { sessionId, version: 2, psyche, cycle: 0, reason: 'edited', createdAt: 2 },
    ]);
    expect((await service.psycheHistory({ sessionId })).versions).toHaveLength(2);
    const restored = await service.psycheRestore({ sessionId, version: 1 });
    expect(restored).toMatchObject({
      ok: false,
      reason: 'invalid',
      problems: [{ path: 'shadow.vetoPatterns.0.triggers.0', message: expect.stringContaining('could never match') }],
    });
    expect(await db.psyches.count()).toBe(2);
    await db.psyches.put({
      ...(await db.psyches.where('[sessionId+version]').equals([sessionId, 2]).first())!,
      psyche: old,
    });
    expect((await service.psycheGet({ sessionId })).psyche.shadow.vetoPatterns[0]!.name).toBe('old');
  });

  it('changes nothing from a read-only tab', async () => {
    const { db, sessionId } = await openService();
    const { service } = testService({
      db,
      writeAccess: { ready: Promise.resolve(), canWrite: () => false, onGranted: () => undefined },
    });
    await service.open({});
    expect(await service.psycheImport({ sessionId, toml: EXPLORER })).toMatchObject({ ok: false, reason: 'read-only' });
    expect(await service.psycheRestore({ sessionId, version: 1 })).toMatchObject({ ok: false, reason: 'read-only' });
  });
});
