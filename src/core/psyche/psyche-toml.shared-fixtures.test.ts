import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { sharedFixtures } from '../../../tests/unit/shared-fixtures.ts';
import { describeProblem } from '#core/result.ts';
import { otherBase } from '#core/testing/other-base-psyche.ts';
import { defaultPsyche } from '#core/records/psyche.ts';
import { parsePsycheToml } from './psyche-toml-read.ts';
import { psycheToToml } from './psyche-toml-write.ts';

/**
 * akh-medu's psyche files (shared/fixtures/public/psyche, GPL-3.0, which the repository may not
 * hold): run only with ANIMA_SHARED_FIXTURES set. psyche-toml.test.ts reads the real TOML files
 * the repository holds, and psyches written in the same format.
 */
const fixtures = sharedFixtures('psyche');

describe("akh-medu's real psyche files", () => {
  const read = (name: string) => parsePsycheToml(readFileSync(path.join(fixtures, name), 'utf8'), otherBase());

  test('its current default psyche imports (capability and danger triggers, action_triggers) and survives export and re-import', () => {
    const outcome = read('akh-medu-psyche.toml');
    if (!outcome.ok) throw new Error(outcome.problems.map(describeProblem).join('; '));
    expect(outcome.warnings).toEqual([]);
    expect(outcome.psyche.shadow.vetoPatterns).toEqual([
      {
        name: 'destructive_action',
        triggers: ['delete all', 'drop table', 'rm -rf'],
        capabilityTriggers: ['processExec'],
        dangerThreshold: 'critical',
        severity: 1,
        explanation: 'Destructive or arbitrary execution actions require explicit user confirmation.',
        requireApproval: false,
      },
    ]);
    expect(outcome.psyche.shadow.biasPatterns[0]).toMatchObject({
      name: 'filesystem_write',
      triggers: [],
      capabilityTriggers: ['writeFiles'],
      dangerThreshold: 'dangerous',
    });
    expect(outcome.psyche.archetypes).toEqual({ sage: 0.7, healer: 0.5, explorer: 0.5, guardian: 0.4 });
    const exported = psycheToToml(outcome.psyche);
    const again = parsePsycheToml(exported, defaultPsyche());
    expect(again).toEqual({ ok: true, psyche: outcome.psyche, warnings: [] });
  });

  test('its first version imports, em dash kept', () => {
    const outcome = read('akh-medu-psyche-phase9.toml');
    expect(outcome.ok && outcome.warnings).toEqual([]);
    expect(outcome.ok && outcome.psyche.shadow.biasPatterns[0]?.explanation).toBe(
      'Detected repetitive pattern — try a different approach.',
    );
  });

  test("the book's persona and shadow fragments import as partial psyches, with warnings", () => {
    const persona = read('akh-medu-psyche-book-explorer-persona.toml');
    expect(persona.ok && persona.psyche.persona.name).toBe('Explorer');
    expect(persona.warnings.map((warning) => warning.path)).toEqual([
      'shadow',
      'archetypes',
      'self_integration',
      'grammar',
    ]);
    const shadow = read('akh-medu-psyche-book-shadow-constraints.toml');
    expect(shadow.ok && shadow.psyche.shadow.vetoPatterns.map((pattern) => pattern.name)).toEqual([
      'no_external_network',
    ]);
    expect(shadow.ok && shadow.psyche.shadow.biasPatterns.map((pattern) => pattern.name)).toEqual([
      'prefer_internal_reasoning',
    ]);
    expect(shadow.warnings.map((warning) => warning.path)).toEqual([
      'persona',
      'archetypes',
      'self_integration',
      'grammar',
    ]);
  });

  test("the book's archetype block, [archetypes] twice, is refused naming line 9; each half imports", () => {
    expect(read('akh-medu-psyche-book-archetypes-both.toml')).toMatchObject({ ok: false, problems: [{ line: 9 }] });
    const exploratory = read('akh-medu-psyche-book-archetypes-exploratory.toml');
    expect(exploratory.ok && exploratory.psyche.archetypes).toEqual({
      sage: 0.4,
      healer: 0.3,
      explorer: 0.9,
      guardian: 0.3,
    });
    const cautious = read('akh-medu-psyche-book-archetypes-cautious.toml');
    expect(cautious.ok && cautious.psyche.archetypes).toEqual({ sage: 0.5, healer: 0.6, explorer: 0.2, guardian: 0.9 });
    expect(cautious.ok && cautious.psyche.selfIntegration.dominantArchetype).toBe('guardian');
  });

  test('its compartment manifest is refused as not a psyche', () => {
    const outcome = read('akh-medu-psyche-compartment.toml');
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.problems[0]?.message).toMatch(/^not a psyche file: /);
  });
});
