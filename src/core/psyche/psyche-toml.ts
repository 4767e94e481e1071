import { parse, TomlError } from 'smol-toml';
import type { z } from 'zod';
import { quoteInput } from '#core/quote-input.ts';
import type { Problem } from '#core/result.ts';
import { CAPABILITIES, DANGER_LEVELS, type Capability, type DangerLevel } from '#core/records/capability.ts';
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
import { locateTomlKeys, nearestLine } from '#core/toml/key-lines.ts';
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

const SECTIONS = ['persona', 'shadow', 'archetypes', 'self_integration', 'grammar'] as const;
type Section = (typeof SECTIONS)[number];
const CORE_SECTIONS = ['persona', 'shadow', 'archetypes', 'self_integration'] as const satisfies readonly Section[];

const PERSONA_KEYS = ['name', 'grammar_preference', 'traits', 'tone'];
const SHADOW_KEYS = ['veto_patterns', 'bias_patterns'];
const PATTERN_KEYS = [
  'name',
  'triggers',
  'action_triggers',
  'capability_triggers',
  'danger_level_threshold',
  'severity',
  'explanation',
  'require_approval',
];
const SELF_INTEGRATION_KEYS = [
  'individuation_level',
  'last_evolution_cycle',
  'shadow_encounters',
  'encounters_at_last_evolution',
  'rebalance_count',
  'dominant_archetype',
];
const GRAMMAR_KEYS = ['name', 'source'];

