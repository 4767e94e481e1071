import { parse, TomlError } from 'smol-toml';
import { quoteInput } from '#core/quote-input.ts';
import type { Problem } from '#core/result.ts';
import {
  ARCHETYPES,
  BUILT_IN_GRAMMARS,
  dominantArchetype,
  psycheSchema,
  type ArchetypeWeights,
  type CustomGrammar,
  type Persona,
  type Psyche,
  type SelfIntegration,
  type ShadowPattern,
} from '#core/records/psyche.ts';
import { locateTomlKeys } from '#core/toml/key-lines.ts';
import {
  CORE_SECTIONS,
  GRAMMAR_KEYS,
  PATTERN_KEYS,
  PERSONA_KEYS,
  SECTIONS,
  SELF_INTEGRATION_KEYS,
  SHADOW_KEYS,
  isTable,
  type Section,
  type TomlTable,
} from './psyche-toml-layout.ts';
import {
  addProblem,
  byLine,
  describeIssue,
  describeTomlError,
  describeValue,
  keepUnknownKeys,
  lineAt,
  located,
  readBoolean,
  readCapabilities,
  readCount,
  readDangerLevel,
  readOptional,
  readRequired,
  readSection,
  readString,
  readStringList,
  readUnitNumber,
  tomlPathOf,
  type Reading,
  type ValueReader,
} from './psyche-toml-values.ts';
import { shadowPolicyProblems } from './shadow.ts';

/** The largest psyche.toml read; a psyche is a few KB, a custom grammar at most 200 KB. */
export const MAX_PSYCHE_TOML_BYTES = 256 * 1024;

/** The refusal of a psyche.toml of this many bytes when it is over the limit; a reader may check before it reads the file. */
export function psycheSizeProblem(bytes: number): Problem | undefined {
  return bytes > MAX_PSYCHE_TOML_BYTES
    ? {
        message: `the file is ${Math.ceil(bytes / 1024)} KB; a psyche.toml may be at most ${MAX_PSYCHE_TOML_BYTES / 1024} KB`,
      }
    : undefined;
}

/** What reading a psyche.toml gives: the psyche, or the problems that stopped it; warnings either way. */
export type PsycheTomlOutcome =
  { ok: true; psyche: Psyche; warnings: Problem[] } | { ok: false; problems: Problem[]; warnings: Problem[] };

/**
 * Reads a psyche.toml (the seed's layout, akh-medu's, and Anima's extensions). Sections absent
 * from the file are taken from `base`, with a warning each; a file with all four core sections
 * replaces `base` entirely. Unknown keys are kept in `extras` with a warning. Pure: never throws.
 */
export function parsePsycheToml(text: string, base: Psyche): PsycheTomlOutcome {
  try {
    return readPsycheToml(text, base);
  } catch (error) {
    // The contract is "never throws": a bug below must still reach the user as a problem.
    return {
      ok: false,
      problems: [{ message: `could not read the file: ${error instanceof Error ? error.message : String(error)}` }],
      warnings: [],
    };
  }
}

