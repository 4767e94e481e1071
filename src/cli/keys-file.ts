import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { describeProblem } from '#core/result.ts';
import { readJson } from '#core/safe-json.ts';
import { ENDPOINT_KEY_PREFIX, endpointKeysSchema } from '#core/records/sparql-endpoint.ts';
import { TOOL_SERVER_KEY_PREFIX, toolServerKeysSchema } from '#core/records/tool-server.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import { keysOfEverySession, putKeysOfEverySession } from '#core/store/session-keys.ts';
import { animaHome } from './device-file.ts';
import { CliError } from './snapshot-file.ts';

/**
 * The keys the CLI keeps on this machine, as the app keeps them in the browser: outside every
 * snapshot (a snapshot that would carry one is refused), in $ANIMA_HOME/keys.json (~/.anima by
 * default), readable by the user alone (mode 600), by session id and then by name: the SPARQL
 * endpoints' keys, and the tool servers' (a file from before tool servers has none).
 */
const keysFileSchema = z
  .object({
    sparqlKeys: z.record(z.string(), endpointKeysSchema),
    toolServerKeys: z.record(z.string(), toolServerKeysSchema).default({}),
  })
  .strict();

export function keysFilePath(): string {
  return join(animaHome(), 'keys.json');
}

/** Gives the command's database the keys this machine keeps; no file, none. */
export async function loadDeviceKeys(db: AnimaDatabase): Promise<void> {
  const path = keysFilePath();
  if (!existsSync(path)) return;
  let bytes: Uint8Array;
  let mode: number;
  try {
    mode = (await stat(path)).mode;
    bytes = await readFile(path);
  } catch (error) {
    throw new CliError(`${path}: not a readable file (${error instanceof Error ? error.message : String(error)})`);
  }
  // As ssh does with a private key: keys others can read are not used until the file is the user's alone.
  if (process.platform !== 'win32' && (mode & 0o077) !== 0)
    throw new CliError(
      `${path}: other users may read the keys it holds (mode ${(mode & 0o777).toString(8)}); run chmod 600 ${path}`,
    );
  const json = readJson(bytes, { maxBytes: 1024 * 1024 });
  const parsed = json.ok ? keysFileSchema.safeParse(json.value) : undefined;
  if (!parsed?.success)
    throw new CliError(
      `${path}: not a valid Anima keys file (${json.ok ? parsed?.error.issues[0]?.message : describeProblem(json.error[0]!)}); fix it or delete it`,
    );
  await putKeysOfEverySession(db, ENDPOINT_KEY_PREFIX, parsed.data.sparqlKeys);
  await putKeysOfEverySession(db, TOOL_SERVER_KEY_PREFIX, parsed.data.toolServerKeys);
}

/** Writes the keys the command's database keeps back to the file, mode 600 from the start (a temporary file first, so a crash never leaves half of one). */
export async function saveDeviceKeys(db: AnimaDatabase): Promise<void> {
  const sparqlKeys = await keysOfEverySession(db, ENDPOINT_KEY_PREFIX);
  const toolServerKeys = await keysOfEverySession(db, TOOL_SERVER_KEY_PREFIX);
  const path = keysFilePath();
  if (Object.keys(sparqlKeys).length === 0 && Object.keys(toolServerKeys).length === 0 && !existsSync(path)) return;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.tmp-${process.pid}`;
  await writeFile(temporary, `${JSON.stringify({ sparqlKeys, toolServerKeys }, null, 2)}\n`, { mode: 0o600 });
  // A umask never widens mode 600, but a file left by an older temporary might: said once more.
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}
