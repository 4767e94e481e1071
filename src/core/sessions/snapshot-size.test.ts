import { describe, expect, it } from 'vitest';
import type { Result } from '#core/result.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { loadGraph } from '#core/store/kg-repository.ts';
import { exportSnapshot } from './snapshot.ts';
import { restoreSnapshot } from './snapshot-restore.ts';
import type { Snapshot, SnapshotLimits } from './snapshot-format.ts';
import { readSnapshotFile, snapshotFileBytes } from './snapshot-encoding.ts';
import { sessionSnapshotBytes } from './snapshot-size.ts';
import { artifactTables, putArtifacts } from '#core/store/artifact-store.ts';

/** A snapshot's file as text, or the reader's refusal. */
const fileText = async (snapshot: Snapshot, limits?: SnapshotLimits): Promise<Result<string>> => {
  const bytes = await snapshotFileBytes(snapshot, { gzip: false, secrets: [], limits });
  return bytes.ok ? { ok: true, value: new TextDecoder().decode(bytes.value) } : bytes;
};

/** N-Triples about `count` things: IRIs (labelled by their local names) and language-tagged literals. */
const nTriples = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => {
    const n = from + index;
    return `<http://example.org/thing/Thing_${n}> <http://example.org/ontology/p${n % 7}> ${n % 2 ? `"the thing numbered ${n}"@en` : `<http://example.org/thing/Thing_${n + 1}>`} .\n`;
  }).join('');

const fileSize = async (db: Parameters<typeof exportSnapshot>[0], sessionId: string) => {
  const text = await fileText(await exportSnapshot(db, sessionId));
  if (!text.ok) throw new Error(text.error[0]!.message);
  return new TextEncoder().encode(text.value).byteLength;
};

describe('what a session takes in its snapshot', () => {
  it('is counted without making the file, never short of it and close to it', async () => {
    const { db, service } = testService();
    const { session } = await service.open({});
    await service.kgImport({ sessionId: session.id, operationId: 'op', fileName: 'things.nt', data: nTriples(500) });
    await service.kgImport({
      sessionId: session.id,
      operationId: 'op',
      fileName: 'zoo.csv',
      data: 'Dog,is-a,Mammal\nCat,is-a,Mammal,0.7\nThing_3,likes,Ünïcödé 🐕\n',
    });
    // Artifacts: bytes the file writes as base64, and text it writes as text (escapes and all).
    await service.goalAdd({ sessionId: session.id, description: 'Keep files', criteria: 'files' });
    const random = Uint8Array.from({ length: 200_000 }, (_, index) => (index * 7919) % 251);
    await db.transaction('rw', artifactTables(db), () =>
      putArtifacts(
        db,
        session.id,
        { tool: 'maker', goalId: 1, cycle: 0 },
        [
          { name: 'a.bin', kind: 'binary', mediaType: 'application/octet-stream', bytes: random },
          {
            name: 'a.txt',
            kind: 'text',
            mediaType: 'text/plain',
            bytes: new TextEncoder().encode('line "quoted"\n\ttabbed ✓\n'.repeat(2000)),
          },
        ],
        1,
      ),
    );
    const counted = await sessionSnapshotBytes(db, await loadGraph(db, session.id), session.id);
    const written = await fileSize(db, session.id);
    expect(counted).toBeGreaterThanOrEqual(written);
    expect(counted).toBeLessThan(written * 1.05 + 2048);
  });

  it('an import that would make it larger than the reader reads is refused at the first statement past the limit, and nothing is stored', async () => {
    const maxBytes = 64 * 1024;
    const { db, service } = testService({ snapshotLimits: { maxBytes } });
    const { session } = await service.open({});
    const sessionId = session.id;
    expect(
      await service.kgImport({ sessionId, operationId: 'op', fileName: 'few.nt', data: nTriples(100) }),
    ).toMatchObject({ ok: true, added: 100 });
    const before = await exportSnapshot(db, sessionId);

    const refused = await service.kgImport({
      sessionId,
      operationId: 'op',
      fileName: 'many.nt',
      data: nTriples(2000, 100),
    });
    expect(refused).toMatchObject({ ok: false, reason: 'invalid' });
    const message = refused.ok ? '' : refused.problems[0]!.message;
    expect(message).toMatch(
      /^the session's snapshot would pass the 64 KB Anima reads: the session takes [\d.]+ KB, and the file's first [\d,]+ statements add [\d.]+ KB; import a smaller part of it, or import it into a new session$/,
    );
    // Stopped as soon as it passed: well before the end of the file.
    expect(Number(/first ([\d,]+) statements/.exec(message)![1]!.replace(/,/g, ''))).toBeLessThan(1000);
    expect(await exportSnapshot(db, sessionId)).toEqual(before);

    // What the limit lets in exports, and reads back whole, under the same limit: export, import and export again give the same bytes.
    expect(
      await service.kgImport({ sessionId, operationId: 'op', fileName: 'more.nt', data: nTriples(100, 100) }),
    ).toMatchObject({ ok: true });
    const exported = await fileText(await exportSnapshot(db, sessionId), { maxBytes });
    if (!exported.ok) throw new Error(exported.error[0]!.message);
    const read = await readSnapshotFile(new TextEncoder().encode(exported.value), { maxBytes });
    if (!read.ok) throw new Error(read.error[0]!.message);
    const elsewhere = new AnimaDatabase('elsewhere', freshIndexedDb());
    await restoreSnapshot(elsewhere, read.value.snapshot);
    expect(await fileText(await exportSnapshot(elsewhere, sessionId), { maxBytes })).toEqual(exported);
  });
});
