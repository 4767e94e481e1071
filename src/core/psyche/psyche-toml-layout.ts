import type { Capability, DangerLevel } from '#core/records/capability.ts';

// The layout of psyche.toml that its reader (psyche-toml-read.ts) and writer (psyche-toml-write.ts) share.

export const SECTIONS = ['persona', 'shadow', 'archetypes', 'self_integration', 'grammar'] as const;
export type Section = (typeof SECTIONS)[number];
export const CORE_SECTIONS = [
  'persona',
  'shadow',
  'archetypes',
  'self_integration',
] as const satisfies readonly Section[];

export const PERSONA_KEYS = ['name', 'grammar_preference', 'traits', 'tone'];
export const SHADOW_KEYS = ['veto_patterns', 'bias_patterns'];
export const PATTERN_KEYS = [
  'name',
  'triggers',
  'action_triggers',
  'capability_triggers',
  'danger_level_threshold',
  'severity',
  'explanation',
  'require_approval',
];
export const SELF_INTEGRATION_KEYS = [
  'individuation_level',
  'last_evolution_cycle',
  'shadow_encounters',
  'encounters_at_last_evolution',
  'rebalance_count',
  'dominant_archetype',
];
export const GRAMMAR_KEYS = ['name', 'source'];

/** akh-medu's spelling of each capability; the export writes these so akh-medu can read the file. */
export const AKH_MEDU_CAPABILITIES = {
  readKg: 'ReadKg',
  writeKg: 'WriteKg',
  readFiles: 'ReadFilesystem',
  writeFiles: 'WriteFilesystem',
  network: 'Network',
  processExec: 'ProcessExec',
  user: 'UserInteraction',
  reason: 'Reason',
  similarity: 'VsaAccess',
  provenance: 'ProvenanceAccess',
  memory: 'MemoryAccess',
  llm: 'Llm',
} as const satisfies Record<Capability, string>;
export const AKH_MEDU_DANGER_LEVELS = {
  safe: 'Safe',
  cautious: 'Cautious',
  dangerous: 'Dangerous',
  critical: 'Critical',
} as const satisfies Record<DangerLevel, string>;

export type TomlTable = Record<string, unknown>;

export function isTable(value: unknown): value is TomlTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
