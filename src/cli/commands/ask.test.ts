import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { anima } from '../testing/run-anima.ts';

let snapshot: string;
beforeEach(async () => {
  const folder = await mkdtemp(join(tmpdir(), 'anima-ask-'));
  const facts = join(folder, 'bats.csv');
  await writeFile(facts, 'Bat,is-a,Mammal\nBat (club),is-a,SportsEquipment\nDog,is-a,Mammal\n');
  snapshot = join(folder, 'bats.json');
  expect(await anima('kg', 'import', facts, '--snapshot', snapshot)).toMatchObject({ code: 0 });
});

describe('anima read and ask with --choose', () => {
  it('lists the symbols an ambiguous word may mean, then reads it as the one chosen', async () => {
    const unsure = await anima('read', 'What is a bat?', '--snapshot', snapshot);
    expect(unsure.code).toBe(1);
    expect(unsure.out).toContain('"bat" may mean: Bat, Bat (club)');

    const read = await anima('read', 'What is a bat?', '--choose', 'bat=Bat (club)', '--snapshot', snapshot, '--json');
    expect(read.code).toBe(0);
    expect(JSON.parse(read.out)).toMatchObject({
      matched: [{ words: 'bat', symbols: [{ label: 'Bat (club)' }] }],
      chosen: [{ words: 'bat' }],
    });
    const asked = await anima('ask', 'What is a bat?', '--choose', 'bat=Bat (club)', '--snapshot', snapshot);
    expect(asked).toMatchObject({ code: 0, out: 'SportsEquipment\n' });
    const animal = await anima('ask', 'What is a bat?', '--choose', 'bat=Bat', '--snapshot', snapshot);
    expect(animal).toMatchObject({ code: 0, out: 'Mammal\n' });
  });

  it('refuses a symbol the graph lacks, or a choice without "=", in one sentence', async () => {
    const unknown = await anima('ask', 'What is a bat?', '--choose', 'bat=Cricket bat', '--snapshot', snapshot);
    expect(unknown).toMatchObject({ code: 1, out: '' });
    expect(unknown.error).toContain('chosenSymbols.0: there is no symbol "Cricket bat" in this graph');
    const shapeless = await anima('read', 'What is a bat?', '--choose', 'bat', '--snapshot', snapshot);
    expect(shapeless.code).toBe(2);
    expect(shapeless.error).toContain('--choose "bat": write the words, "=", and the symbol they mean');
  });

  it('runs a goal with the symbol chosen, and keeps the choice for its answer', async () => {
    const run = await anima(
      'run',
      '--goal',
      'What is a bat?',
      '--choose',
      'bat=Bat (club)',
      '--max-cycles',
      '2',
      '--snapshot',
      snapshot,
      '--json',
    );
    expect(run.code).toBe(0);
    const goals = (JSON.parse(run.out.trim().split('\n').at(-1)!) as { goals: { status: string; answer?: unknown }[] })
      .goals;
    expect(goals[0]).toMatchObject({
      status: 'completed',
      answer: { kind: 'entities', entities: [{ label: 'SportsEquipment' }] },
    });
  });
});
