import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { describeProblem } from '#core/result.ts';
import { refusalProblem } from '#core/testing/fuzz.ts';
import { testService } from '#core/testing/test-database.ts';
import { anima } from './testing/run-anima.ts';

/**
 * Issue #20's hostile files, through the CLI and the app's service: each ends in a sentence
 * naming the place, and nothing is written.
 */

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'anima-hostile-'));
});

/** A snapshot with two facts, made through the CLI, and its text. */
async function snapshotFile(): Promise<{ path: string; text: string }> {
  const path = join(folder, 'session.anima.json');
  const facts = join(folder, 'facts.csv');
  await writeFile(facts, 'Dog,is-a,Mammal\nCat,is-a,Mammal\n');
  expect((await anima('kg', 'import', facts, '--snapshot', path)).code).toBe(0);
  return { path, text: await readFile(path, 'utf8') };
}

/** A snapshot document with its SHA-256 made right again after a change (as a careful forger would). */
function rehashed(document: Record<string, unknown>): string {
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
  const { sha256: _sha256, ...content } = document;
  return JSON.stringify({
    ...document,
    sha256: createHash('sha256')
      .update(JSON.stringify(sorted(content)))
      .digest('hex'),
  });
}

/** Every line a refusal printed is short, and none is a stack frame. */
function expectSentences(error: string) {
  for (const line of error.trimEnd().split('\n')) {
    expect(line.length).toBeLessThan(500);
    expect(refusalProblem(line)).toBeUndefined();
  }
}

