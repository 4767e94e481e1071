import type { BadgeTone } from '../goals/badge-tone.ts';

/**
 * The words of the Memory screen, kept apart from its components so they can be tested: entry
 * kinds, the pressure meter, the consolidation report and why consolidation cannot run.
 */

/** Above this share of its capacity, the agent consolidates working memory by itself (DESIGN section 5). */
export const CONSOLIDATION_PRESSURE = 0.8;

/** The kinds of working memory entry the agent writes, as their badges read. */
export const MEMORY_KIND_LABELS = {
  observation: 'Observation',
  decision: 'Decision',
  action: 'Action',
  inference: 'Inference',
  reflection: 'Reflection',
} as const satisfies Record<string, string>;

type KnownKind = keyof typeof MEMORY_KIND_LABELS;

const MEMORY_KIND_TONES = {
  observation: 'neutral',
  decision: 'accent',
  action: 'success',
  inference: 'accent',
  reflection: 'neutral',
} as const satisfies Record<KnownKind, BadgeTone>;

function isKnownKind(kind: string): kind is KnownKind {
  return Object.hasOwn(MEMORY_KIND_LABELS, kind);
}

/** An entry's kind as its badge reads; the API sends kinds as plain strings, so an unknown one is shown as sent, capitalised. */
export function memoryKindLabel(kind: string): string {
  if (isKnownKind(kind)) return MEMORY_KIND_LABELS[kind];
  return kind === '' ? 'Entry' : kind.charAt(0).toUpperCase() + kind.slice(1);
}

/** The colour of an entry's kind badge. */
export function memoryKindTone(kind: string): BadgeTone {
  return isKnownKind(kind) ? MEMORY_KIND_TONES[kind] : 'neutral';
}

/** How full working memory is, in words: "6 of 100 entries". */
export function pressureText(entryCount: number, capacity: number): string {
  return `${entryCount.toLocaleString('en')} of ${capacity.toLocaleString('en')} ${capacity === 1 ? 'entry' : 'entries'}`;
}

/** A relevance or a recall score as the screen shows it, two decimals: "0.80". */
export function decimalText(value: number): string {
  return value.toFixed(2);
}

/** What a consolidation did: "1 episode added; 3 entries left in working memory." */
export function consolidationText({
  episodesAdded,
  entriesLeft,
}: {
  episodesAdded: number;
  entriesLeft: number;
}): string {
  const episodes = `${episodesAdded.toLocaleString('en')} ${episodesAdded === 1 ? 'episode' : 'episodes'} added`;
  const entries = `${entriesLeft.toLocaleString('en')} ${entriesLeft === 1 ? 'entry' : 'entries'} left in working memory`;
  return `${episodes}; ${entries}.`;
}

/** Why "Consolidate now" cannot run now, or undefined when it can. */
export function consolidateBlockedReason({
  canWrite,
  isLoaded,
  entryCount,
}: {
  canWrite: boolean;
  isLoaded: boolean;
  entryCount: number;
}): string | undefined {
  if (!canWrite)
    return 'Anima is open in another tab, and only that tab can change the session: close it to consolidate here.';
  if (!isLoaded) return 'Working memory is loading.';
  if (entryCount === 0)
    return 'Working memory is empty: there is nothing to consolidate. Cycles add to it; a goal that ends leaves its entries to its episode.';
  return undefined;
}

/** Says that the list holds only the newest episodes, or undefined when it holds them all. */
export function episodesShownText(shown: number, total: number): string | undefined {
  if (shown >= total) return undefined;
  return `Showing the newest ${shown.toLocaleString('en')} of ${total.toLocaleString('en')} episodes.`;
}
