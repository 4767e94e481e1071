import { type Secret, withKeys } from '#core/secrets.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import {
  ENDPOINT_KEY_PREFIX,
  endpointKeySecrets,
  endpointKeySetting,
  endpointKeysSchema,
  type ReachableEndpoint,
} from '#core/records/sparql-endpoint.ts';

/** A session's endpoint keys (a device setting). */
export async function endpointKeysOf(db: AnimaDatabase, sessionId: string): Promise<Record<string, string>> {
  return endpointKeysSchema.safeParse((await db.settings.get(endpointKeySetting(sessionId)))?.value).data ?? {};
}

/** Every endpoint key this device keeps, of every session: no export may carry one. */
export async function storedEndpointSecrets(db: AnimaDatabase): Promise<Secret[]> {
  const rows = await db.settings.where('key').startsWith(ENDPOINT_KEY_PREFIX).toArray();
  return rows.flatMap((row) =>
    Object.entries(endpointKeysSchema.safeParse(row.value).data ?? {}).flatMap(([name, key]) =>
      endpointKeySecrets(name, key),
    ),
  );
}

/** A session's endpoints with their keys: a key given for this call wins over the stored one. */
export async function reachableEndpoints(
  db: AnimaDatabase,
  sessionId: string,
  given: Record<string, string> = {},
): Promise<ReachableEndpoint[]> {
  const session = await db.sessions.get(sessionId);
  const keys = { ...(await endpointKeysOf(db, sessionId)), ...given };
  return withKeys(session?.sparqlEndpoints, keys);
}
