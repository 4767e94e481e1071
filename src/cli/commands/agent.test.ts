import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { startOpenAiServer } from '#core/testing/openai-server.ts';
import { anima } from '../testing/run-anima.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'anima-agent-'));
});

async function file(name: string, content: string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, content);
  return path;
}

/** A small graph in English: goals are read with its names. */
const zoo = () => file('zoo.csv', 'Dog,is-a,Mammal\nCat,is-a,Mammal\nSparrow,is-a,Bird\nLizard,is-a,Reptile\n');

describe('anima run with several goals, --fresh, and status', () => {
  it('adds every --goal and every line of --goals, then works on them all', async () => {
    const snapshot = join(folder, 'session.json');
    const goals = await file('goals.txt', '# what to look into\nFind mammals\n\n  Find birds  \r\n');
    const run = await anima(
      'run',
      '--kg',
      await zoo(),
      '--goal',
      'Find reptiles',
      '--goals',
      goals,
      '--max-cycles',
      '1',
      '--snapshot',
      snapshot,
      '--json',
    );
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.out.trim().split('\n').at(-1)!);
    expect(summary.goals.map((goal: { description: string }) => goal.description)).toEqual([
      'Find reptiles',
      'Find mammals',
      'Find birds',
    ]);
  });

  it('refuses an empty goals file, a missing one, and --criteria with several goals, adding nothing', async () => {
    const snapshot = join(folder, 'session.json');
    await anima('run', '--kg', await zoo(), '--goal', 'Find mammals', '--max-cycles', '1', '--snapshot', snapshot);
    expect(
      await anima('run', '--goals', await file('empty.txt', '# nothing\n\n'), '--snapshot', snapshot),
    ).toMatchObject({ code: 1, error: expect.stringContaining('empty.txt: no goal in it') });
    expect(await anima('run', '--goals', join(folder, 'absent.txt'), '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: expect.stringContaining('cannot read'),
    });
    expect(await anima('run', '--goal', 'A', '--goal', 'B', '--criteria', 'x', '--snapshot', snapshot)).toMatchObject({
      code: 2,
      error: expect.stringContaining('--criteria belongs to one goal'),
    });
    // The second goal is refused (criteria with no words): the first is not kept either.
    expect(await anima('run', '--goal', 'Find cats', '--goal', '   ', '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: expect.stringContaining('goal 2'),
    });
    expect(JSON.parse((await anima('goals', '--snapshot', snapshot, '--json')).out).goals).toHaveLength(1);
  });

  it("--fresh starts a new session in place of the snapshot's; the old goals and graph are gone", async () => {
    const snapshot = join(folder, 'session.json');
    await anima('run', '--kg', await zoo(), '--goal', 'Find mammals', '--max-cycles', '2', '--snapshot', snapshot);
    const graph = await file('dogs.csv', 'Dog,is-a,Mammal\n');
    expect(
      (await anima('run', '--fresh', '--kg', graph, '--goal', 'Find dogs', '--max-cycles', '1', '--snapshot', snapshot))
        .code,
    ).toBe(0);
    const goals = JSON.parse((await anima('goals', '--snapshot', snapshot, '--json')).out).goals;
    expect(goals.map((goal: { description: string }) => goal.description)).toEqual(['Find dogs']);
    expect(JSON.parse((await anima('status', '--snapshot', snapshot, '--json')).out).cycle).toBe(1);
    expect(await anima('resume', '--fresh', '--snapshot', snapshot)).toMatchObject({
      code: 2,
      error: expect.stringContaining('--fresh belongs to run'),
    });
  });

  it('status says the cycle, working memory against its capacity, episodes, goals by status and the psyche', async () => {
    const snapshot = join(folder, 'session.json');
    await anima(
      'run',
      '--kg',
      await zoo(),
      '--goal',
      'Find mammals',
      '--goal',
      'Find unicorns',
      '--max-cycles',
      '4',
      '--snapshot',
      snapshot,
    );
    const status = JSON.parse((await anima('status', '--snapshot', snapshot, '--json')).out);
    expect(Object.keys(status)).toEqual(['cycle', 'workingMemory', 'episodes', 'goals', 'psyche']);
    // Both goals end before --max-cycles: mammals are found, and "unicorns" fails at once (no name for it).
    expect(status.cycle).toBe(2);
    // Both goals ended, so what working memory held for each became its episode.
    expect(status.workingMemory).toEqual({ size: 0, capacity: 100 });
    expect(status.episodes).toBe(2);
    const counted = {
      active: expect.any(Number),
      completed: expect.any(Number),
      failed: expect.any(Number),
      waiting: expect.any(Number),
      suspended: expect.any(Number),
    };
    expect(status.goals).toMatchObject(counted);
    // Every goal counted once, under its status (sub-goals included).
    const goals: { status: string }[] = JSON.parse((await anima('goals', '--snapshot', snapshot, '--json')).out).goals;
    for (const [name, count] of Object.entries(status.goals as Record<string, number>))
      expect(goals.filter((goal) => goal.status === name)).toHaveLength(count);
    expect(goals.length).toBeGreaterThanOrEqual(2);
    expect(status.psyche).toEqual({
      archetypes: {
        sage: expect.any(Number),
        healer: expect.any(Number),
        explorer: expect.any(Number),
        guardian: expect.any(Number),
      },
      individuation: expect.any(Number),
    });
    const text = (await anima('status', '--snapshot', snapshot)).out;
    expect(text).toMatch(
      /^cycle 2\nworking memory 0 of 100 entries\nepisodes 2\ngoals .+\npsyche sage 0\.\d\d, healer/,
    );
  });
});

