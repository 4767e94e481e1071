import type { AgentApi, PsycheHistoryEntry } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import type { Archetype } from './psyche-form.ts';

/**
 * The words of the Psyche screen, kept apart from its components so they can be tested:
 * archetype names, weights, and what a save, an import or a restore did.
 */

/** What psycheSave, psycheImport and psycheRestore answer. */
export type PsycheChange = Awaited<ReturnType<AgentApi['psycheSave']>>;
/** What psycheCheck answers. */
export type PsycheCheck = Awaited<ReturnType<AgentApi['psycheCheck']>>;

/** How a change went: the new version, or why nothing changed; warnings either way, in words. */
export type ChangeReport =
  | { tone: 'success'; message: string; version: number; warnings: string[] }
  | { tone: 'failure'; message: string; problems: string[]; warnings: string[] };

/** The ways the psyche changes from this screen. */
export type ChangeKind =
  { kind: 'save' } | { kind: 'import'; fileName?: string } | { kind: 'restore'; version: number };

export const ARCHETYPE_LABELS = {
  sage: 'Sage',
  healer: 'Healer',
  explorer: 'Explorer',
  guardian: 'Guardian',
} as const satisfies Record<Archetype, string>;

export const READ_ONLY_REASON =
  'Anima is open in another tab, and only that tab can change the session: close it to change the psyche here.';

/** A weight or a level as the screen shows it, two decimals: "0.70". */
export function weightText(value: number): string {
  return value.toFixed(2);
}

/** "3 veto patterns and 1 bias pattern". */
export function patternCountText(vetoCount: number, biasCount: number): string {
  const count = (value: number, noun: string) =>
    `${value.toLocaleString('en')} ${noun} ${value === 1 ? 'pattern' : 'patterns'}`;
  return `${count(vetoCount, 'veto')} and ${count(biasCount, 'bias')}`;
}

/** A version as lists and the chart name it: "Version 3, cycle 12". */
export function versionText(entry: Pick<PsycheHistoryEntry, 'version' | 'cycle'>): string {
  return `Version ${entry.version.toLocaleString('en')}, cycle ${entry.cycle.toLocaleString('en')}`;
}

function successMessage(change: ChangeKind, version: number): string {
  switch (change.kind) {
    case 'save':
      return `Saved as version ${version}.`;
    case 'import':
      return `Imported ${change.fileName ?? 'the psyche'} as version ${version}.`;
    case 'restore':
      return `Restored version ${change.version} as version ${version}.`;
  }
}

function failureMessage(change: ChangeKind, reason: Extract<PsycheChange, { ok: false }>['reason']): string {
  if (reason === 'read-only') return READ_ONLY_REASON;
  if (reason === 'not-found' && change.kind === 'restore')
    return `Version ${change.version} no longer exists; nothing changed.`;
  switch (change.kind) {
    case 'save':
      return 'The psyche was not saved; nothing changed:';
    case 'import':
      return `${change.fileName ?? 'The psyche'} was not imported; nothing changed:`;
    case 'restore':
      return `Version ${change.version} was not restored; nothing changed:`;
  }
}

/** Says what a save, an import or a restore did: "Saved as version 4.", or why nothing changed. */
export function describeChange(change: ChangeKind, result: PsycheChange): ChangeReport {
  const warnings = result.warnings.map(describeProblem);
  if (result.ok)
    return {
      tone: 'success',
      message: successMessage(change, result.current.version),
      version: result.current.version,
      warnings,
    };
  return {
    tone: 'failure',
    message: failureMessage(change, result.reason),
    problems: result.problems.map(describeProblem),
    warnings,
  };
}
