import { z } from 'zod';
import type { AnimaDatabase } from './database.ts';

/** Keys a device keeps by session id and then by name (an endpoint's, a tool server's): `{ [sessionId]: { [name]: key } }`. */
export type KeysBySession = Record<string, Record<string, string>>;

const keysSchema = z.record(z.string(), z.string());

/**
 * Every session's keys of one kind, the settings under `prefix` + session id (the CLI keeps them
 * in a file between commands); a session without one is left out.
 */
export async function keysOfEverySession(db: AnimaDatabase, prefix: string): Promise<KeysBySession> {
  const rows = await db.settings.where('key').startsWith(prefix).toArray();
  const all: KeysBySession = {};
  for (const row of rows) {
    const keys = keysSchema.safeParse(row.value).data;
    if (keys && Object.keys(keys).length > 0) all[row.key.slice(prefix.length)] = keys;
  }
  return all;
}

/** Puts back the keys {@link keysOfEverySession} gave, in one transaction. */
export async function putKeysOfEverySession(db: AnimaDatabase, prefix: string, all: Readonly<KeysBySession>) {
  await db.transaction('rw', db.settings, async () => {
    for (const [sessionId, keys] of Object.entries(all))
      await db.settings.put({ key: `${prefix}${sessionId}`, value: keys });
  });
}