describe('hostile files end in a sentence, and nothing is written', () => {
  it('a persona catalog with a value 100,000 levels deep', async () => {
    const catalog = join(folder, 'deep.catalog.json');
    const deep = `{"format":"anima-catalog","version":1,"personas":[{"id":1,"name":"Deep","card":{"extras":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}]}`;
    await writeFile(catalog, deep);
    const { path: snapshot, text } = await snapshotFile();
    for (const argv of [
      ['persona', 'list', '--catalog', catalog],
      ['persona', 'import', join(folder, 'facts.csv'), '--catalog', catalog],
      ['kg', 'stats', '--snapshot', snapshot, '--catalog', catalog],
    ]) {
      const refused = await anima(...argv);
      expect(refused.code).toBe(1);
      // Five levels lead to "x"; its 60th bracket opens the 65th.
      expect(refused.error).toBe(
        `anima: ${catalog}: not a valid Anima persona catalog:\n  line 1, column ${deep.indexOf('[[') + 60}: the JSON nests deeper than 64 levels, more than any file Anima writes\n`,
      );
    }
    expect(await readFile(catalog, 'utf8')).toBe(deep);
    expect(await readFile(snapshot, 'utf8')).toBe(text);
  });

  it('a snapshot with the key "triples" twice, the second empty: refused by verify, the CLI and the app, naming $.triples', async () => {
    const { path, text } = await snapshotFile();
    const twice = `${text.trimEnd().slice(0, -1)},"triples":[]}\n`;
    await writeFile(path, twice);
    const verified = await anima('snapshot', 'verify', path);
    expect(verified.code).toBe(1);
    expect(verified.error).toMatch(
      /^anima: .*session\.anima\.json: not a valid Anima snapshot:\n {2}line 1, column \d+, at \$\.triples: the key "triples" appears twice in one object; which one is meant cannot be known\n$/,
    );
    expect(JSON.parse((await anima('snapshot', 'verify', path, '--json')).out)).toMatchObject({
      ok: false,
      problems: [expect.stringContaining('at $.triples: the key "triples" appears twice')],
    });
    expect(await anima('kg', 'import', join(folder, 'facts.csv'), '--snapshot', path)).toMatchObject({
      code: 1,
      error: expect.stringContaining('at $.triples: '),
    });
    expect(await readFile(path, 'utf8')).toBe(twice);

    const { service } = testService();
    await service.open({});
    const before = await service.sessionList({});
    const bytes = new TextEncoder().encode(twice);
    for (const refused of [await service.sessionImportCheck({ bytes }), await service.sessionImport({ bytes })]) {
      expect(refused).toMatchObject({ ok: false, reason: 'invalid' });
      expect(refused.ok ? '' : refused.problems.map(describeProblem).join('\n')).toMatch(
        /^line 1, column \d+, at \$\.triples: the key "triples" appears twice/,
      );
    }
    expect(await service.sessionList({})).toEqual(before);
  });

  it('a 10 MB line that does not parse is echoed in at most 200 characters', async () => {
    const garbage = `{"format":"anima-snapshot","version":12,"session":${'g'.repeat(10 * 2 ** 20)}}`;
    const snapshot = join(folder, 'garbage.anima.json');
    await writeFile(snapshot, garbage);
    const catalog = join(folder, 'garbage.catalog.json');
    await writeFile(catalog, garbage.replace('anima-snapshot', 'anima-catalog'));
    for (const argv of [
      ['snapshot', 'verify', snapshot],
      ['kg', 'stats', '--snapshot', snapshot],
      ['persona', 'list', '--catalog', catalog],
    ]) {
      const refused = await anima(...argv);
      expect(refused.code).toBe(1);
      expect(refused.error).toMatch(
        /line 1, column 5\d, at \$\.session: a value was expected, but "g{200}…" \(10,485,760 characters\) was found\n$/,
      );
      expect(refused.error.length).toBeLessThan(500);
    }
    expect(await readFile(snapshot, 'utf8')).toBe(garbage);
  });

  it('a snapshot whose session has a 10 MB name, its hash made right', async () => {
    const { path, text } = await snapshotFile();
    const document = JSON.parse(text);
    document.session.name = 'n'.repeat(10 * 2 ** 20);
    const forged = rehashed(document);
    await writeFile(path, forged);
    const verified = await anima('snapshot', 'verify', path);
    expect(verified).toMatchObject({ code: 1, out: '' });
    expect(verified.error).toMatch(/\n {2}at session\.name: a session name has at most 120 characters\n$/);
    expectSentences(verified.error);
    const { service } = testService();
    await service.open({});
    expect(await service.sessionImport({ bytes: new TextEncoder().encode(forged) })).toMatchObject({
      ok: false,
      problems: [{ path: 'session.name', message: 'a session name has at most 120 characters' }],
    });
    expect((await service.sessionList({})).sessions).toHaveLength(1);
    expect(await readFile(path, 'utf8')).toBe(forged);
  });

  it('JSON that is not UTF-8: refused with the byte offset, as a snapshot, a catalog and a persona file', async () => {
    const { path: snapshot, text } = await snapshotFile();
    const bytes = new TextEncoder().encode(text);
    const at = text.indexOf('Mammal');
    bytes[at] = 0xff;
    await writeFile(snapshot, bytes);
    const expected = `the file is not UTF-8 text: the byte 0xFF at offset ${at} (counting from 0) does not start a UTF-8 character; save the file as UTF-8`;
    expect(await anima('snapshot', 'verify', snapshot)).toMatchObject({
      code: 1,
      error: expect.stringContaining(`${expected}\n`),
    });

    const catalog = join(folder, 'latin1.catalog.json');
    const latin1 = Buffer.from('{"format":"anima-catalog","version":1,"personas":[{"name":"Caf\u00e9"}]}', 'latin1');
    await writeFile(catalog, latin1);
    expect(await anima('persona', 'list', '--catalog', catalog)).toMatchObject({
      code: 1,
      error: expect.stringContaining('the byte 0xE9 at offset 62 '),
    });
    expect(await readFile(catalog)).toEqual(latin1);

    const bundle = join(folder, 'latin1.persona.json');
    await writeFile(
      bundle,
      Buffer.from('{"format":"anima-persona","version":1,"persona":{"name":"Caf\u00e9"}}', 'latin1'),
    );
    const fresh = join(folder, 'new.catalog.json');
    const imported = await anima('persona', 'import', bundle, '--catalog', fresh);
    expect(imported).toMatchObject({ code: 1, error: expect.stringContaining('the byte 0xE9 at offset 60 ') });
    expectSentences(imported.error);
    expect(await anima('persona', 'list', '--catalog', fresh)).toMatchObject({
      code: 1,
      error: expect.stringContaining('no catalog at'),
    });
  });
});
