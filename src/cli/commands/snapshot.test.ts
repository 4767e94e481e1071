import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { SNAPSHOT_VERSION } from '#core/sessions/snapshot-format.ts';
import { anima } from '../testing/run-anima.ts';
import { readSnapshotAt, writeSnapshotFile } from '../snapshot-file.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'anima-snapshot-'));
});

/** A snapshot of a session that ran a goal to its end, written by the CLI. */
async function ranSession(name = 'session.anima.json') {
  const facts = join(folder, 'zoo.csv');
  await writeFile(facts, 'Dog,is-a,Canine\nCanine,is-a,Mammal\nCat,is-a,Mammal\n');
  const snapshot = join(folder, name);
  expect(
    (
      await anima(
        'run',
        '--goal',
        'Find mammals',
        '--criteria',
        '?x is-a mammal, at least 2',
        '--kg',
        facts,
        '--snapshot',
        snapshot,
      )
    ).code,
  ).toBe(0);
  return snapshot;
}

describe('anima snapshot', () => {
  it('verify: a whole snapshot, gzipped or not, says what it holds; a damaged one says what is wrong', async () => {
    const snapshot = await ranSession();
    const verified = await anima('snapshot', 'verify', snapshot);
    expect(verified).toMatchObject({
      code: 0,
      out: expect.stringMatching(
        new RegExp(
          `a whole Anima snapshot \\(format version ${SNAPSHOT_VERSION}\\): session "My session", \\d+ cycles, 1 goals, \\d+ triples`,
        ),
      ),
    });
    expect(JSON.parse((await anima('snapshot', 'verify', snapshot, '--json')).out)).toMatchObject({
      ok: true,
      fileVersion: SNAPSHOT_VERSION,
      goals: 1,
      problems: [],
    });

    const zipped = await ranSession('session.anima.json.gz');
    expect(gunzipSync(await readFile(zipped)).toString()).toContain('"format":"anima-snapshot"');
    expect((await anima('snapshot', 'verify', zipped)).code).toBe(0);

    const text = await readFile(snapshot, 'utf8');
    await writeFile(snapshot, text.replace('Find mammals', 'Find reptiles'));
    const tampered = await anima('snapshot', 'verify', snapshot);
    expect(tampered).toMatchObject({
      code: 1,
      error: expect.stringContaining('the content does not match its SHA-256'),
    });

    // Whole as JSON but with counters that disagree with the log: the SHA-256 is remade to match, as a careless tool would.
    const document = JSON.parse(text);
    document.goals[0].cyclesWorked += 3;
    delete document.sha256;
    document.version = 8;
    // Before format 12 a session's notes were `notes`; this one wrote none.
    delete document.artifacts;
    document.notes = [];
    await writeFile(snapshot, JSON.stringify(document));
    const broken = await anima('snapshot', 'verify', snapshot);
    expect(broken).toMatchObject({ code: 1, error: expect.stringContaining('its session is not whole') });
    expect(broken.error).toContain('cycles worked, the log has');
  });

  it('migrate: an older format version is rewritten as the current one, which verifies', async () => {
    const snapshot = await ranSession();
    const document = JSON.parse(await readFile(snapshot, 'utf8'));
    // Before format 12 a session's notes were `notes`; this one wrote none.
    const { sha256: _sha256, artifacts: _artifacts, ...version8 } = { ...document, version: 8, notes: [] };
    await writeFile(snapshot, JSON.stringify(version8));
    expect(await anima('snapshot', 'verify', snapshot)).toMatchObject({
      code: 0,
      out: expect.stringContaining(`format version 8: \`anima snapshot migrate\` brings it to ${SNAPSHOT_VERSION}`),
    });

    const migrated = join(folder, 'migrated.anima.json');
    expect(await anima('snapshot', 'migrate', snapshot, '--output', migrated)).toMatchObject({
      code: 0,
      out: `${migrated}: format version 8 -> ${SNAPSHOT_VERSION}\n`,
    });
    expect(await readFile(migrated, 'utf8')).toBe(`${JSON.stringify(document)}\n`);
    expect(await anima('snapshot', 'migrate', snapshot, '--output', migrated)).toMatchObject({
      code: 1,
      error: expect.stringContaining('exists; give --force'),
    });
    expect(await anima('snapshot', 'migrate', migrated)).toMatchObject({
      code: 0,
      out: expect.stringContaining(`already format version ${SNAPSHOT_VERSION}; nothing to do`),
    });
    expect(await anima('snapshot', 'frobnicate', migrated)).toMatchObject({ code: 2 });
  });

  it('a snapshot the reader would refuse is not written: the previous file stays, byte for byte, with no temporary file beside it', async () => {
    for (const name of ['session.anima.json', 'session.anima.json.gz']) {
      const snapshot = await ranSession(name);
      const before = await readFile(snapshot);
      const { snapshot: grown } = await readSnapshotAt(snapshot);
      grown.session.name = 'A longer name than the session had, so that the file grows';
      const limits = { maxBytes: (name.endsWith('.gz') ? gunzipSync(before) : before).byteLength };
      const refusal = await writeSnapshotFile(grown, snapshot, [], limits).then(
        () => 'written',
        (error: Error) => error.message,
      );
      // The reader's own sentence, as it would refuse that snapshot (unzipped: gzip saves disk, not the memory a reader needs).
      await writeSnapshotFile(grown, join(folder, 'grown.anima.json'), []);
      const readerSays = await readSnapshotAt(join(folder, 'grown.anima.json'), limits).then(
        () => 'read',
        (error: Error) => error.message,
      );
      const sentence = readerSays.split('\n').at(-1)!.trim();
      expect(sentence).toMatch(/^the snapshot is [\d.]+ KB, more than the [\d.]+ KB Anima reads$/);
      expect(refusal).toBe(`${snapshot}: not written, the file was left as it was:\n  ${sentence}`);
      expect(await readFile(snapshot)).toEqual(before);
    }
    expect((await readdir(folder)).filter((entry) => entry.includes('.tmp-'))).toEqual([]);
  });
});
