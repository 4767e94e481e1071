import { describe, expect, it } from 'vitest';
import { freshIndexedDb } from '#core/testing/test-database.ts';
import { MAX_ARTIFACT_BYTES } from '#core/records/artifact.ts';
import { AnimaDatabase } from './database.ts';
import { artifactsOfGoal, artifactsOfSession, artifactTables, putArtifacts, readArtifact } from './artifact-store.ts';

const PNG = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3);
const origin = { tool: 'chart', goalId: 1, cycle: 3 };

function database() {
  return new AnimaDatabase('anima', freshIndexedDb());
}

describe('artifacts in the store', () => {
  it('keeps an artifact with its provenance, lists it without its bytes, and reads it whole', async () => {
    const db = database();
    await db.transaction('rw', artifactTables(db), () =>
      putArtifacts(
        db,
        's',
        { ...origin, server: 'everything', inputDigest: 'abc' },
        [{ name: 'chart.png', kind: 'image', mediaType: 'image/png', bytes: PNG }],
        100,
      ),
    );
    const [listed] = await artifactsOfGoal(db, 's', 1);
    expect(listed).toMatchObject({
      sessionId: 's',
      tool: 'chart',
      server: 'everything',
      inputDigest: 'abc',
      goalId: 1,
      cycle: 3,
      name: 'chart.png',
      kind: 'image',
      size: PNG.byteLength,
    });
    expect(listed).not.toHaveProperty('bytes');
    expect((await readArtifact(db, 's', listed!.id!))?.bytes).toEqual(PNG);
    // Another session's id reads nothing.
    expect(await readArtifact(db, 'other', listed!.id!)).toBeUndefined();
  });

  it('replaces a goal artifact of the same name, keeping when it was first made', async () => {
    const db = database();
    const put = (text: string, now: number) =>
      db.transaction('rw', artifactTables(db), () =>
        putArtifacts(
          db,
          's',
          origin,
          [{ name: 'notes.md', kind: 'text', mediaType: 'text/markdown', bytes: new TextEncoder().encode(text) }],
          now,
        ),
      );
    await put('first', 1);
    await put('second, longer', 2);
    const artifacts = await artifactsOfSession(db, 's');
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0]).toMatchObject({ createdAt: 1, updatedAt: 2, size: 14 });
    expect(new TextDecoder().decode((await readArtifact(db, 's', artifacts[0]!.id!))!.bytes)).toBe('second, longer');
  });

  it('refuses to store bytes over the limit, or bytes that are not what their kind says', async () => {
    const db = database();
    const tooLarge = new Uint8Array(MAX_ARTIFACT_BYTES + 1);
    await expect(
      db.transaction('rw', artifactTables(db), () =>
        putArtifacts(
          db,
          's',
          origin,
          [{ name: 'big.bin', kind: 'binary', mediaType: 'application/octet-stream', bytes: tooLarge }],
          1,
        ),
      ),
    ).rejects.toThrow('the artifact is 8.1 MB, more than the 8 MB Anima keeps');
    await expect(
      db.transaction('rw', artifactTables(db), () =>
        putArtifacts(
          db,
          's',
          origin,
          [{ name: 'bad.json', kind: 'json', mediaType: 'application/json', bytes: new TextEncoder().encode('{') }],
          1,
        ),
      ),
    ).rejects.toThrow('the JSON does not parse');
    expect(await artifactsOfSession(db, 's')).toEqual([]);
    // Exactly the limit is kept.
    await db.transaction('rw', artifactTables(db), () =>
      putArtifacts(
        db,
        's',
        origin,
        [
          {
            name: 'max.bin',
            kind: 'binary',
            mediaType: 'application/octet-stream',
            bytes: new Uint8Array(MAX_ARTIFACT_BYTES),
          },
        ],
        1,
      ),
    );
    expect((await artifactsOfSession(db, 's'))[0]?.size).toBe(MAX_ARTIFACT_BYTES);
  });

  it('writes nothing when the transaction it is part of fails', async () => {
    const db = database();
    await expect(
      db.transaction('rw', [...artifactTables(db), db.goals], async () => {
        await putArtifacts(
          db,
          's',
          origin,
          [{ name: 'chart.png', kind: 'image', mediaType: 'image/png', bytes: PNG }],
          1,
        );
        throw new Error('the cycle failed after its tool ran');
      }),
    ).rejects.toThrow('the cycle failed');
    expect(await artifactsOfSession(db, 's')).toEqual([]);
    expect(await db.artifactBytes.count()).toBe(0);
  });
});
