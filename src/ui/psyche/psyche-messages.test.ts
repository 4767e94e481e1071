import { describe, expect, it } from 'vitest';
import type { Psyche } from '#core/api.ts';
import { describeChange, patternCountText, versionText, weightText } from './psyche-messages.ts';

const psyche = {
  persona: { name: 'Scholar', grammarPreference: 'narrative', traits: [], tone: [] },
  shadow: { vetoPatterns: [], biasPatterns: [] },
  archetypes: { sage: 0.7, healer: 0.5, explorer: 0.5, guardian: 0.4 },
  selfIntegration: {
    individuationLevel: 0.1,
    lastEvolutionCycle: 0,
    shadowEncounters: 0,
    encountersAtLastEvolution: 0,
    rebalanceCount: 0,
    dominantArchetype: 'sage',
  },
  extras: {},
} satisfies Psyche;

function changed(version: number) {
  return {
    ok: true as const,
    current: { version, psyche, cycle: 0, reason: 'saved', createdAt: 0 },
    warnings: [{ line: 3, path: 'persona.mood', message: 'unknown key, kept' }],
  };
}

describe('describeChange', () => {
  it('names the new version, with the warnings located', () => {
    expect(describeChange({ kind: 'save' }, changed(4))).toEqual({
      tone: 'success',
      message: 'Saved as version 4.',
      version: 4,
      warnings: ['line 3, at persona.mood: unknown key, kept'],
    });
    expect(describeChange({ kind: 'import', fileName: 'psyche.toml' }, changed(5)).message).toBe(
      'Imported psyche.toml as version 5.',
    );
    expect(describeChange({ kind: 'restore', version: 1 }, changed(6)).message).toBe(
      'Restored version 1 as version 6.',
    );
  });

  it('says that nothing changed, and why', () => {
    const invalid = {
      ok: false as const,
      reason: 'invalid' as const,
      problems: [{ line: 2, path: 'archetypes.sage', message: 'expected a number' }],
      warnings: [],
    };
    expect(describeChange({ kind: 'import', fileName: 'mine.toml' }, invalid)).toEqual({
      tone: 'failure',
      message: 'mine.toml was not imported; nothing changed:',
      problems: ['line 2, at archetypes.sage: expected a number'],
      warnings: [],
    });
    expect(
      describeChange({ kind: 'restore', version: 9 }, { ...invalid, reason: 'not-found', problems: [] }).message,
    ).toBe('Version 9 no longer exists; nothing changed.');
    expect(describeChange({ kind: 'save' }, { ...invalid, reason: 'read-only' }).message).toMatch(
      /open in another tab/,
    );
  });
});

describe('the words of values', () => {
  it('show weights with two decimals and count patterns', () => {
    expect(weightText(0.9)).toBe('0.90');
    expect(patternCountText(3, 1)).toBe('3 veto patterns and 1 bias pattern');
    expect(versionText({ version: 2, cycle: 1200 })).toBe('Version 2, cycle 1,200');
  });
});
