import { defaultPsyche, type Psyche } from '#core/records/psyche.ts';

/** A base psyche unlike any file in the tests, so a test of psyche.toml sees which values came from the file. */
export function otherBase(): Psyche {
  const base = defaultPsyche();
  return {
    ...base,
    persona: { ...base.persona, name: 'Base' },
    archetypes: { sage: 0.2, healer: 0.3, explorer: 0.9, guardian: 0.4 },
    selfIntegration: {
      ...base.selfIntegration,
      shadowEncounters: 7,
      encountersAtLastEvolution: 5,
      dominantArchetype: 'explorer',
    },
    grammar: { name: 'base-grammar', source: '' },
    extras: { persona: { fromBase: true }, archetypes: { fromBase: true } },
  };
}
