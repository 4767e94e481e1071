/**
 * What a write says when this origin's storage is full, for the one problem every write that ran
 * out of room reports.
 */
export const STORAGE_FULL_MESSAGE =
  'storage is full, so nothing of this was written; free space (delete a model or a session) or allow more storage, then try again';

/** How deep the wrapped errors are followed: Dexie wraps once or twice, never in a cycle, but a bad value must not loop. */
const MAX_DEPTH = 5;

/**
 * Whether a failed write ran out of storage. IndexedDB raises a `QuotaExceededError`; Dexie hands
 * it on as its own `QuotaExceededError`, or, when the browser aborts the transaction as it
 * commits (Chromium does), as an `AbortError` whose `inner` is the browser's error; a bulk write
 * lists it among its `failures`. All of them count.
 */
export function isQuotaExceeded(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > MAX_DEPTH) return false;
  const { name, inner, failures, cause } = error as {
    name?: unknown;
    inner?: unknown;
    failures?: unknown;
    cause?: unknown;
  };
  if (name === 'QuotaExceededError') return true;
  if (isQuotaExceeded(inner, depth + 1) || isQuotaExceeded(cause, depth + 1)) return true;
  return Array.isArray(failures) && failures.some((failure) => isQuotaExceeded(failure, depth + 1));
}

/** The refusal of a change that did not fit in storage: reason 'storage-full', with the one problem that says so. */
export function storageFull() {
  return { ok: false as const, reason: 'storage-full' as const, problems: [{ message: STORAGE_FULL_MESSAGE }] };
}
