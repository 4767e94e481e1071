import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { AgentApi } from '#core/api.ts';
import { webAccessSchema, type WebAccess } from '#core/tools/web-access.ts';
import { describeProblem } from '#core/result.ts';
import { readJson } from '#core/safe-json.ts';
import { CliError } from './snapshot-file.ts';

/**
 * The CLI's device settings (what the app keeps in the browser, outside every session and never
 * exported): the web addresses http_fetch may read. One file for every snapshot on this machine,
 * at $ANIMA_HOME/device.json (~/.anima/device.json by default).
 */
const deviceFileSchema = z.object({ webAccess: webAccessSchema }).strict();

/** Where the CLI keeps what belongs to this machine rather than a session: $ANIMA_HOME, ~/.anima by default. */
export function animaHome(): string {
  return process.env.ANIMA_HOME || join(homedir(), '.anima');
}

export function deviceFilePath(): string {
  return join(animaHome(), 'device.json');
}

/** Gives the session's service the device's settings, checked as the app checks them; no file, the defaults. */
export async function loadDeviceSettings(service: AgentApi): Promise<void> {
  const path = deviceFilePath();
  if (!existsSync(path)) return;
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new CliError(`${path}: not a readable file (${error instanceof Error ? error.message : String(error)})`);
  }
  const json = readJson(bytes, { maxBytes: 1024 * 1024 });
  const parsed = json.ok ? deviceFileSchema.safeParse(json.value) : undefined;
  if (!parsed?.success)
    throw new CliError(
      `${path}: not a valid Anima device file (${json.ok ? parsed?.error.issues[0]?.message : describeProblem(json.error[0]!)}); fix it or delete it`,
    );
  const set = await service.webAccessSet({ webAccess: parsed.data.webAccess });
  if (!set.ok)
    throw new CliError(
      [
        `${path}: the web access it holds is refused:`,
        ...set.problems.map((problem) => `  ${describeProblem(problem)}`),
      ].join('\n'),
    );
}

/** Writes the device's settings back (a temporary file first, so a crash never leaves half of one). */
export async function saveDeviceSettings(webAccess: WebAccess): Promise<void> {
  const path = deviceFilePath();
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.tmp-${process.pid}`;
  await writeFile(temporary, `${JSON.stringify({ webAccess }, null, 2)}\n`);
  await rename(temporary, path);
}
