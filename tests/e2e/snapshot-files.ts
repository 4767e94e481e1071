import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Download } from '@playwright/test';
import type { SnapshotFile } from './page-models/sessions-page.ts';

/** A downloaded snapshot file, read whole. */
export async function downloaded(download: Download): Promise<SnapshotFile> {
  const name = download.suggestedFilename();
  return {
    name,
    mimeType: name.endsWith('.gz') ? 'application/gzip' : 'application/json',
    buffer: await readFile(await download.path()),
  };
}

/** The JSON a snapshot's hash covers, as snapshot-file.ts writes it: every object's keys sorted. */
function canonicalJson(value: unknown): string {
  const sorted = (item: unknown): unknown =>
    Array.isArray(item)
      ? item.map(sorted)
      : typeof item === 'object' && item !== null
        ? Object.fromEntries(
            Object.keys(item)
              .sort()
              .map((key) => [key, sorted((item as Record<string, unknown>)[key])]),
          )
        : item;
  return JSON.stringify(sorted(value));
}

/** A snapshot file changed by `edit`, with its SHA-256 computed again: a file Anima takes as whole. */
export function rehashed(
  file: SnapshotFile,
  name: string,
  edit: (document: Record<string, unknown>) => void,
): SnapshotFile {
  const document = JSON.parse(file.buffer.toString('utf8')) as Record<string, unknown>;
  edit(document);
  const { sha256: _sha256, ...content } = document;
  const sha256 = createHash('sha256').update(canonicalJson(content)).digest('hex');
  return { name, mimeType: 'application/json', buffer: Buffer.from(`${JSON.stringify({ ...document, sha256 })}\n`) };
}
