import { describe, expect, it } from 'vitest';
import { defaultPsyche } from '#core/records/psyche.ts';
import { diffPsyche } from './psyche-diff.ts';

describe('the difference between two psyches', () => {
  it('names the persona, the weights and every pattern added, removed or changed', () => {
    const current = defaultPsyche();
    const [firstVeto] = current.shadow.vetoPatterns;
    const next = {
      ...current,
      persona: { ...current.persona, name: 'Explorer' },
      archetypes: { ...current.archetypes, explorer: 0.9 },
      shadow: {
        vetoPatterns: [{ ...firstVeto!, name: 'never_delete', triggers: ['tool=kg_mutate'] }],
        biasPatterns: [...current.shadow.biasPatterns, { ...firstVeto!, name: 'curious', requireApproval: false }],
      },
    };
    const diff = diffPsyche(current, next);
    expect(diff.persona).toEqual({ from: current.persona.name, to: 'Explorer' });
    expect(diff.archetypes).toEqual([{ archetype: 'explorer', from: current.archetypes.explorer, to: 0.9 }]);
    expect(diff.vetoes.added).toEqual(['never_delete']);
    expect(diff.vetoes.removed).toEqual(current.shadow.vetoPatterns.map((pattern) => pattern.name));
    expect(diff.biases).toEqual({ added: ['curious'], removed: [], changed: [] });
    // Every veto of the default psyche goes: each is a safety change.
    expect(diff.weakenedVetoes).toEqual(current.shadow.vetoPatterns.map((pattern) => pattern.name));
  });

  it('finds nothing to confirm when only weights change', () => {
    const current = defaultPsyche();
    const diff = diffPsyche(current, { ...current, archetypes: { ...current.archetypes, sage: 0.1 } });
    expect(diff).toMatchObject({ vetoes: { added: [], removed: [], changed: [] }, weakenedVetoes: [] });
    expect(diff.persona).toBeUndefined();
  });
});
