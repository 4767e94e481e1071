import { bytesText } from '../models/model-messages.ts';

/**
 * The words about this browser's storage, kept apart from the components so they can be tested:
 * how much Anima stores, whether the browser keeps it, and what to do when it is full.
 */

/** What to do when storage is full, in every message that says so. */
export const FREE_SPACE_ADVICE = 'Free space (delete a model or a session) or allow more storage';

/** Why a run stopped when its next cycle did not fit: what was kept, and what to do. */
export function storageFullRunText(lastCycle: number): string {
  const paused =
    lastCycle > 0
      ? `the run paused after cycle ${lastCycle.toLocaleString('en')}`
      : 'the run stopped before its first cycle could be stored';
  return `Storage is full: ${paused}. Nothing from the unfinished cycle was kept. ${FREE_SPACE_ADVICE}, then run again.`;
}

/** Why an import or a change was not stored. */
export const STORAGE_FULL_TEXT = `storage is full, and nothing of it was kept. ${FREE_SPACE_ADVICE}, then try again`;

/** How much this origin stores and may store, as the browser estimates it. */
export type StorageUsage = { usageBytes: number; quotaBytes: number };

/** "12.3 MB of 2.1 GB used (1%)": below 1% but above nothing, "(under 1%)". */
export function usageText({ usageBytes, quotaBytes }: StorageUsage): string {
  const used = `${bytesText(usageBytes)} of ${bytesText(quotaBytes)} used`;
  if (quotaBytes <= 0) return used;
  const percent = Math.min(100, Math.round((usageBytes / quotaBytes) * 100));
  return `${used} (${percent === 0 && usageBytes > 0 ? 'under 1' : percent}%)`;
}

/** Whether the browser keeps this origin's data when space runs low. */
export type PersistenceStatus = 'checking' | 'persistent' | 'not-persistent' | 'refused' | 'unsupported' | 'error';

const MAY_CLEAR =
  "the browser may clear Anima's data (sessions, models) when the device runs low on space. An exported session snapshot is a copy that survives that";

/** What the Storage panel says about persistence, before and after asking for it. */
export const PERSISTENCE_TEXT = {
  checking: 'Checking whether this browser keeps your data…',
  persistent: "Persistent: this browser keeps Anima's data even when the device runs low on space.",
  'not-persistent': `Not persistent: ${MAY_CLEAR}.`,
  refused: `The browser said no: ${MAY_CLEAR}. Browsers agree more readily for a site that is installed or often used; you can ask again later.`,
  unsupported: `This browser cannot be asked to keep the data: ${MAY_CLEAR}.`,
  error: `This browser could not say whether it keeps the data: ${MAY_CLEAR}.`,
} as const satisfies Record<PersistenceStatus, string>;