describe('anima run shows a refused action with its evidence', () => {
  it('prints the class, retryability, required and observed state, in text and in --json', async () => {
    const psyche = await file(
      'psyche.toml',
      '[shadow]\nbias_patterns = []\n\n[[shadow.veto_patterns]]\nname = "no_queries"\ntriggers = ["tool=kg_query"]\nseverity = 1\nexplanation = "No lookups."\nrequire_approval = false\n',
    );
    const args = ['--kg', await zoo(), '--psyche', psyche, '--goal', 'Learn about Dog', '--criteria', 'whiskers'];
    const text = await anima('run', ...args, '--max-cycles', '3', '--snapshot', join(folder, 'a.json'));
    expect(text.code).toBe(0);
    expect(text.out).toMatch(
      /\trefused \(policy block, not retryable\): required an action the shadow allows; observed no_queries matches tool=kg_query input=\{"symbol":\d+\}: "tool=kg_query" in the action\n/,
    );
    const json = await anima('run', ...args, '--max-cycles', '3', '--snapshot', join(folder, 'b.json'), '--json');
    const vetoed = json.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((line) => line.tool === 'kg_query');
    expect(vetoed.rejection).toMatchObject({
      class: 'policy_block',
      required: 'an action the shadow allows',
      retryable: false,
    });
  });
});

describe('anima run with a model shows the child runs a cycle delegated to', () => {
  it('prints a red team under the cycle that held an action, and anima approvals shows its finding', async () => {
    const psyche = await file(
      'psyche.toml',
      '[shadow]\nbias_patterns = []\n\n[[shadow.veto_patterns]]\nname = "ask_before_querying"\ntriggers = ["kg_query"]\nseverity = 0.5\nexplanation = "Queries wait."\nrequire_approval = true\n',
    );
    const finding = { breachPaths: [{ path: 'it could read what the user keeps private', severity: 'medium' }] };
    const server = await startOpenAiServer([{ text: JSON.stringify({ kind: 'result', result: finding }) }]);
    try {
      const snapshot = join(folder, 'session.json');
      const model = ['--provider', 'openai', '--base-url', server.baseUrl, '--model', 'tiny'];
      const args = ['--kg', await zoo(), '--psyche', psyche, '--goal', 'Learn about Dog', '--criteria', 'whiskers'];
      const run = await anima('run', ...args, ...model, '--max-cycles', '3', '--snapshot', snapshot);
      expect(run.code).toBe(0);
      expect(run.out).toMatch(
        /\tcycle (\d+)\.1 red-team: look for breach paths in kg_query before it waits for approval -> medium: it could read what the user keeps private \(1 request, \d+ tokens in, \d+ out, 0 tool calls, \d+ ms\)\n/,
      );
      const listed = await anima('approvals', '--snapshot', snapshot);
      expect(listed.out).toContain('\tred team: medium: it could read what the user keeps private\n');
      // The red team ran in its posture: its own system prompt and sampling.
      expect(server.requests[0]!.body).toMatchObject({ temperature: 0.7, top_p: 0.9, max_tokens: 512 });
    } finally {
      await server.close();
    }
  });
});
