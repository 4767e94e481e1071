import { describe, expect, it } from 'vitest';
import { describeProblem } from '#core/result.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { artifactsOfSession, artifactTables, putArtifacts, readArtifact } from '#core/store/artifact-store.ts';
import { MAX_ARTIFACT_BYTES } from '#core/records/artifact.ts';
import { base64FromBytes } from '#core/base64.ts';
import { exportSnapshot } from './snapshot.ts';
import { parseSnapshot } from './snapshot-check.ts';
import { restoreSnapshot } from './snapshot-restore.ts';
import { snapshotFileBytes } from './snapshot-encoding.ts';
import { checkSession } from './session-check.ts';

/** A 1x1 PNG, whole: what a tool of an MCP server might hand back. */
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='),
  (character) => character.charCodeAt(0),
);

async function sessionWithArtifacts() {
  const { db, service } = testService();
  const { session } = await service.open({});
  const added = await service.goalAdd({ sessionId: session.id, description: 'Draw the zoo', criteria: 'zoo animals' });
  if (!added.ok) throw new Error(JSON.stringify(added));
  const [goal] = (await service.goalList({ sessionId: session.id })).goals;
  await db.transaction('rw', artifactTables(db), () =>
    putArtifacts(
      db,
      session.id,
      { tool: 'chart', goalId: goal!.id, cycle: 2 },
      [
        { name: 'zoo.png', kind: 'image', mediaType: 'image/png', bytes: PNG },
        { name: 'zoo.json', kind: 'json', mediaType: 'application/json', bytes: new TextEncoder().encode('{"a":1}') },
        { name: 'zoo.bin', kind: 'binary', mediaType: 'application/octet-stream', bytes: Uint8Array.of(0, 255, 7) },
      ],
      5,
    ),
  );
  return { db, sessionId: session.id, goalId: goal!.id };
}

describe('artifacts in snapshots', () => {
  it('travel with the session: an image as base64, JSON as text, and come back byte for byte', async () => {
    const { db, sessionId } = await sessionWithArtifacts();
    const snapshot = await exportSnapshot(db, sessionId);
    expect(snapshot.artifacts).toEqual([
      expect.objectContaining({ id: 1, goalId: 1, name: 'zoo.png', base64: base64FromBytes(PNG) }),
      expect.objectContaining({ id: 2, name: 'zoo.json', text: '{"a":1}' }),
      expect.objectContaining({ id: 3, name: 'zoo.bin', base64: 'AP8H' }),
    ]);
    const parsed = parseSnapshot(JSON.parse(JSON.stringify(snapshot)));
    if (!parsed.ok) throw new Error(parsed.error.map(describeProblem).join('\n'));
    const elsewhere = new AnimaDatabase('elsewhere', freshIndexedDb());
    // Another session there already holds artifacts: the restored ones are numbered after them.
    await elsewhere.transaction('rw', artifactTables(elsewhere), () =>
      putArtifacts(
        elsewhere,
        'other',
        { tool: 'x', goalId: 9, cycle: 1 },
        [{ name: 'a.txt', kind: 'text', mediaType: 'text/plain', bytes: new TextEncoder().encode('a') }],
        1,
      ),
    );
    await restoreSnapshot(elsewhere, parsed.value);
    const restored = await artifactsOfSession(elsewhere, sessionId);
    const image = restored.find((artifact) => artifact.name === 'zoo.png')!;
    expect(image).toMatchObject({
      kind: 'image',
      mediaType: 'image/png',
      size: PNG.byteLength,
      tool: 'chart',
      cycle: 2,
    });
    expect(image.id).not.toBe(1);
    expect((await readArtifact(elsewhere, sessionId, image.id!))?.bytes).toEqual(PNG);
    expect(JSON.stringify(await exportSnapshot(elsewhere, sessionId))).toBe(JSON.stringify(snapshot));
  });

  it('refuses an artifact over the store limit, in the store words, and content that is not its kind', async () => {
    const { db, sessionId } = await sessionWithArtifacts();
    const snapshot = JSON.parse(JSON.stringify(await exportSnapshot(db, sessionId)));
    snapshot.artifacts[2].base64 = base64FromBytes(new Uint8Array(MAX_ARTIFACT_BYTES + 1));
    snapshot.artifacts[1].text = '{not json';
    snapshot.artifacts[0].text = 'a text field on an image';
    const parsed = parseSnapshot(snapshot);
    expect(parsed.ok ? [] : parsed.error.map(describeProblem)).toEqual([
      'at artifacts.0.text: an image artifact holds its content as base64, not text',
      'at artifacts.1.text: the JSON does not parse',
      'at artifacts.2.base64: the artifact is 8.1 MB, more than the 8 MB Anima keeps',
    ]);
  });

  it('reads a format 11 file, whose notes become text artifacts of file_io', async () => {
    const { db, sessionId } = await sessionWithArtifacts();
    const { artifacts: _artifacts, ...current } = JSON.parse(JSON.stringify(await exportSnapshot(db, sessionId)));
    const text = '# Notes: Draw the zoo\n';
    const note = {
      id: 4,
      goalId: 1,
      name: 'goal-1-notes.md',
      mediaType: 'text/markdown',
      text,
      findingsNoted: 0,
      cycle: 3,
      createdAt: 1,
      updatedAt: 2,
    };
    const parsed = parseSnapshot({ ...current, version: 11, notes: [note] });
    if (!parsed.ok) throw new Error(parsed.error.map(describeProblem).join('\n'));
    expect(parsed.value.artifacts).toEqual([
      {
        id: 4,
        goalId: 1,
        tool: 'file_io',
        name: 'goal-1-notes.md',
        kind: 'text',
        mediaType: 'text/markdown',
        text,
        cycle: 3,
        createdAt: 1,
        updatedAt: 2,
      },
    ]);
  });

  it('are searched for the device secrets when text, as every other text of the file', async () => {
    const { db, sessionId, goalId } = await sessionWithArtifacts();
    const key = 'sk-live-0123456789abcdef';
    await db.transaction('rw', artifactTables(db), () =>
      putArtifacts(
        db,
        sessionId,
        { tool: 'fetch', goalId, cycle: 3 },
        [
          {
            name: 'page.txt',
            kind: 'text',
            mediaType: 'text/plain',
            bytes: new TextEncoder().encode(`Authorization: Bearer ${key}`),
          },
        ],
        6,
      ),
    );
    const written = await snapshotFileBytes(await exportSnapshot(db, sessionId), {
      gzip: false,
      secrets: [{ value: key, what: 'the API key of the endpoint local' }],
    });
    expect(written.ok ? [] : written.error.map(describeProblem)).toEqual([
      'at artifacts.3.text: holds a secret of this device (the API key of the endpoint local); a snapshot never carries one, so nothing was written',
    ]);
  });
});

describe('a stored artifact without its bytes', () => {
  it('is found by the session check, and not exported as if empty', async () => {
    const { db, sessionId } = await sessionWithArtifacts();
    await db.artifactBytes.delete(1);
    expect(await checkSession(db, sessionId)).toEqual([
      { message: 'the session cannot be read whole: the bytes of artifact 1 (zoo.png) are missing' },
    ]);
    await expect(exportSnapshot(db, sessionId)).rejects.toThrow('the bytes of artifact 1 (zoo.png) are missing');
  });
});
