import { ARCHETYPES, type Archetype, type Psyche, type ShadowPattern } from '#core/records/psyche.ts';

/** How the patterns of one kind (veto or bias) differ, by name. */
export type PatternDiff = { added: string[]; removed: string[]; changed: string[] };

/** What replacing one psyche by another changes, for a preview before an import. */
export type PsycheDiff = {
  persona?: { from: string; to: string };
  archetypes: { archetype: Archetype; from: number; to: number }[];
  vetoes: PatternDiff;
  biases: PatternDiff;
  /**
   * The veto patterns that stop guarding as they did: removed, or changed (another trigger, no
   * approval asked). Importing them away is a safety change the user confirms explicitly.
   */
  weakenedVetoes: string[];
};

function patternDiff(from: readonly ShadowPattern[], to: readonly ShadowPattern[]): PatternDiff {
  const before = new Map(from.map((pattern) => [pattern.name, JSON.stringify(pattern)]));
  const after = new Map(to.map((pattern) => [pattern.name, JSON.stringify(pattern)]));
  return {
    added: [...after.keys()].filter((name) => !before.has(name)),
    removed: [...before.keys()].filter((name) => !after.has(name)),
    changed: [...after.keys()].filter((name) => before.has(name) && before.get(name) !== after.get(name)),
  };
}

/** What changes from the current psyche to the next: persona, archetype weights, every veto and bias pattern added, removed or changed. */
export function diffPsyche(current: Psyche, next: Psyche): PsycheDiff {
  const vetoes = patternDiff(current.shadow.vetoPatterns, next.shadow.vetoPatterns);
  return {
    ...(current.persona.name !== next.persona.name
      ? { persona: { from: current.persona.name, to: next.persona.name } }
      : {}),
    archetypes: ARCHETYPES.filter((archetype) => current.archetypes[archetype] !== next.archetypes[archetype]).map(
      (archetype) => ({
        archetype,
        from: current.archetypes[archetype],
        to: next.archetypes[archetype],
      }),
    ),
    vetoes,
    biases: patternDiff(current.shadow.biasPatterns, next.shadow.biasPatterns),
    weakenedVetoes: [...vetoes.removed, ...vetoes.changed],
  };
}