function readPsycheToml(text: string, base: Psyche): PsycheTomlOutcome {
  const refused = (problem: Problem): PsycheTomlOutcome => ({ ok: false, problems: [problem], warnings: [] });
  // Every UTF-16 unit is at least one byte, so the length alone can refuse a huge text without encoding it.
  const bytes = text.length > MAX_PSYCHE_TOML_BYTES ? text.length : new TextEncoder().encode(text).byteLength;
  const tooLarge = psycheSizeProblem(bytes);
  if (tooLarge) return refused(tooLarge);
  const nul = text.indexOf('\u0000');
  if (nul >= 0)
    return refused({ line: lineAt(text, nul), message: 'not a text file: it contains NUL bytes (is it binary?)' });
  const surrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(text);
  if (surrogate)
    return refused({
      line: lineAt(text, surrogate.index),
      message: 'not valid Unicode text: it contains a broken character (an unpaired surrogate)',
    });
  // U+FFFD is what a decoder puts for bytes that are not UTF-8: say so, whether or not the TOML parses.
  const replacement = text.indexOf('\uFFFD');
  const encodingNote: Problem[] =
    replacement < 0
      ? []
      : [
          {
            line: lineAt(text, replacement),
            message: 'the file has bytes that are not UTF-8 (shown as \uFFFD): was it saved as UTF-8?',
          },
        ];

  let root: TomlTable;
  try {
    root = parse(text, { unsafeKeyBehaviour: 'throw', maxDepth: 64 });
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    return {
      ok: false,
      problems: [...encodingNote, { line: error.line, message: `invalid TOML: ${describeTomlError(error, text)}` }],
      warnings: [],
    };
  }

  const rootKeys = Object.keys(root);
  if (rootKeys.length === 0) return refused({ message: 'not a psyche file: it is empty' });
  if (!SECTIONS.some((section) => Object.hasOwn(root, section))) {
    const shown = rootKeys.slice(0, 8).join(', ') + (rootKeys.length > 8 ? ', ...' : '');
    return refused({
      message: `not a psyche file: it has none of [persona], [shadow], [archetypes], [self_integration], [grammar] (its top-level keys are ${shown})`,
    });
  }

  const reading: Reading = { located: locateTomlKeys(text), problems: [], warnings: [...encodingNote], extras: {} };
  keepUnknownKeys(reading, root, '', SECTIONS);
  /** A section from the file, or from `base` when the file has none (or, broken, a stand-in while its problems are reported). */
  const section = <T>(name: Section, read: (table: TomlTable) => T, current: () => T, absentMessage: string): T => {
    if (!Object.hasOwn(root, name)) {
      reading.warnings.push({ path: name, message: absentMessage });
      for (const [path, keys] of Object.entries(base.extras)) {
        if (path === name || path.startsWith(`${name}.`)) reading.extras[path] = { ...keys };
      }
      return current();
    }
    const table = readSection(reading, root, name);
    return table ? read(table) : current();
  };

  const persona = section(
    'persona',
    (table) => readPersona(reading, table),
    () => ({ ...base.persona, traits: [...base.persona.traits], tone: [...base.persona.tone] }),
    `no [persona] in the file: the current persona "${base.persona.name}" is kept`,
  );
  const shadow = section(
    'shadow',
    (table) => readShadow(reading, table),
    () => ({
      vetoPatterns: base.shadow.vetoPatterns.map(copyPattern),
      biasPatterns: base.shadow.biasPatterns.map(copyPattern),
    }),
    'no [shadow] in the file: the current shadow patterns are kept',
  );
  const archetypes = section(
    'archetypes',
    (table) => readArchetypes(reading, table, base.archetypes),
    () => ({ ...base.archetypes }),
    'no [archetypes] in the file: the current weights are kept',
  );
  const selfIntegration = section(
    'self_integration',
    (table) => readSelfIntegration(reading, table, base.selfIntegration, archetypes),
    () => ({ ...base.selfIntegration, dominantArchetype: dominantArchetype(archetypes) }),
    'no [self_integration] in the file: the current growth counters are kept',
  );
  // A file with all four core sections is a whole psyche: no [grammar] there means none.
  const isWhole = CORE_SECTIONS.every((name) => Object.hasOwn(root, name));
  const baseGrammar = isWhole ? undefined : base.grammar;
  const grammar =
    Object.hasOwn(root, 'grammar') || baseGrammar
      ? section<CustomGrammar | undefined>(
          'grammar',
          (table) => readGrammar(reading, table),
          () => (baseGrammar ? { ...baseGrammar } : undefined),
          `no [grammar] in the file: the current custom grammar "${baseGrammar?.name ?? ''}" is kept`,
        )
      : undefined;
  if (isTable(root.persona)) checkGrammarPreference(reading, persona.grammarPreference, grammar);

  const psyche: Psyche = {
    persona,
    shadow,
    archetypes,
    selfIntegration,
    ...(grammar ? { grammar } : {}),
    extras: reading.extras,
  };
  const validated = psycheSchema.safeParse(psyche);
  if (!validated.success) {
    for (const issue of validated.error.issues) {
      const path = tomlPathOf(reading.located, issue.path);
      // A value already reported (its type, its range) needs no second complaint about its stand-in.
      const isReported = reading.problems.some(
        (problem) => problem.path !== undefined && (path === problem.path || path.startsWith(`${problem.path}.`)),
      );
      if (!isReported) reading.problems.push(located(reading, path, describeIssue(issue)));
    }
  }
  // The file's own patterns must be able to fire (those kept from `base` were checked when they came in).
  if (isTable(root.shadow)) {
    for (const problem of shadowPolicyProblems(shadow)) {
      const path = tomlPathOf(reading.located, problem.path?.split('.') ?? []);
      // A pattern whose triggers were already refused (a wrong type) needs no second complaint that it cannot fire.
      const isReported = reading.problems.some(
        (reported) =>
          reported.path !== undefined &&
          (path === reported.path || path.startsWith(`${reported.path}.`) || reported.path.startsWith(`${path}.`)),
      );
      if (!isReported) reading.problems.push(located(reading, path, problem.message));
    }
  }
  const warnings = byLine(reading.warnings);
  if (reading.problems.length > 0) return { ok: false, problems: byLine(reading.problems), warnings };
  return { ok: true, psyche, warnings };
}