/** akh-medu's spelling of each capability; the export writes these so akh-medu can read the file. */
const AKH_MEDU_CAPABILITIES = {
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
const AKH_MEDU_DANGER_LEVELS = {
  safe: 'Safe',
  cautious: 'Cautious',
  dangerous: 'Dangerous',
  critical: 'Critical',
} as const satisfies Record<DangerLevel, string>;

const CAPABILITY_BY_LOWER_NAME = new Map<string, Capability>(
  CAPABILITIES.flatMap((capability) => [
    [capability.toLowerCase(), capability],
    [AKH_MEDU_CAPABILITIES[capability].toLowerCase(), capability],
  ]),
);

type TomlTable = Record<string, unknown>;

/** One reading in progress: where keys are, and what was found wrong so far. */
type Reading = {
  located: Map<string, number>;
  problems: Problem[];
  warnings: Problem[];
  extras: Psyche['extras'];
};

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

// ---------------------------------------------------------------------------------------------
// Values

/** Reads one value of the right type, or says what is wrong with it. */
type ValueReader<T> = (value: unknown) => { value: T } | { message: string };

const readString: ValueReader<string> = (value) =>
  typeof value === 'string' ? { value } : { message: `must be a string, got ${describeValue(value)}` };

const readStringList: ValueReader<string[]> = (value) => {
  if (!Array.isArray(value)) return { message: `must be a list of strings, got ${describeValue(value)}` };
  const wrong = value.findIndex((entry) => typeof entry !== 'string');
  if (wrong >= 0)
    return { message: `must be a list of strings, but entry ${wrong + 1} is ${describeValue(value[wrong])}` };
  return { value: value.map(String) };
};

const readUnitNumber: ValueReader<number> = (value) =>
  typeof value === 'number' && value >= 0 && value <= 1
    ? { value: value + 0 } // + 0 turns -0 into 0, which writes and reads back the same
    : { message: `must be a number between 0 and 1, got ${describeValue(value)}` };

const readCount: ValueReader<number> = (value) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? { value: value + 0 }
    : { message: `must be a whole number, 0 or more, got ${describeValue(value)}` };

const readBoolean: ValueReader<boolean> = (value) =>
  typeof value === 'boolean' ? { value } : { message: `must be true or false, got ${describeValue(value)}` };

const CAPABILITY_CHOICES = `${CAPABILITIES.map((capability) => AKH_MEDU_CAPABILITIES[capability]).join(', ')} (in any case; Anima's names such as readFiles, user or similarity work too)`;

const readCapabilities: ValueReader<Capability[]> = (value) => {
  const names = readStringList(value);
  if (!('value' in names)) return { message: names.message.replace('list of strings', 'list of capability names') };
  const capabilities: Capability[] = [];
  for (const name of names.value) {
    const capability = CAPABILITY_BY_LOWER_NAME.get(name.toLowerCase());
    if (capability === undefined)
      return { message: `has an unknown capability ${quoteInput(name, 60)}: use ${CAPABILITY_CHOICES}` };
    capabilities.push(capability);
  }
  return { value: capabilities };
};

const readDangerLevel: ValueReader<DangerLevel> = (value) => {
  const level =
    typeof value === 'string' ? DANGER_LEVELS.find((candidate) => candidate === value.toLowerCase()) : undefined;
  return level !== undefined
    ? { value: level }
    : {
        message: `must be a danger level, one of ${Object.values(AKH_MEDU_DANGER_LEVELS).join(', ')}, got ${describeValue(value)}`,
      };
};

function readOptional<T>(
  reading: Reading,
  table: TomlTable,
  tablePath: string,
  key: string,
  read: ValueReader<T>,
): T | undefined {
  if (!Object.hasOwn(table, key)) return undefined;
  const outcome = read(table[key]);
  if ('value' in outcome) return outcome.value;
  addProblem(reading, `${tablePath}.${key}`, outcome.message);
  return undefined;
}

function readRequired<T>(
  reading: Reading,
  table: TomlTable,
  tablePath: string,
  key: string,
  read: ValueReader<T>,
  what: string,
): T | undefined {
  if (!Object.hasOwn(table, key)) {
    addProblem(reading, `${tablePath}.${key}`, `is required (${what})`);
    return undefined;
  }
  return readOptional(reading, table, tablePath, key, read);
}

/** A top-level section: its table, or undefined when absent (then `base` supplies it) or not a table. */
function readSection(reading: Reading, root: TomlTable, section: Section): TomlTable | undefined {
  if (!Object.hasOwn(root, section)) return undefined;
  const value = root[section];
  if (isTable(value)) return value;
  addProblem(reading, section, `must be a table ([${section}]), got ${describeValue(value)}`);
  return undefined;
}

/** Keys Anima does not know are kept, so an export writes them back, and reported. */
function keepUnknownKeys(reading: Reading, table: TomlTable, tablePath: string, known: readonly string[]): void {
  const unknown = Object.keys(table).filter((key) => !known.includes(key));
  if (unknown.length === 0) return;
  const kept: [string, unknown][] = [];
  for (const key of unknown) {
    const path = tablePath === '' ? key : `${tablePath}.${key}`;
    // Kept values travel through IndexedDB and snapshot JSON: dates become text, nan and inf cannot go.
    const value = storableValue(table[key]);
    if (value === NOT_STORABLE) {
      reading.warnings.push(
        located(reading, path, `unknown key ${shownKey(path)} holds nan or inf, which Anima cannot keep; dropped`),
      );
      continue;
    }
    kept.push([key, value]);
    reading.warnings.push(
      located(reading, path, `unknown key ${shownKey(path)}, kept${hasDate(table[key]) ? ' (its dates as text)' : ''}`),
    );
  }
  if (kept.length > 0) reading.extras[tablePath] = Object.fromEntries(kept);
}

const NOT_STORABLE = Symbol('not storable');

/** A TOML value as plain JSON-safe data: tables as plain objects, dates as their TOML text; nan and inf are not storable. */
function storableValue(value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) return NOT_STORABLE;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const items = value.map(storableValue);
    return items.includes(NOT_STORABLE) ? NOT_STORABLE : items;
  }
  if (isTable(value)) {
    const entries = Object.entries(value).map(([key, entry]) => [key, storableValue(entry)] as const);
    return entries.some(([, entry]) => entry === NOT_STORABLE) ? NOT_STORABLE : Object.fromEntries(entries);
  }
  return value;
}

