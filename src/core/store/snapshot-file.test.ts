import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { describeProblem } from '../result.ts';
import { testService } from '../testing/test-database.ts';
import { MAX_JSON_DEPTH } from '../safe-json.ts';
import { exportSnapshot } from './snapshot.ts';
import { readSnapshotFile, snapshotFileBytes, snapshotFileText } from './snapshot-file.ts';

async function exported() {
  const { db, service } = testService();
  const { session } = await service.open({});
  await service.kgImport({ sessionId: session.id, operationId: 'op', fileName: 'zoo.csv', data: 'Dog,is-a,Mammal\nCat,is-a,Mammal,0.7\nWolf,is-a,Mammal\n' });
  return exportSnapshot(db, session.id);
}

const messages = (result: { ok: boolean; error?: Parameters<typeof describeProblem>[0][] }) => (result.ok ? [] : result.error!.map(describeProblem));

describe('snapshot files', () => {
  it('writes nothing the reader would refuse as too large, and says so in the reader’s words', async () => {
    const snapshot = await exported();
    const text = await snapshotFileText(snapshot, { secrets: [] });
    if (!text.ok) throw new Error(messages(text).join('\n'));
    const size = new TextEncoder().encode(text.value).byteLength;

    // The size is known before the file is made, to the byte: a limit of exactly its size writes it, one less refuses it.
    expect((await snapshotFileText(snapshot, { secrets: [], limits: { maxBytes: size } })).ok).toBe(true);
    const refused = await snapshotFileText(snapshot, { secrets: [], limits: { maxBytes: size - 1 } });
    const read = await readSnapshotFile(new TextEncoder().encode(text.value), { maxBytes: size - 1 });
    expect(messages(refused)).toEqual([expect.stringMatching(/^the snapshot is [\d.]+ KB, more than the [\d.]+ KB Anima reads$/)]);
    expect(messages(read)).toEqual(messages(refused));

    // Gzip saves disk, not the memory a reader needs: the limit is on the unzipped size.
    expect(messages(await snapshotFileBytes(snapshot, { gzip: true, secrets: [], limits: { maxBytes: size - 1 } }))).toEqual(messages(refused));
    const zipped = await snapshotFileBytes(snapshot, { gzip: true, secrets: [] });
    if (!zipped.ok) throw new Error(messages(zipped).join('\n'));
    expect(gunzipSync(zipped.value).toString('utf8')).toBe(text.value);
    expect(messages(await readSnapshotFile(zipped.value, { maxBytes: size - 1 }))).toEqual([expect.stringMatching(/^the snapshot is larger unzipped, more than the [\d.]+ KB Anima reads$/)]);
  });

  it('writes nothing nested deeper than the reader reads', async () => {
    const snapshot = await exported();
    let deep: unknown = 'bottom';
    for (let level = 0; level < MAX_JSON_DEPTH; level++) deep = { deeper: deep };
    const nested = { ...snapshot, cycles: [{ input: deep }] } as unknown as typeof snapshot;
    const refused = await snapshotFileText(nested, { secrets: [] });
    const sentence = `the JSON nests deeper than ${MAX_JSON_DEPTH} levels, more than any file Anima writes`;
    expect(messages(refused)).toEqual([sentence]);
    // The reader says the same, at the line and column where the nesting passes the limit.
    const read = await readSnapshotFile(new TextEncoder().encode(JSON.stringify(nested)));
    expect(messages(read)).toEqual([expect.stringMatching(/^line 1, column \d+: /)]);
    expect(messages(read)[0]).toContain(sentence);
  });
});
