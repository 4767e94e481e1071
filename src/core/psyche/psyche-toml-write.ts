import { ARCHETYPES, type Psyche, type ShadowPattern } from '#core/records/psyche.ts';
import {
  AKH_MEDU_CAPABILITIES,
  AKH_MEDU_DANGER_LEVELS,
  GRAMMAR_KEYS,
  PATTERN_KEYS,
  PERSONA_KEYS,
  SECTIONS,
  SELF_INTEGRATION_KEYS,
  SHADOW_KEYS,
  isTable,
} from './psyche-toml-layout.ts';

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
export function formatNumber(value: number, isFloat: boolean): string {
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