function hasDate(value: unknown): boolean {
  if (value instanceof Date) return true;
  if (Array.isArray(value)) return value.some(hasDate);
  return isTable(value) && Object.values(value).some(hasDate);
}

function copyPattern(pattern: ShadowPattern): ShadowPattern {
  return { ...pattern, triggers: [...pattern.triggers], capabilityTriggers: [...pattern.capabilityTriggers] };
}

function isTable(value: unknown): value is TomlTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** How a wrong value is shown in a message: strings quoted and cut short, other values by kind. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return quoteInput(value, 40);
  if (typeof value === 'number') return formatNumber(value, false);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return `the date ${value.toISOString()}`;
  if (Array.isArray(value)) return 'a list';
  return 'a table';
}

// ---------------------------------------------------------------------------------------------
// Problems

function located(reading: Reading, path: string, message: string): Problem {
  const line = nearestLine(reading.located, path);
  return { ...(line !== undefined ? { line } : {}), ...(path !== '' ? { path: shownKey(path) } : {}), message };
}

/** A key or key path as a message shows it: as written, or quoted and cut when it is longer than a line. */
function shownKey(path: string): string {
  return path.length > 200 ? quoteInput(path) : path;
}

function addProblem(reading: Reading, path: string, message: string): void {
  reading.problems.push(located(reading, path, message));
}

/** Top to bottom, whole-file notes (no line) first; the sort is stable, so ties keep their order. */
function byLine(problems: Problem[]): Problem[] {
  return [...problems].sort((first, second) => (first.line ?? 0) - (second.line ?? 0));
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (
    let position = text.indexOf('\n');
    position >= 0 && position < index;
    position = text.indexOf('\n', position + 1)
  )
    line++;
  return line;
}

/** smol-toml's message without its code excerpt, said in the file's terms where it is a repeated name. */
function describeTomlError(error: TomlError, text: string): string {
  const message = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
  if (!message.startsWith('trying to redefine')) {
    return message === 'document contains an unsafe property'
      ? 'keys named __proto__ or constructor are not allowed'
      : message;
  }
  const content = (text.split(/\r?\n/)[error.line - 1] ?? '').trim();
  const header = /^\[\[?\s*([^\]]*?)\s*\]/.exec(content);
  if (header) return `[${shownKey(header[1]!)}] appears twice: a table may be declared only once in a file`;
  const key = /^([^=]*?)\s*=/.exec(content);
  if (key) return `${shownKey(key[1]!)} is set twice: a key may appear only once in a table`;
  return message;
}

// The model's camelCase keys in psyche.toml's snake_case, where the plain conversion is not the name.
const TOML_KEY_OF = new Map([['dangerThreshold', 'danger_level_threshold']]);

/** A model path from zod (`['shadow', 'vetoPatterns', 0, 'triggers']`) as the TOML key path of the file. */
function tomlPathOf(located: ReadonlyMap<string, number>, modelPath: readonly PropertyKey[]): string {
  const segments = modelPath.map(String);
  if (segments[0] === 'extras')
    return segments
      .slice(1)
      .filter((segment) => segment !== '')
      .join('.');
  const path = segments.map(
    (segment) => TOML_KEY_OF.get(segment) ?? segment.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
  );
  // Triggers may have been written under akh-medu's name.
  const triggers = path.indexOf('triggers');
  if (triggers > 0) {
    const akhMeduPath = [...path.slice(0, triggers), 'action_triggers'].join('.');
    if (located.has(akhMeduPath) && !located.has(path.slice(0, triggers + 1).join('.')))
      path[triggers] = 'action_triggers';
  }
  return path.join('.');
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'too_big' && issue.origin === 'string')
    return `is too long: at most ${String(issue.maximum)} characters`;
  if (issue.code === 'too_big' && issue.origin === 'array')
    return `has too many entries: at most ${String(issue.maximum)}`;
  if (issue.code === 'too_small' && issue.origin === 'string') return 'must not be empty';
  return issue.message;
}

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * Writes a psyche as psyche.toml in the seed's layout, with akh-medu's names for capabilities and
 * danger levels and Anima's extensions (require_approval, encounters_at_last_evolution,
 * [grammar]); unknown keys kept in `extras` go back into their tables. Deterministic, and
 * `parsePsycheToml(psycheToToml(psyche), anyBase)` gives the psyche back exactly.
 */
