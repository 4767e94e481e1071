import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { anima } from '../testing/run-anima.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'anima-doc-'));
});

describe('anima doc import and list', () => {
  it('imports a document the next run reads into facts (text_ingest), and refuses a bad one whole', async () => {
    const snapshot = join(folder, 'session.json');
    const graph = join(folder, 'mars.csv');
    await writeFile(graph, 'Mars,is-a,Planet\n');
    await anima('kg', 'import', graph, '--snapshot', snapshot);
    const notes = join(folder, 'mars.txt');
    await writeFile(notes, 'Mars is a planet. Mars has volcanoes. Olympus Mons is a volcano.\n');
    expect(await anima('doc', 'import', notes, '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: `${notes}: imported as document #1 (65 characters); the agent reads it when a goal needs it\n`,
    });
    expect((await anima('doc', 'list', '--snapshot', snapshot)).out).toBe(
      '#1\tmars.txt\t65 characters\tnot read yet\n',
    );

    const before = await readFile(snapshot, 'utf8');
    const binary = join(folder, 'a.bin');
    await writeFile(binary, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff]));
    expect(await anima('doc', 'import', binary, '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: expect.stringContaining('a.bin: nothing imported'),
    });
    expect(await anima('doc', 'import', join(folder, 'absent.txt'), '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: expect.stringContaining('cannot read'),
    });
    expect(await anima('doc', 'import', '--snapshot', snapshot)).toMatchObject({ code: 2 });
    expect(await readFile(snapshot, 'utf8')).toBe(before);

    const run = await anima(
      'run',
      '--goal',
      'Learn about Mars',
      '--criteria',
      'volcano',
      '--max-cycles',
      '5',
      '--snapshot',
      snapshot,
    );
    expect(run.out).toMatch(/\ttext_ingest\t/);
    expect((await anima('doc', 'list', '--snapshot', snapshot)).out).toMatch(
      /^#1\tmars\.txt\t65 characters\t[1-9]\d* facts read from it\n$/,
    );
  });
});
