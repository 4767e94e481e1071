import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { startOpenAiServer } from '#core/testing/openai-server.ts';
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

describe('anima ask --provider', () => {
  /** The query the words make of "Find all mammals", to script a model that reads another question into it. */
  const mammalsQuery = async () => {
    const read = await anima('read', 'Find all mammals', '--snapshot', snapshot, '--json');
    return (JSON.parse(read.out) as { query: unknown }).query;
  };
  const withModel = async (replies: string[], question: string) => {
    const server = await startOpenAiServer(replies.map((text) => ({ text })));
    try {
      const model = ['--provider', 'openai', '--base-url', server.baseUrl, '--model', 'tiny'];
      const asked = await anima('ask', question, ...model, '--snapshot', snapshot);
      return { asked, requests: server.requests };
    } finally {
      await server.close();
    }
  };

  it('answers from the query the model reads the question into, run by the graph', async () => {
    // "nurse their young" names nothing in this graph: the words alone cannot read it, the model can.
    const { asked, requests } = await withModel(
      [JSON.stringify(await mammalsQuery())],
      'Which animals nurse their young?',
    );
    expect(asked.code).toBe(0);
    expect(asked.error).toContain(
      'I read this as: every ?x with ?x is-a Mammal (following is-a chains) (read by the model)',
    );
    expect(asked.out.split('\n').sort()).toEqual(['', 'Bat', 'Dog']);
    expect(JSON.stringify(requests[0]!.body)).toContain('Which animals nurse their young?');
  });

  it('falls back to the words, saying so, when the model names what the graph lacks; its prose is never the answer', async () => {
    const wrong = JSON.stringify({
      form: 'list',
      find: 'x',
      patterns: [{ subject: { variable: 'x' }, predicate: 99_999, object: { symbol: 99_998 } }],
    });
    const { asked, requests } = await withModel([wrong, 'Bats and dogs, I think.', wrong], 'Find all mammals');
    expect(requests).toHaveLength(3);
    expect(asked.code).toBe(0);
    expect(asked.error).toContain("anima: the model's reading was refused");
    expect(asked.error).toContain('read from the words instead');
    expect(asked.out.split('\n').sort()).toEqual(['', 'Bat', 'Dog']);
    expect(asked.out).not.toContain('I think');
  });
});
