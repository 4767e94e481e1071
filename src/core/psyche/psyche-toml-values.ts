import { TomlError } from 'smol-toml';
import type { z } from 'zod';
import { quoteInput } from '#core/quote-input.ts';
import type { Problem } from '#core/result.ts';
import { CAPABILITIES, DANGER_LEVELS, type Capability, type DangerLevel } from '#core/records/capability.ts';
import type { Psyche } from '#core/records/psyche.ts';
import { nearestLine } from '#core/toml/key-lines.ts';
import {
  AKH_MEDU_CAPABILITIES,
  AKH_MEDU_DANGER_LEVELS,
  isTable,
  type Section,
  type TomlTable,
} from './psyche-toml-layout.ts';
import { formatNumber } from './psyche-toml-write.ts';

// Reading psyche.toml's values one at a time, and placing what is wrong with them at their lines.

const CAPABILITY_BY_LOWER_NAME = new Map<string, Capability>(
  CAPABILITIES.flatMap((capability) => [
    [capability.toLowerCase(), capability],
    [AKH_MEDU_CAPABILITIES[capability].toLowerCase(), capability],
  ]),
);

/** One reading in progress: where keys are, and what was found wrong so far. */
export type Reading = {
  located: Map<string, number>;
  problems: Problem[];
  warnings: Problem[];
  extras: Psyche['extras'];
};

/** Reads one value of the right type, or says what is wrong with it. */
export type ValueReader<T> = (value: unknown) => { value: T } | { message: string };

export const readString: ValueReader<string> = (value) =>
  typeof value === 'string' ? { value } : { message: `must be a string, got ${describeValue(value)}` };

export const readStringList: ValueReader<string[]> = (value) => {
  if (!Array.isArray(value)) return { message: `must be a list of strings, got ${describeValue(value)}` };
  const wrong = value.findIndex((entry) => typeof entry !== 'string');
  if (wrong >= 0)
    return { message: `must be a list of strings, but entry ${wrong + 1} is ${describeValue(value[wrong])}` };
  return { value: value.map(String) };
};

export const readUnitNumber: ValueReader<number> = (value) =>
  typeof value === 'number' && value >= 0 && value <= 1
    ? { value: value + 0 } // + 0 turns -0 into 0, which writes and reads back the same
    : { message: `must be a number between 0 and 1, got ${describeValue(value)}` };

export const readCount: ValueReader<number> = (value) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? { value: value + 0 }
    : { message: `must be a whole number, 0 or more, got ${describeValue(value)}` };

export const readBoolean: ValueReader<boolean> = (value) =>
  typeof value === 'boolean' ? { value } : { message: `must be true or false, got ${describeValue(value)}` };

const CAPABILITY_CHOICES = `${CAPABILITIES.map((capability) => AKH_MEDU_CAPABILITIES[capability]).join(', ')} (in any case; Anima's names such as readFiles, user or similarity work too)`;

export const readCapabilities: ValueReader<Capability[]> = (value) => {
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

export const readDangerLevel: ValueReader<DangerLevel> = (value) => {
  const level =
    typeof value === 'string' ? DANGER_LEVELS.find((candidate) => candidate === value.toLowerCase()) : undefined;
  return level !== undefined
    ? { value: level }
    : {
        message: `must be a danger level, one of ${Object.values(AKH_MEDU_DANGER_LEVELS).join(', ')}, got ${describeValue(value)}`,
      };
};

export function readOptional<T>(
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

export function readRequired<T>(
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
export function readSection(reading: Reading, root: TomlTable, section: Section): TomlTable | undefined {
  if (!Object.hasOwn(root, section)) return undefined;
  const value = root[section];
  if (isTable(value)) return value;
  addProblem(reading, section, `must be a table ([${section}]), got ${describeValue(value)}`);
  return undefined;
}

/** Keys Anima does not know are kept, so an export writes them back, and reported. */
export function keepUnknownKeys(reading: Reading, table: TomlTable, tablePath: string, known: readonly string[]): void {
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

/** How a wrong value is shown in a message: strings quoted and cut short, other values by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return quoteInput(value, 40);
  if (typeof value === 'number') return formatNumber(value, false);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return `the date ${value.toISOString()}`;
  if (Array.isArray(value)) return 'a list';
  return 'a table';
}

// ---------------------------------------------------------------------------------------------
// Problems

export function located(reading: Reading, path: string, message: string): Problem {
  const line = nearestLine(reading.located, path);
  return { ...(line !== undefined ? { line } : {}), ...(path !== '' ? { path: shownKey(path) } : {}), message };
}

/** A key or key path as a message shows it: as written, or quoted and cut when it is longer than a line. */
function shownKey(path: string): string {
  return path.length > 200 ? quoteInput(path) : path;
}

export function addProblem(reading: Reading, path: string, message: string): void {
  reading.problems.push(located(reading, path, message));
}

/** Top to bottom, whole-file notes (no line) first; the sort is stable, so ties keep their order. */
export function byLine(problems: Problem[]): Problem[] {
  return [...problems].sort((first, second) => (first.line ?? 0) - (second.line ?? 0));
}

export function lineAt(text: string, index: number): number {
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
export function describeTomlError(error: TomlError, text: string): string {
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
export function tomlPathOf(located: ReadonlyMap<string, number>, modelPath: readonly PropertyKey[]): string {
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

export function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'too_big' && issue.origin === 'string')
    return `is too long: at most ${String(issue.maximum)} characters`;
  if (issue.code === 'too_big' && issue.origin === 'array')
    return `has too many entries: at most ${String(issue.maximum)}`;
  if (issue.code === 'too_small' && issue.origin === 'string') return 'must not be empty';
  return issue.message;
}
