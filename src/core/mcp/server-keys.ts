import { type Secret, withKeys } from '#core/secrets.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import {
  type ReachableToolServer,
  TOOL_SERVER_KEY_PREFIX,
  toolServerKeySecrets,
  toolServerKeySetting,
  toolServerKeysSchema,
} from '#core/records/tool-server.ts';

/** A session's tool server keys (a device setting). */
export async function toolServerKeysOf(db: AnimaDatabase, sessionId: string): Promise<Record<string, string>> {
  return toolServerKeysSchema.safeParse((await db.settings.get(toolServerKeySetting(sessionId)))?.value).data ?? {};
}

/** Every tool server key this device keeps, of every session: no export may carry one. */
export async function storedToolServerSecrets(db: AnimaDatabase): Promise<Secret[]> {
  const rows = await db.settings.where('key').startsWith(TOOL_SERVER_KEY_PREFIX).toArray();
  return rows.flatMap((row) =>
    Object.entries(toolServerKeysSchema.safeParse(row.value).data ?? {}).flatMap(([name, key]) =>
      toolServerKeySecrets(name, key),
    ),
  );
}

/** A session's tool servers with their keys: a key given for this call wins over the stored one. */
export async function reachableToolServers(
  db: AnimaDatabase,
  sessionId: string,
  given: Record<string, string> = {},
): Promise<ReachableToolServer[]> {
  const session = await db.sessions.get(sessionId);
  const keys = { ...(await toolServerKeysOf(db, sessionId)), ...given };
  return withKeys(session?.toolServers, keys);
}
