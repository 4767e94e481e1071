import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { describeProblem, type Result } from '#core/result.ts';
import { testService } from '#core/testing/test-database.ts';
import { MAX_JSON_DEPTH } from '#core/safe-json.ts';
import { exportSnapshot } from './snapshot.ts';
import type { Snapshot, SnapshotLimits } from './snapshot-format.ts';
import { readSnapshotFile, snapshotFileBytes } from './snapshot-encoding.ts';

/** A snapshot's file as text, or the reader's refusal. */
const fileText = async (snapshot: Snapshot, limits?: SnapshotLimits): Promise<Result<string>> => {
  const bytes = await snapshotFileBytes(snapshot, { gzip: false, secrets: [], limits });
  return bytes.ok ? { ok: true, value: new TextDecoder().decode(bytes.value) } : bytes;
};

async function exported(csv = 'Dog,is-a,Mammal\nCat,is-a,Mammal,0.7\nWolf,is-a,Mammal\n') {
  const { db, service } = testService();
  const { session } = await service.open({});
  await service.kgImport({ sessionId: session.id, operationId: 'op', fileName: 'zoo.csv', data: csv });
  return exportSnapshot(db, session.id);
}

/** The JSON of a value with every object's keys sorted, made the plain way. */
const sortedJson = (value: unknown): string => {
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
};

const messages = (result: { ok: boolean; error?: Parameters<typeof describeProblem>[0][] }) =>
  result.ok ? [] : result.error!.map(describeProblem);

describe('snapshot files', () => {
  it(
    'are written in pieces as one JSON.stringify of the document, hashed over its sorted JSON as before',
    { timeout: 30_000 },
    async () => {
      // Megabytes of rows, so the text is made in several pieces.
      const snapshot = await exported(
        Array.from({ length: 7_000 }, (_, n) => `Thing ${n} — ✓,is-a,Kind ${n % 50},0.${(n % 9) + 1}\n`).join(''),
      );
      const text = await fileText(snapshot);
      if (!text.ok) throw new Error(messages(text).join('\n'));
      expect(text.value.length).toBeGreaterThan(2 ** 20);
      const { format, version, ...rest } = snapshot;
      const sha256 = createHash('sha256').update(sortedJson(snapshot)).digest('hex');
      expect(text.value).toBe(`${JSON.stringify({ format, version, sha256, ...rest })}\n`);
      expect(await readSnapshotFile(new TextEncoder().encode(text.value))).toMatchObject({
        ok: true,
        value: { snapshot },
      });
    },
  );

  it('writes nothing the reader would refuse as too large, and says so in the reader’s words', async () => {
    const snapshot = await exported();
    const text = await fileText(snapshot);
    if (!text.ok) throw new Error(messages(text).join('\n'));
    const size = new TextEncoder().encode(text.value).byteLength;

    // The size is known before the file is made, to the byte: a limit of exactly its size writes it, one less refuses it.
    expect((await fileText(snapshot, { maxBytes: size })).ok).toBe(true);
    const refused = await fileText(snapshot, { maxBytes: size - 1 });
    const read = await readSnapshotFile(new TextEncoder().encode(text.value), { maxBytes: size - 1 });
    expect(messages(refused)).toEqual([
      expect.stringMatching(/^the snapshot is [\d.]+ KB, more than the [\d.]+ KB Anima reads$/),
    ]);
    expect(messages(read)).toEqual(messages(refused));

    // Gzip saves disk, not the memory a reader needs: the limit is on the unzipped size.
    expect(
      messages(await snapshotFileBytes(snapshot, { gzip: true, secrets: [], limits: { maxBytes: size - 1 } })),
    ).toEqual(messages(refused));
    const zipped = await snapshotFileBytes(snapshot, { gzip: true, secrets: [] });
    if (!zipped.ok) throw new Error(messages(zipped).join('\n'));
    expect(gunzipSync(zipped.value).toString('utf8')).toBe(text.value);
    expect(messages(await readSnapshotFile(zipped.value, { maxBytes: size - 1 }))).toEqual([
      expect.stringMatching(/^the snapshot is larger unzipped, more than the [\d.]+ KB Anima reads$/),
    ]);
  });

  it('writes nothing nested deeper than the reader reads', async () => {
    const snapshot = await exported();
    let deep: unknown = 'bottom';
    for (let level = 0; level < MAX_JSON_DEPTH; level++) deep = { deeper: deep };
    const nested = { ...snapshot, cycles: [{ input: deep }] } as unknown as typeof snapshot;
    const refused = await fileText(nested);
    const sentence = `the JSON nests deeper than ${MAX_JSON_DEPTH} levels, more than any file Anima writes`;
    expect(messages(refused)).toEqual([sentence]);
    // The reader says the same, at the line and column where the nesting passes the limit.
    const read = await readSnapshotFile(new TextEncoder().encode(JSON.stringify(nested)));
    expect(messages(read)).toEqual([expect.stringMatching(/^line 1, column \d+: /)]);
    expect(messages(read)[0]).toContain(sentence);
  });
});
