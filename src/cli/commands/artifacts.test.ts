import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { anima } from '../testing/run-anima.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'anima-artifacts-'));
});

describe('anima artifacts list and save', () => {
  it('lists what a run kept for the user and saves an artifact byte for byte', async () => {
    const snapshot = join(folder, 'session.json');
    const graph = join(folder, 'zoo.csv');
    await writeFile(graph, 'Dog,is-a,Mammal\nCat,is-a,Mammal\n');
    await anima('kg', 'import', graph, '--snapshot', snapshot);
    expect(await anima('artifacts', 'list', '--snapshot', snapshot)).toMatchObject({
      code: 0,
      error: 'anima: no artifacts\n',
    });
    const run = await anima(
      'run',
      '--goal',
      'Find mammals and keep notes',
      '--criteria',
      '?x is-a mammal, at least 2',
      '--max-cycles',
      '10',
      '--snapshot',
      snapshot,
    );
    expect(run.out).toMatch(/\tfile_io\t/);
    const listed = await anima('artifacts', 'list', '1', '--snapshot', snapshot);
    expect(listed.out).toMatch(
      /^#(\d+)\tgoal-1-notes\.md\ttext\ttext\/markdown\t\d+ bytes\tgoal 1, cycle \d+, file_io\n$/,
    );
    const id = /^#(\d+)/.exec(listed.out)![1]!;
    const [artifact] = JSON.parse((await anima('artifacts', 'list', '--json', '--snapshot', snapshot)).out);
    expect(artifact).toMatchObject({ id: Number(id), name: 'goal-1-notes.md', kind: 'text' });

    const file = join(folder, 'notes.md');
    expect(await anima('artifacts', 'save', id, file, '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: `${file}: wrote goal-1-notes.md (${artifact.size} bytes, text/markdown)\n`,
    });
    const saved = await readFile(file, 'utf8');
    expect(saved).toContain('# Notes: Find mammals and keep notes');
    expect(saved).toBe((await anima('notes', '1', '--snapshot', snapshot)).out);

    expect(await anima('artifacts', 'save', '99', file, '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: 'anima: artifacts save: this session has no artifact 99\n',
    });
    expect(await anima('artifacts', 'save', id, '--snapshot', snapshot)).toMatchObject({ code: 2 });
    expect(await readFile(file, 'utf8')).toBe(saved);
  });
});
