import { describe, expect, it } from 'vitest';
import type { Psyche } from '#core/api.ts';
import {
  CAPABILITIES,
  formFingerprint,
  DANGER_LEVELS,
  dominantArchetype,
  formOf,
  grammarFromFile,
  grammarOptions,
  listOf,
  newPattern,
  psycheOf,
  withGrammar,
} from './psyche-form.ts';

function scholar(): Psyche {
  return {
    persona: { name: 'Scholar', grammarPreference: 'narrative', traits: ['precise', 'curious'], tone: ['clear'] },
    shadow: {
      vetoPatterns: [
        {
          name: 'destructive_action',
          triggers: ['delete all', 'rm -rf'],
          capabilityTriggers: ['processExec'],
          dangerThreshold: 'critical',
          severity: 1,
          explanation: 'Never.',
          requireApproval: false,
        },
      ],
      biasPatterns: [
        {
          name: 'unsupported_assertion',
          triggers: ['synthesize_triple'],
          capabilityTriggers: [],
          severity: 0.3,
          explanation: 'Prefer the graph.',
          requireApproval: false,
        },
      ],
    },
    archetypes: { sage: 0.7, healer: 0.5, explorer: 0.5, guardian: 0.4 },
    selfIntegration: {
      individuationLevel: 0.2,
      lastEvolutionCycle: 4,
      shadowEncounters: 3,
      encountersAtLastEvolution: 1,
      rebalanceCount: 2,
      dominantArchetype: 'sage',
    },
    extras: { persona: { mood: 'calm' } },
  };
}

function counter(): () => number {
  let key = 0;
  return () => ++key;
}

describe('listOf', () => {
  it('splits traits by commas, trimmed, without empty items', () => {
    expect(listOf(' precise, curious ,, thorough ')).toEqual(['precise', 'curious', 'thorough']);
    expect(listOf('   ')).toEqual([]);
  });

  it('splits triggers by lines only, keeping phrases with commas whole', () => {
    expect(listOf('delete all\nrm -rf\n drop table users, orders \n', 'line')).toEqual([
      'delete all',
      'rm -rf',
      'drop table users, orders',
    ]);
  });
});

describe('formOf and psycheOf', () => {
  it('give back the same psyche when nothing was edited', () => {
    const psyche = scholar();
    expect(psycheOf(formOf(psyche, counter()), psyche)).toEqual(psyche);
  });

  it('number each pattern with its own key', () => {
    const form = formOf(scholar(), counter());
    expect([...form.vetoPatterns, ...form.biasPatterns].map((pattern) => pattern.key)).toEqual([1, 2]);
    expect(form.vetoPatterns[0]).toMatchObject({ triggers: 'delete all\nrm -rf', dangerThreshold: 'critical' });
  });

  it('save the edits, keeping self-integration and unknown keys, with the dominant archetype following the weights', () => {
    const psyche = scholar();
    const form = formOf(psyche, counter());
    form.name = '  Explorer ';
    form.traits = 'bold, quick';
    form.archetypes.explorer = 0.9;
    form.vetoPatterns[0]!.dangerThreshold = '';
    form.vetoPatterns.push({
      ...newPattern(9),
      name: 'ask_first',
      triggers: 'kg_query',
      capabilityTriggers: ['network', 'readKg'],
      requireApproval: true,
    });
    form.biasPatterns[0]!.requireApproval = true;

    const saved = psycheOf(form, psyche);
    expect(saved.persona).toEqual({
      name: 'Explorer',
      grammarPreference: 'narrative',
      traits: ['bold', 'quick'],
      tone: ['clear'],
    });
    expect(saved.archetypes.explorer).toBe(0.9);
    expect(saved.selfIntegration).toEqual({ ...psyche.selfIntegration, dominantArchetype: 'explorer' });
    expect(saved.extras).toEqual({ persona: { mood: 'calm' } });
    expect(saved.shadow.vetoPatterns[0]).not.toHaveProperty('dangerThreshold');
    // Capabilities in the agent's order, whatever order they were ticked in.
    expect(saved.shadow.vetoPatterns[1]).toEqual({
      name: 'ask_first',
      triggers: ['kg_query'],
      capabilityTriggers: ['readKg', 'network'],
      severity: 0.5,
      explanation: '',
      requireApproval: true,
    });
    // Only a veto can hold an action for approval.
    expect(saved.shadow.biasPatterns[0]!.requireApproval).toBe(false);
  });
});

describe('custom grammars', () => {
  it('are named after their file and preferred once loaded', () => {
    const grammar = grammarFromFile('scholarly.grammar.toml', '[templates]');
    expect(grammar).toEqual({ name: 'scholarly.grammar', source: '[templates]' });
    const form = withGrammar(formOf(scholar(), counter()), grammar);
    expect(form.grammarPreference).toBe('scholarly.grammar');
    expect(grammarOptions(form.grammar)).toEqual(['narrative', 'formal', 'terse', 'scholarly.grammar']);
    expect(psycheOf(form, scholar()).grammar).toEqual(grammar);
  });

  it('once removed, leave the persona preferring narrative if it preferred the removed one', () => {
    const loaded = withGrammar(formOf(scholar(), counter()), grammarFromFile('mine.toml', ''));
    const removed = withGrammar(loaded, undefined);
    expect(removed.grammar).toBeUndefined();
    expect(removed.grammarPreference).toBe('narrative');
    expect(withGrammar({ ...loaded, grammarPreference: 'terse' }, undefined).grammarPreference).toBe('terse');
    expect(psycheOf(removed, scholar())).not.toHaveProperty('grammar');
  });
});

describe('the allowed values', () => {
  it('come from the contract', () => {
    expect(CAPABILITIES).toContain('network');
    expect(DANGER_LEVELS).toEqual(['safe', 'cautious', 'dangerous', 'critical']);
  });

  it('give ties of weight to the archetype listed first', () => {
    expect(dominantArchetype({ sage: 0.5, healer: 0.5, explorer: 0.2, guardian: 0.5 })).toBe('sage');
    expect(dominantArchetype({ sage: 0.5, healer: 0.6, explorer: 0.6, guardian: 0.1 })).toBe('healer');
  });

  it('fingerprints what a form says, not how its patterns are numbered on screen', () => {
    let key = 0;
    const first = formOf(scholar(), () => ++key);
    const second = formOf(scholar(), () => ++key);
    expect(formFingerprint(first)).toBe(formFingerprint(second));
    second.archetypes.sage = 0.2;
    expect(formFingerprint(first)).not.toBe(formFingerprint(second));
  });
});
