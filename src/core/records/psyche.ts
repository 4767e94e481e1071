import { z } from 'zod';
import { capabilitySchema, dangerLevelSchema } from './capability.ts';

/** The four archetypes of DESIGN section 7; each tool belongs to at most one. */
export const ARCHETYPES = ['sage', 'healer', 'explorer', 'guardian'] as const;
export const archetypeSchema = z.enum(ARCHETYPES);
export type Archetype = z.infer<typeof archetypeSchema>;

/** The built-in grammars of synthesis; any other preference names the psyche's custom grammar. */
export const BUILT_IN_GRAMMARS = ['narrative', 'formal', 'terse'] as const;

const text = (max: number) => z.string().max(max);

/**
 * A shadow pattern fires when any of its triggers matches: a text trigger found in the action's
 * description (after normalisation, see shadow.ts), a capability the tool has, or a tool danger
 * at or above the threshold (akh-medu's variant). This is the shape a stored psyche has; whether
 * its triggers can match is checked where a psyche comes from a user (shadowPolicyProblems), so
 * versions stored before that check still read.
 */
export const shadowPatternSchema = z.object({
  name: text(200).min(1),
  triggers: z.array(text(500)).max(200),
  capabilityTriggers: z.array(capabilitySchema).max(20),
  dangerThreshold: dangerLevelSchema.optional(),
  severity: z.number().min(0).max(1),
  explanation: text(2000),
  /** For a veto pattern: instead of blocking, the action waits for the user's approval. */
  requireApproval: z.boolean(),
});
export type ShadowPattern = z.infer<typeof shadowPatternSchema>;

export const personaSchema = z.object({
  name: text(200).min(1),
  /** narrative, formal, terse, or the name of the psyche's custom grammar. */
  grammarPreference: text(200).min(1),
  traits: z.array(text(200)).max(100),
  tone: z.array(text(200)).max(100),
});
export type Persona = z.infer<typeof personaSchema>;

const weight = z.number().min(0).max(1);
export const archetypeWeightsSchema = z.object({ sage: weight, healer: weight, explorer: weight, guardian: weight });
export type ArchetypeWeights = z.infer<typeof archetypeWeightsSchema>;

export const selfIntegrationSchema = z.object({
  individuationLevel: z.number().min(0).max(1),
  lastEvolutionCycle: z.number().int().nonnegative(),
  shadowEncounters: z.number().int().nonnegative(),
  /** shadowEncounters at the last evolution: growth counts only the encounters since. */
  encountersAtLastEvolution: z.number().int().nonnegative(),
  rebalanceCount: z.number().int().nonnegative(),
  dominantArchetype: archetypeSchema,
});
export type SelfIntegration = z.infer<typeof selfIntegrationSchema>;

/** A custom grammar for synthesis: its name (what grammarPreference names) and its TOML text. */
export const customGrammarSchema = z.object({
  name: text(200)
    .min(1)
    .refine(
      (name) => !(BUILT_IN_GRAMMARS as readonly string[]).includes(name.trim().toLowerCase()),
      'a custom grammar cannot take the name of a built-in one',
    ),
  source: text(200_000),
});
export type CustomGrammar = z.infer<typeof customGrammarSchema>;

/**
 * The agent's psyche (DESIGN section 7). `extras` keeps the keys of an imported psyche.toml that
 * Anima does not know, by table path ('' for the root, 'persona', 'shadow.veto_patterns.0'), so an
 * export writes them back.
 */
export const psycheSchema = z.object({
  persona: personaSchema,
  shadow: z.object({
    vetoPatterns: z.array(shadowPatternSchema).max(500),
    biasPatterns: z.array(shadowPatternSchema).max(500),
  }),
  archetypes: archetypeWeightsSchema,
  selfIntegration: selfIntegrationSchema,
  grammar: customGrammarSchema.optional(),
  extras: z.record(z.string(), z.record(z.string(), z.unknown())),
});
export type Psyche = z.infer<typeof psycheSchema>;

/** The highest weight; ties go to the archetype listed first (sage, healer, explorer, guardian). */
export function dominantArchetype(weights: ArchetypeWeights): Archetype {
  return ARCHETYPES.reduce((best, archetype) => (weights[archetype] > weights[best] ? archetype : best));
}

/**
 * The psyche Anima ships with: the seed's Scholar, its destructive-action veto (a hard block),
 * external requests and dangerous tools waiting for the user's approval, and a mild bias against
 * asserting facts the graph does not support.
 */
export function defaultPsyche(): Psyche {
  return {
    persona: {
      name: 'Scholar',
      grammarPreference: 'narrative',
      traits: ['precise', 'curious', 'thorough'],
      tone: ['clear', 'methodical'],
    },
    shadow: {
      vetoPatterns: [
        {
          name: 'destructive_action',
          triggers: ['delete all', 'drop table', 'rm -rf'],
          capabilityTriggers: ['processExec'],
          dangerThreshold: 'critical',
          severity: 1,
          explanation: 'Destructive or arbitrary execution actions are never taken.',
          requireApproval: false,
        },
        {
          name: 'external_request',
          triggers: [],
          capabilityTriggers: ['network'],
          severity: 0.8,
          explanation: 'Reaching outside this device waits for your approval.',
          requireApproval: true,
        },
        {
          name: 'dangerous_change',
          triggers: [],
          capabilityTriggers: [],
          dangerThreshold: 'dangerous',
          severity: 0.9,
          explanation: 'Removing knowledge or other dangerous changes wait for your approval.',
          requireApproval: true,
        },
      ],
      biasPatterns: [
        {
          name: 'unsupported_assertion',
          triggers: ['synthesize_triple'],
          capabilityTriggers: [],
          severity: 0.3,
          explanation: 'Prefer what the graph supports over facts proposed by analogy.',
          requireApproval: false,
        },
      ],
    },
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
  };
}