// ---------------------------------------------------------------------------------------------
// Sections

function readPersona(reading: Reading, table: TomlTable): Persona {
  keepUnknownKeys(reading, table, 'persona', PERSONA_KEYS);
  const name = readRequired(reading, table, 'persona', 'name', readString, 'the persona needs a name') ?? '';
  if (!Object.hasOwn(table, 'grammar_preference'))
    reading.warnings.push(located(reading, 'persona.grammar_preference', 'is missing: the narrative grammar is used'));
  const grammarPreference = readOptional(reading, table, 'persona', 'grammar_preference', readString) ?? 'narrative';
  const traits = readOptional(reading, table, 'persona', 'traits', readStringList) ?? [];
  const tone = readOptional(reading, table, 'persona', 'tone', readStringList) ?? [];
  return { name, grammarPreference, traits, tone };
}

function readShadow(reading: Reading, table: TomlTable): Psyche['shadow'] {
  keepUnknownKeys(reading, table, 'shadow', SHADOW_KEYS);
  if (!Object.hasOwn(table, 'veto_patterns'))
    reading.warnings.push(located(reading, 'shadow', 'no [[shadow.veto_patterns]]: no action will be vetoed'));
  return {
    vetoPatterns: readPatterns(reading, table, 'veto_patterns'),
    biasPatterns: readPatterns(reading, table, 'bias_patterns'),
  };
}

function readPatterns(reading: Reading, shadow: TomlTable, key: 'veto_patterns' | 'bias_patterns'): ShadowPattern[] {
  const path = `shadow.${key}`;
  const value = shadow[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    addProblem(reading, path, `must be a list of tables ([[${path}]]), got ${describeValue(value)}`);
    return [];
  }
  return value.flatMap((entry: unknown, index) => {
    if (isTable(entry)) return [readPattern(reading, entry, `${path}.${index}`)];
    addProblem(reading, `${path}.${index}`, `must be a table ([[${path}]]), got ${describeValue(entry)}`);
    return [];
  });
}

function readPattern(reading: Reading, table: TomlTable, path: string): ShadowPattern {
  keepUnknownKeys(reading, table, path, PATTERN_KEYS);
  const name = readRequired(reading, table, path, 'name', readString, 'every pattern needs a name') ?? '';
  const seedTriggers = readOptional(reading, table, path, 'triggers', readStringList);
  const akhMeduTriggers = readOptional(reading, table, path, 'action_triggers', readStringList);
  let triggers = seedTriggers ?? akhMeduTriggers ?? [];
  if (seedTriggers && akhMeduTriggers) {
    triggers = [...seedTriggers, ...akhMeduTriggers.filter((trigger) => !seedTriggers.includes(trigger))];
    reading.warnings.push(
      located(reading, `${path}.action_triggers`, 'both triggers and action_triggers are given: both lists are used'),
    );
  }
  const capabilityTriggers = readOptional(reading, table, path, 'capability_triggers', readCapabilities) ?? [];
  const dangerThreshold = readOptional(reading, table, path, 'danger_level_threshold', readDangerLevel);
  const severity = readRequired(reading, table, path, 'severity', readUnitNumber, 'a number between 0 and 1') ?? 0;
  if (!Object.hasOwn(table, 'explanation'))
    reading.warnings.push(
      located(reading, `${path}.explanation`, 'is missing: when the pattern fires, no reason is shown'),
    );
  const explanation = readOptional(reading, table, path, 'explanation', readString) ?? '';
  const requireApproval = readOptional(reading, table, path, 'require_approval', readBoolean) ?? false;
  return {
    name,
    triggers,
    capabilityTriggers,
    ...(dangerThreshold ? { dangerThreshold } : {}),
    severity,
    explanation,
    requireApproval,
  };
}

