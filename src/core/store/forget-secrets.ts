import { REDACTED, type Secret, worthRedacting } from '#core/secrets.ts';
import type { AnimaDatabase } from './database.ts';

/**
 * Replaces each secret's value with `[redacted]` in every string of every row stored on this
 * device but the settings, inside the caller's transaction. Called when a secret is forgotten (a
 * key removed or replaced): an export refuses only the secrets the device still keeps, so text
 * that held an old one (a goal typed with it, a cycle of an older build) must not keep it either.
 */
export async function forgetStoredSecrets(db: AnimaDatabase, secrets: readonly Secret[]): Promise<number> {
  const values = worthRedacting(secrets).map((secret) => secret.value);
  if (values.length === 0) return 0;
  const redact = (text: string) => values.reduce((kept, value) => kept.split(value).join(REDACTED), text);
  let changed = 0;
  for (const table of db.tables) {
    if (table.name === 'settings') continue;
    await table.toCollection().modify((row, ref) => {
      const redacted = inStrings(row, redact);
      if (redacted === row) return;
      ref.value = redacted;
      changed++;
    });
  }
  return changed;
}

/** The value with `change` applied to each string in it; the same object where nothing changed. Only plain objects and arrays are entered: typed arrays, blobs and dates stay as they are. */
function inStrings(value: unknown, change: (text: string) => string): unknown {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => inStrings(item, change));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const entries = Object.entries(value).map(([key, item]) => [key, inStrings(item, change)] as const);
  return entries.some(([key, item]) => item !== (value as Record<string, unknown>)[key])
    ? Object.fromEntries(entries)
    : value;
}