export function psycheToToml(psyche: Psyche): string {
  const { persona, shadow, archetypes, selfIntegration, grammar } = psyche;
  const blocks: string[][] = [['# psyche.toml, written by Anima', ...extrasLines(psyche, '', SECTIONS)]];
  blocks.push([
    '[persona]',
    `name = ${basicString(persona.name)}`,
    `grammar_preference = ${basicString(persona.grammarPreference)}`,
    stringListLine('traits', persona.traits),
    stringListLine('tone', persona.tone),
    ...extrasLines(psyche, 'persona', PERSONA_KEYS),
  ]);
  blocks.push([
    '[shadow]',
    // Written even when empty: a [shadow] without veto_patterns warns that nothing will be vetoed.
    ...(shadow.vetoPatterns.length === 0 ? ['veto_patterns = []'] : []),
    ...(shadow.biasPatterns.length === 0 ? ['bias_patterns = []'] : []),
    ...extrasLines(psyche, 'shadow', SHADOW_KEYS),
  ]);
  for (const [key, patterns] of [
    ['veto_patterns', shadow.vetoPatterns],
    ['bias_patterns', shadow.biasPatterns],
  ] as const) {
    patterns.forEach((pattern, index) => blocks.push(patternLines(psyche, pattern, `shadow.${key}`, index)));
  }
  blocks.push([
    '[archetypes]',
    ...ARCHETYPES.map((archetype) => `${archetype} = ${formatNumber(archetypes[archetype], true)}`),
    ...extrasLines(psyche, 'archetypes', ARCHETYPES),
  ]);
  blocks.push([
    '[self_integration]',
    `individuation_level = ${formatNumber(selfIntegration.individuationLevel, true)}`,
    `last_evolution_cycle = ${formatNumber(selfIntegration.lastEvolutionCycle, false)}`,
    `shadow_encounters = ${formatNumber(selfIntegration.shadowEncounters, false)}`,
    `encounters_at_last_evolution = ${formatNumber(selfIntegration.encountersAtLastEvolution, false)}`,
    `rebalance_count = ${formatNumber(selfIntegration.rebalanceCount, false)}`,
    `dominant_archetype = ${basicString(selfIntegration.dominantArchetype)}`,
    ...extrasLines(psyche, 'self_integration', SELF_INTEGRATION_KEYS),
  ]);
  if (grammar) {
    blocks.push([
      '[grammar]',
      `name = ${basicString(grammar.name)}`,
      `source = ${multilineString(grammar.source)}`,
      ...extrasLines(psyche, 'grammar', GRAMMAR_KEYS),
    ]);
  }
  return `${blocks.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}

function patternLines(psyche: Psyche, pattern: ShadowPattern, arrayPath: string, index: number): string[] {
  return [
    `[[${arrayPath}]]`,
    `name = ${basicString(pattern.name)}`,
    stringListLine('triggers', pattern.triggers),
    ...(pattern.capabilityTriggers.length > 0
      ? [
          stringListLine(
            'capability_triggers',
            pattern.capabilityTriggers.map((capability) => AKH_MEDU_CAPABILITIES[capability]),
          ),
        ]
      : []),
    ...(pattern.dangerThreshold
      ? [`danger_level_threshold = ${basicString(AKH_MEDU_DANGER_LEVELS[pattern.dangerThreshold])}`]
      : []),
    `severity = ${formatNumber(pattern.severity, true)}`,
    `explanation = ${basicString(pattern.explanation)}`,
    `require_approval = ${String(pattern.requireApproval)}`,
    ...extrasLines(psyche, `${arrayPath}.${index}`, PATTERN_KEYS),
  ];
}

/** The kept unknown keys of one table, as `key = value` lines with inline values. */
function extrasLines(psyche: Psyche, tablePath: string, known: readonly string[]): string[] {
  const extras = psyche.extras[tablePath] ?? {};
  // A kept key that is also a known one would make the file unreadable (a key set twice): the model wins.
  return Object.entries(extras)
    .filter(([key, value]) => !known.includes(key) && value !== undefined)
    .map(([key, value]) => `${formatKey(key)} = ${inlineValue(value)}`);
}

/** A list on one line when short, one entry a line when long; TOML allows the trailing comma. */
function stringListLine(key: string, values: readonly string[]): string {
  const entries = values.map(basicString);
  const oneLine = `${key} = [${entries.join(', ')}]`;
  return oneLine.length <= 100 ? oneLine : `${key} = [\n${entries.map((entry) => `  ${entry},`).join('\n')}\n]`;
}

/** Any value smol-toml reads, written inline; anything else in `extras` is a broken invariant. */
function inlineValue(value: unknown): string {
  if (typeof value === 'string') return basicString(value);
  if (typeof value === 'number') return formatNumber(value, false);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
  if (Array.isArray(value)) return `[${value.map(inlineValue).join(', ')}]`;
  if (isTable(value)) {
    const entries = Object.entries(value).filter(([, entry]) => entry !== undefined);
    return entries.length === 0
      ? '{}'
      : `{ ${entries.map(([key, entry]) => `${formatKey(key)} = ${inlineValue(entry)}`).join(', ')} }`;
  }
  throw new TypeError(`psyche.extras holds a value TOML cannot write: ${String(value)}`);
}

/**
 * A number that reads back as itself: a float field keeps a decimal point (1.0, not 1), an integer
 * beyond the safe range is written as a float (TOML integers are read only when exact).
 */
function formatNumber(value: number, isFloat: boolean): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (Object.is(value, -0)) return '-0.0';
  const text = String(value);
  if (Number.isInteger(value) && (isFloat || !Number.isSafeInteger(value)) && !/[.e]/.test(text)) return `${text}.0`;
  return text;
}

function formatKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : basicString(key);
}

/** Lone surrogates cannot be written in TOML (it is UTF-8): they become U+FFFD. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** JSON's escapes are all valid in a TOML basic string; DEL is the one TOML also wants escaped. */
function basicString(text: string): string {
  return JSON.stringify(wellFormed(text)).replaceAll('\u007f', '\\u007f');
}

/**
 * A multi-line string for a grammar's source, so the TOML inside stays readable: literal ('''...''')
 * when nothing in it needs escaping, basic ("""...""") with escapes otherwise. The newline after
 * the opening delimiter is dropped by readers.
 */
function multilineString(text: string): string {
  const source = wellFormed(text);
  // eslint-disable-next-line no-control-regex -- control characters are what a literal string cannot hold
  if (!source.includes("'''") && !source.endsWith("'") && !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(source))
    return `'''\n${source}'''`;
  const escaped = source
    // eslint-disable-next-line no-control-regex -- control characters are what this escapes
    .replace(/[\\\u0000-\u0008\u000b-\u001f\u007f]/g, (character) =>
      character === '\\' ? '\\\\' : `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    // No run of three quotes may stand unescaped, nor a quote just before the closing delimiter.
    .replace(/"+/g, (run, offset: number, whole: string) =>
      offset + run.length === whole.length ? '\\"'.repeat(run.length) : run.replace(/"""/g, '""\\"'),
    );
  return `"""\n${escaped}"""`;
}