function readArchetypes(reading: Reading, table: TomlTable, current: ArchetypeWeights): ArchetypeWeights {
  keepUnknownKeys(reading, table, 'archetypes', ARCHETYPES);
  const weights = { ...current };
  for (const archetype of ARCHETYPES) {
    const weight = readOptional(reading, table, 'archetypes', archetype, readUnitNumber);
    if (weight !== undefined) weights[archetype] = weight;
    else if (!Object.hasOwn(table, archetype))
      reading.warnings.push(
        located(reading, `archetypes.${archetype}`, `is missing: the current weight ${current[archetype]} is kept`),
      );
  }
  return weights;
}

function readSelfIntegration(
  reading: Reading,
  table: TomlTable,
  current: SelfIntegration,
  weights: ArchetypeWeights,
): SelfIntegration {
  const path = 'self_integration';
  keepUnknownKeys(reading, table, path, SELF_INTEGRATION_KEYS);
  const kept = <T>(key: string, read: ValueReader<T>, currentValue: T): T => {
    const value = readOptional(reading, table, path, key, read);
    if (value !== undefined) return value;
    if (!Object.hasOwn(table, key))
      reading.warnings.push(
        located(reading, `${path}.${key}`, `is missing: the current value ${String(currentValue)} is kept`),
      );
    return currentValue;
  };
  const shadowEncounters = kept('shadow_encounters', readCount, current.shadowEncounters);
  const derived = dominantArchetype(weights);
  const stated = readOptional(reading, table, path, 'dominant_archetype', readString);
  if (stated !== undefined && stated.toLowerCase() !== derived)
    reading.warnings.push(
      located(
        reading,
        `${path}.dominant_archetype`,
        `${quoteInput(stated, 60)} disagrees with the weights: ${derived}, the highest weight, is the dominant archetype`,
      ),
    );
  return {
    individuationLevel: kept('individuation_level', readUnitNumber, current.individuationLevel),
    lastEvolutionCycle: kept('last_evolution_cycle', readCount, current.lastEvolutionCycle),
    shadowEncounters,
    // Anima's extension: a file without it (akh-medu's) has had no growth pending since its last evolution.
    encountersAtLastEvolution:
      readOptional(reading, table, path, 'encounters_at_last_evolution', readCount) ?? shadowEncounters,
    rebalanceCount: kept('rebalance_count', readCount, current.rebalanceCount),
    dominantArchetype: derived,
  };
}

function readGrammar(reading: Reading, table: TomlTable): CustomGrammar {
  keepUnknownKeys(reading, table, 'grammar', GRAMMAR_KEYS);
  const name =
    readRequired(reading, table, 'grammar', 'name', readString, 'what grammar_preference calls this grammar') ?? '';
  const source = readRequired(reading, table, 'grammar', 'source', readString, "the grammar file's TOML text") ?? '';
  return { name, source };
}

/** A browser cannot open a grammar file by path: the preference is kept, and the user told to attach the file. */
function checkGrammarPreference(reading: Reading, preference: string, grammar: CustomGrammar | undefined): void {
  if (BUILT_IN_GRAMMARS.some((builtIn) => builtIn === preference) || preference === grammar?.name) return;
  const isPath = /[/\\]|\.toml$/i.test(preference);
  const what = isPath
    ? `${quoteInput(preference)} is a grammar file Anima cannot open by its path`
    : `${quoteInput(preference)} is neither a built-in grammar (${BUILT_IN_GRAMMARS.join(', ')}) nor the [grammar] of this psyche`;
  reading.warnings.push(
    located(
      reading,
      'persona.grammar_preference',
      `${what}: attach the grammar file; until then the narrative grammar is used`,
    ),
  );
}

function copyPattern(pattern: ShadowPattern): ShadowPattern {
  return { ...pattern, triggers: [...pattern.triggers], capabilityTriggers: [...pattern.capabilityTriggers] };
}
