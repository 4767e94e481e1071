import { type Psyche, psycheSchema } from '#core/api.ts';

/**
 * The form editor's model of a psyche: the same data with lists as the text the user types, and
 * a key per shadow pattern so a list edit keeps each pattern's fields in place. The allowed
 * values come from the contract's schema, so the form offers exactly what the agent accepts.
 */

type ShadowPattern = Psyche['shadow']['vetoPatterns'][number];
export type Capability = ShadowPattern['capabilityTriggers'][number];
export type DangerLevel = NonNullable<ShadowPattern['dangerThreshold']>;
export type ArchetypeWeights = Psyche['archetypes'];
export type Archetype = keyof ArchetypeWeights;
export type CustomGrammar = NonNullable<Psyche['grammar']>;

const patternShape = psycheSchema.shape.shadow.shape.vetoPatterns.element.shape;

/** What a tool can touch, in the agent's order: a pattern can trigger on any of them. */
export const CAPABILITIES: readonly Capability[] = patternShape.capabilityTriggers.element.options;
/** Tool danger levels, least to most: a pattern can trigger at or above one. */
export const DANGER_LEVELS: readonly DangerLevel[] = patternShape.dangerThreshold.unwrap().options;
/** The four archetypes, in the order the agent lists (and breaks ties in). */
export const ARCHETYPES = Object.keys(psycheSchema.shape.archetypes.shape) as Archetype[];
/** The grammars synthesis always has; a custom grammar comes on top. */
export const BUILT_IN_GRAMMARS = ['narrative', 'formal', 'terse'] as const;

/** A shadow pattern as the form edits it. */
export type PatternForm = {
  /** Stable while the pattern is in the list (not saved). */
  key: number;
  name: string;
  /** Text triggers, separated by commas or new lines. */
  triggers: string;
  capabilityTriggers: Capability[];
  /** '' for none. */
  dangerThreshold: DangerLevel | '';
  severity: number;
  explanation: string;
  requireApproval: boolean;
};

export type PatternKind = 'vetoPatterns' | 'biasPatterns';

/** The psyche as the form edits it; self-integration and unknown keys are kept from the psyche it started from. */
export type PsycheForm = {
  name: string;
  grammarPreference: string;
  /** Separated by commas. */
  traits: string;
  tone: string;
  archetypes: ArchetypeWeights;
  vetoPatterns: PatternForm[];
  biasPatterns: PatternForm[];
  grammar: CustomGrammar | undefined;
};

/** Splits a typed list: by commas, or (for triggers, which may hold commas: "drop table a, b") by lines only; trimmed, without empty items. */
export function listOf(text: string, separator: 'comma' | 'line' = 'comma'): string[] {
  return text
    .split(separator === 'comma' ? /,/ : /\n/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Writes a list as the form shows it: "precise, curious". */
export function listText(items: readonly string[]): string {
  return items.join(', ');
}

/** The form of a psyche; `nextKey` numbers its patterns. */
export function formOf(psyche: Psyche, nextKey: () => number): PsycheForm {
  const patternForm = (pattern: ShadowPattern): PatternForm => ({
    key: nextKey(),
    name: pattern.name,
    triggers: pattern.triggers.join('\n'),
    capabilityTriggers: [...pattern.capabilityTriggers],
    dangerThreshold: pattern.dangerThreshold ?? '',
    severity: pattern.severity,
    explanation: pattern.explanation,
    requireApproval: pattern.requireApproval,
  });
  return {
    name: psyche.persona.name,
    grammarPreference: psyche.persona.grammarPreference,
    traits: listText(psyche.persona.traits),
    tone: listText(psyche.persona.tone),
    archetypes: { ...psyche.archetypes },
    vetoPatterns: psyche.shadow.vetoPatterns.map(patternForm),
    biasPatterns: psyche.shadow.biasPatterns.map(patternForm),
    grammar: psyche.grammar ? { ...psyche.grammar } : undefined,
  };
}

/**
 * The psyche a form describes, on top of the psyche it started from (its self-integration and
 * unknown keys stay). The dominant archetype follows the weights, as the agent computes it.
 * Bias patterns never ask for approval: only a veto can hold an action.
 */
export function psycheOf(form: PsycheForm, base: Psyche): Psyche {
  const pattern = (kind: PatternKind) => (patternForm: PatternForm) => ({
    name: patternForm.name.trim(),
    triggers: listOf(patternForm.triggers, 'line'),
    capabilityTriggers: CAPABILITIES.filter((capability) => patternForm.capabilityTriggers.includes(capability)),
    ...(patternForm.dangerThreshold === '' ? {} : { dangerThreshold: patternForm.dangerThreshold }),
    severity: patternForm.severity,
    explanation: patternForm.explanation.trim(),
    requireApproval: kind === 'vetoPatterns' && patternForm.requireApproval,
  });
  return {
    persona: {
      name: form.name.trim(),
      grammarPreference: form.grammarPreference,
      traits: listOf(form.traits),
      tone: listOf(form.tone),
    },
    shadow: {
      vetoPatterns: form.vetoPatterns.map(pattern('vetoPatterns')),
      biasPatterns: form.biasPatterns.map(pattern('biasPatterns')),
    },
    archetypes: { ...form.archetypes },
    selfIntegration: { ...base.selfIntegration, dominantArchetype: dominantArchetype(form.archetypes) },
    extras: base.extras,
    ...(form.grammar ? { grammar: { ...form.grammar } } : {}),
  };
}

/** The highest weight; ties go to the archetype listed first (the agent's rule). */
export function dominantArchetype(weights: ArchetypeWeights): Archetype {
  return ARCHETYPES.reduce((best, archetype) => (weights[archetype] > weights[best] ? archetype : best));
}

/** A new, empty pattern for the form's list. */
export function newPattern(key: number): PatternForm {
  return {
    key,
    name: '',
    triggers: '',
    capabilityTriggers: [],
    dangerThreshold: '',
    severity: 0.5,
    explanation: '',
    requireApproval: false,
  };
}

/** The grammars the persona can prefer: the built-in ones, and the custom grammar when the psyche has one. */
export function grammarOptions(grammar: CustomGrammar | undefined): string[] {
  return [
    ...BUILT_IN_GRAMMARS,
    ...(grammar && !(BUILT_IN_GRAMMARS as readonly string[]).includes(grammar.name) ? [grammar.name] : []),
  ];
}

/** A custom grammar read from a file: named after the file, without its extension ("scholarly.toml" -> "scholarly"). */
export function grammarFromFile(fileName: string, source: string): CustomGrammar {
  const name = fileName.replace(/\.[^.]*$/, '').trim();
  return { name: name === '' ? fileName : name, source };
}

/**
 * The form with a custom grammar loaded, and preferred (loading one means wanting to use it); or
 * removed, the preference falling back to narrative when it named the removed grammar.
 */
export function withGrammar(form: PsycheForm, grammar: CustomGrammar | undefined): PsycheForm {
  if (grammar) return { ...form, grammar, grammarPreference: grammar.name };
  const isPreferred = form.grammar !== undefined && form.grammarPreference === form.grammar.name;
  return { ...form, grammar: undefined, grammarPreference: isPreferred ? 'narrative' : form.grammarPreference };
}

/** What a form says, without the keys that number its patterns on screen: equal forms describe the same psyche. */
export function formFingerprint(form: PsycheForm): string {
  const withoutKey = ({ key: _key, ...pattern }: PatternForm) => pattern;
  return JSON.stringify({
    ...form,
    vetoPatterns: form.vetoPatterns.map(withoutKey),
    biasPatterns: form.biasPatterns.map(withoutKey),
  });
}
