import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOpenAiServer } from '#core/testing/openai-server.ts';
import { promisify } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';
import { anima } from './testing/run-anima.ts';
import { readSnapshotAt, writeSnapshotFile } from './snapshot-file.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'anima-cli-'));
});

async function file(name: string, content: string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, content);
  return path;
}

const TURTLE = '@prefix : <urn:anima:kg#> .\n:Dog :is-a :Canine . :Canine :is-a :Mammal . :Cat :is-a :Mammal .\n';

describe('anima CLI', () => {
  it('imports into a new snapshot, then answers stats, queries and exports from it', async () => {
    const snapshot = join(folder, 'session.json');
    const imported = await anima('kg', 'import', await file('zoo.ttl', TURTLE), '--snapshot', snapshot);
    expect(imported).toMatchObject({ code: 0, out: expect.stringContaining('3 new triples') });

    expect(JSON.parse((await anima('kg', 'stats', '--snapshot', snapshot, '--json')).out)).toMatchObject({
      triples: 3,
      relations: 1,
    });
    const query = await anima('kg', 'query', '?x is-a mammal', '--snapshot', snapshot, '--json');
    expect(JSON.parse(query.out).rows).toEqual([{ x: 'Canine' }, { x: 'Cat' }]);
    const table = await anima('kg', 'query', '?x is-a ?y . ?y is-a Mammal', '--snapshot', snapshot);
    expect(table.out).toBe('?x\t?y\nDog\tCanine\n');

    const exported = await anima('kg', 'export', '--snapshot', snapshot);
    expect(exported.out.trim().split('\n')).toHaveLength(3);
    expect(exported.out).toContain('<urn:anima:kg#Dog> <urn:anima:kg#is-a> <urn:anima:kg#Canine> .');
  });

  it('adds to an existing snapshot across runs', async () => {
    const snapshot = join(folder, 'session.json');
    await anima('kg', 'import', await file('zoo.ttl', TURTLE), '--snapshot', snapshot);
    const more = await anima(
      'kg',
      'import',
      await file('more.csv', 'Wolf,is-a,Canine\nDog,is-a,Canine,0.5\n'),
      '--snapshot',
      snapshot,
    );
    expect(more.out).toContain('1 new triples');
    expect(JSON.parse((await anima('kg', 'stats', '--snapshot', snapshot, '--json')).out).triples).toBe(4);
  });

  it('reports a bad line on stderr with a non-zero exit and leaves the snapshot untouched', async () => {
    const snapshot = join(folder, 'session.json');
    await anima('kg', 'import', await file('zoo.ttl', TURTLE), '--snapshot', snapshot);
    const before = await readFile(snapshot, 'utf8');
    const broken = await anima(
      'kg',
      'import',
      await file('broken.csv', 'Wolf,is-a,Canine\nFox,is-a\n'),
      '--snapshot',
      snapshot,
    );
    expect(broken).toMatchObject({
      code: 1,
      out: '',
      error: expect.stringContaining('line 2: expected 3 or 4 fields'),
    });
    expect(await readFile(snapshot, 'utf8')).toBe(before);
  });

  it('explains wrong usage, missing snapshots and unreadable snapshots', async () => {
    expect(await anima('kg', 'stats')).toMatchObject({
      code: 2,
      error: expect.stringContaining('--snapshot S is required'),
    });
    expect(await anima('kg', 'stats', '--snapshot', join(folder, 'none.json'))).toMatchObject({
      code: 1,
      error: expect.stringContaining('no snapshot at'),
    });
    const garbage = await file('garbage.json', '{"format":"anima-snapshot","version":1}');
    expect(await anima('kg', 'stats', '--snapshot', garbage)).toMatchObject({
      code: 1,
      error: expect.stringContaining('not a valid Anima snapshot'),
    });
    expect(await anima('kg', 'query', '?x is-a', '--snapshot', garbage)).toMatchObject({ code: 1 });
    expect(await anima('bogus')).toMatchObject({ code: 2 });
    expect(await anima()).toMatchObject({ code: 2, out: '', error: expect.stringContaining('Usage: anima') });
    expect(await anima('--help')).toMatchObject({ code: 0, out: expect.stringContaining('Usage: anima') });
    expect(await anima('kg', 'bogus', '--snapshot', join(folder, 'none.json'))).toMatchObject({
      code: 2,
      error: expect.stringContaining('unknown command "kg bogus"'),
    });
  });

  it('infers facts into the snapshot and explains paths', async () => {
    const snapshot = join(folder, 'session.json');
    await anima('kg', 'import', await file('zoo.ttl', TURTLE), '--snapshot', snapshot);
    const inferred = await anima('kg', 'infer', '--snapshot', snapshot, '--json');
    expect(JSON.parse(inferred.out)).toMatchObject({
      derived: 1,
      hasConverged: true,
      facts: [{ subject: 'Dog', predicate: 'is-a', object: 'Mammal', confidence: 0.95, rule: 'is-a-transitive' }],
    });
    expect((await anima('kg', 'query', '?x is-a Mammal', '--snapshot', snapshot)).out.split('\n').sort()).toEqual([
      '',
      '?x',
      'Canine',
      'Cat',
      'Dog',
    ]);
    expect(JSON.parse((await anima('kg', 'infer', '--snapshot', snapshot, '--json')).out).derived).toBe(0);
    expect((await anima('kg', 'path', 'Cat', 'dog', '--snapshot', snapshot)).out).toBe(
      'Cat is-a Mammal\nDog is-a Mammal\n',
    );
    expect(await anima('kg', 'path', 'Dog', 'Unicorn', '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: expect.stringContaining('unknown symbol "Unicorn"'),
    });
    expect(await anima('kg', 'infer', '--snapshot', snapshot, '--min-confidence', '2')).toMatchObject({
      code: 2,
      error: expect.stringContaining('--min-confidence must be a number from 0 to 1'),
    });
  });

  it('reads numeric options as plain decimals only: 0x10 is not 16, nor 1e-1 a tenth', async () => {
    const snapshot = join(folder, 'session.json');
    await anima('kg', 'import', await file('zoo.ttl', TURTLE), '--snapshot', snapshot);
    expect(await anima('kg', 'stats', '--snapshot', snapshot)).toMatchObject({ code: 0 });
    expect(await anima('kg', 'similar', 'Dog', '--limit', '0x10', '--snapshot', snapshot)).toMatchObject({
      code: 2,
      error: expect.stringContaining('--limit must be a whole number from 1 to 100, not "0x10"'),
    });
    expect(await anima('kg', 'infer', '--min-confidence', '1e-1', '--snapshot', snapshot)).toMatchObject({
      code: 2,
      error: expect.stringContaining('--min-confidence must be a number from 0 to 1, not "1e-1"'),
    });
    expect(await anima('kg', 'infer', '--min-confidence', '0.5', '--snapshot', snapshot, '--json')).toMatchObject({
      code: 0,
    });
  });

  it('refuses a CSV confidence written 0x1 with its line and column, and imports nothing', async () => {
    const snapshot = join(folder, 'session.json');
    await anima('kg', 'import', await file('zoo.ttl', TURTLE), '--snapshot', snapshot);
    const before = await readFile(snapshot, 'utf8');
    const refused = await anima(
      'kg',
      'import',
      await file('hex.csv', 'Wolf,is-a,Canine\nFox,is-a,Canine,0x1\n'),
      '--snapshot',
      snapshot,
    );
    expect(refused).toMatchObject({
      code: 1,
      error: expect.stringContaining(
        'line 2: the confidence (column 4) "0x1" is not a plain decimal from 0 to 1, such as 0.75',
      ),
    });
    expect(await readFile(snapshot, 'utf8')).toBe(before);
  });

  it('lists the symbols most similar to one', async () => {
    const snapshot = join(folder, 'session.json');
    await anima(
      'kg',
      'import',
      await file('zoo.ttl', TURTLE + ':Wolf :is-a :Canine . :Cat :is-a :Feline .\n'),
      '--snapshot',
      snapshot,
    );
    const similar = JSON.parse(
      (await anima('kg', 'similar', 'Dog', '--snapshot', snapshot, '--json', '--limit', '2')).out,
    );
    expect(similar[0]).toMatchObject({ symbol: 'Wolf' });
    expect(similar[0].similarity).toBeGreaterThan(similar[1].similarity);
  });

  // Three Node processes start one after another: up to 22 s on a loaded 2-core machine.
  it('runs as the installed `anima` command', { timeout: 60_000 }, async () => {
    const snapshot = join(folder, 'session.json');
    const run = promisify(execFile);
    const zoo = await file('zoo.ttl', TURTLE);
    await run(process.execPath, ['bin/anima.js', 'kg', 'import', zoo, '--snapshot', snapshot]);
    const { stdout } = await run(process.execPath, [
      'bin/anima.js',
      'kg',
      'query',
      '?x is-a Mammal',
      '--snapshot',
      snapshot,
    ]);
    expect(stdout).toBe('?x\nCanine\nCat\n');
    const failed = await run(process.execPath, [
      'bin/anima.js',
      'kg',
      'stats',
      '--snapshot',
      join(folder, 'missing.json'),
    ]).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('no snapshot at') });
  });
});

describe('anima agent commands', () => {
  const ZOO =
    '@prefix : <urn:anima:kg#> .\n:Rex :is-a :Dog . :Dog :is-a :Canine . :Canine :is-a :Mammal . :Tom :is-a :Cat . :Cat :is-a :Mammal .\n';

  it('runs a goal to completion and prints each cycle, then the goals with their findings as labels', async () => {
    const snapshot = join(folder, 'agent.json');
    const run = await anima(
      'run',
      '--kg',
      await file('zoo.ttl', ZOO),
      '--goal',
      'Find mammals',
      '--criteria',
      '?x is-a mammal, at least 4',
      '--snapshot',
      snapshot,
      '--json',
    );
    expect(run.code).toBe(0);
    const lines = run.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({
      cycle: 1,
      tool: 'infer_rules',
      outcome: 'completed',
      phases: { decide: expect.stringContaining('[score=') },
    });
    const summary = lines.at(-1);
    expect(summary.goals).toHaveLength(1);
    expect(summary.goals[0]).toMatchObject({ description: 'Find mammals', status: 'completed', cycles: 1 });
    expect(
      summary.goals[0].findings
        .slice(0, 5)
        .map((fact: { subject: string }) => fact.subject)
        .sort(),
    ).toEqual(['Canine', 'Cat', 'Dog', 'Rex', 'Tom']);
  });

  it('says with --verbose why each cycle chose its tool, every score in words and exactly', async () => {
    const run = await anima(
      'run',
      '--kg',
      await file('zoo.ttl', ZOO),
      '--goal',
      'Find mammals',
      '--criteria',
      '?x is-a mammal, at least 4',
      '--snapshot',
      join(folder, 'verbose.json'),
      '--verbose',
    );
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^cycle 1\tinfer_rules\tcompleted\t/);
    expect(run.out).toContain(
      '\twhy: Derive new facts with the rules (infer_rules), chosen because it has not been tried on this goal yet, the plan asks for it next',
    );
    expect(run.out).toMatch(/\tQuery the knowledge graph \(kg_query\): [\d.]+: fits this goal 0\.80; raised because /);
    expect(run.out).toMatch(/\t\t\[score=[\d.]+: base=0\.80 recency=/);
    expect(run.out).toContain('\tFetch a web page (http_fetch): skipped, no web address is allowed');
    // Without it, the plain log is one line a cycle.
    const plain = await anima(
      'run',
      '--kg',
      await file('zoo.ttl', ZOO),
      '--goal',
      'Find mammals',
      '--snapshot',
      join(folder, 'plain.json'),
      '--max-cycles',
      '1',
    );
    expect(plain.out).toMatch(/^cycle 1\t[^\n]*\n#1\t/);
  });

  it('resumes from the snapshot, runs single cycles, and lists goals', async () => {
    const snapshot = join(folder, 'agent.json');
    await anima(
      'run',
      '--kg',
      await file('zoo.ttl', ZOO),
      '--goal',
      'Learn about Rex',
      '--criteria',
      'volcano crater',
      '--max-cycles',
      '2',
      '--snapshot',
      snapshot,
    );
    const one = await anima('cycle', '--snapshot', snapshot, '--json');
    expect(JSON.parse(one.out.split('\n')[0]!)).toMatchObject({ cycle: 3 });
    const resumed = await anima('resume', '--snapshot', snapshot, '--max-cycles', '2');
    expect(resumed.out).toMatch(/^cycle 4\t/);
    expect(resumed.out).toMatch(/\ncycle 5\t/);
    // The goal's counters and its plans came through every snapshot: the cycles went on where they stopped.
    expect((await anima('goals', '--snapshot', snapshot)).out).toMatch(/^#1\tactive\t5 cycles\t/m);
  });

  it('consolidates working memory into episodes and recalls them', async () => {
    const snapshot = join(folder, 'agent.json');
    await anima(
      'run',
      '--kg',
      await file('zoo.ttl', ZOO),
      '--goal',
      'Learn about Rex',
      '--criteria',
      'volcano crater',
      '--max-cycles',
      '3',
      '--snapshot',
      snapshot,
    );
    expect((await anima('consolidate', '--snapshot', snapshot)).out).toMatch(/^1 episodes added; \d+ entries left/);
    const recalled = JSON.parse((await anima('recall', '--query', 'Rex', '--snapshot', snapshot, '--json')).out);
    expect(recalled[0].learnings).toContain('Rex');
    expect(await anima('recall', '--snapshot', snapshot)).toMatchObject({ code: 2 });
  });

  it('explains what is missing', async () => {
    expect(await anima('run', '--snapshot', join(folder, 'agent.json'))).toMatchObject({
      code: 2,
      error: expect.stringContaining('--goal "TEXT" is required'),
    });
    expect(await anima('resume', '--snapshot', join(folder, 'none.json'))).toMatchObject({
      code: 1,
      error: expect.stringContaining('no snapshot at'),
    });
    expect(
      await anima('run', '--goal', 'x', '--criteria', 'a b', '--snapshot', join(folder, 'agent.json')),
    ).toMatchObject({ code: 1, error: expect.stringContaining('criteria') });
  });
});

describe('anima psyche commands', () => {
  const PSYCHE =
    '[persona]\nname = "Clerk"\ngrammar_preference = "terse"\ntraits = []\ntone = []\n\n[archetypes]\nsage = 0.9\nhealer = 0.5\nexplorer = 0.2\nguardian = 0.4\n';

  it('checks a file without a session: exit 0 with a summary, or 1 with each problem located', async () => {
    const good = await anima('psyche', 'check', await file('good.toml', PSYCHE));
    expect(good).toMatchObject({ code: 0, out: expect.stringContaining('a valid psyche: persona Clerk (terse)') });
    const bad = await anima('psyche', 'check', await file('bad.toml', PSYCHE.replace('sage = 0.9', 'sage = "wise"')));
    expect(bad.code).toBe(1);
    expect(bad.error).toMatch(/bad\.toml: error: line 8, at archetypes\.sage: /);
    expect((await anima('psyche', 'check', join(folder, 'absent.toml'))).error).toMatch(/cannot read .*absent\.toml/);
  });

  it('refuses a veto whose only trigger is zero-width: psyche check exits 1 with the sentence and the line', async () => {
    const veto =
      '\n[[shadow.veto_patterns]]\nname = "stop"\ntriggers = ["\\u200b\\u200b"]\nseverity = 1.0\nexplanation = "No."\n';
    const checked = await anima('psyche', 'check', await file('invisible.toml', PSYCHE + veto));
    expect(checked.code).toBe(1);
    expect(checked.error).toContain(
      'invisible.toml: error: line 15, at shadow.veto_patterns.0.triggers.0: the trigger "\\u200b\\u200b" of the veto pattern "stop" has no visible character',
    );
    const silent = await anima(
      'psyche',
      'check',
      await file('silent.toml', PSYCHE + veto.replace(/triggers = .*\n/, '')),
    );
    expect(silent).toMatchObject({
      code: 1,
      error: expect.stringContaining(
        'silent.toml: error: line 13, at shadow.veto_patterns.0: the veto pattern "stop" can never fire',
      ),
    });
  });

  it('refuses a psyche.toml that is not UTF-8 with the byte offset, and imports nothing', async () => {
    const snapshot = join(folder, 'session.json');
    await anima('psyche', 'import', await file('clerk.toml', PSYCHE), '--snapshot', snapshot);
    const before = await readFile(snapshot, 'utf8');
    // Latin-1, as an old editor saves "Clérk".
    const latin1 = join(folder, 'latin1.toml');
    await writeFile(latin1, Buffer.from(PSYCHE.replace('Clerk', 'Cl\u00e9rk'), 'latin1'));
    const sentence =
      'latin1.toml: error: line 2: the file is not UTF-8 text: the byte 0xE9 at offset 20 (counting from 0) does not start a UTF-8 character; save the file as UTF-8';
    expect(await anima('psyche', 'check', latin1)).toMatchObject({ code: 1, error: expect.stringContaining(sentence) });
    expect(await anima('psyche', 'import', latin1, '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: expect.stringContaining(sentence),
    });
    expect(await readFile(snapshot, 'utf8')).toBe(before);
    expect((await anima('psyche', 'export', '--snapshot', snapshot)).out).toContain('name = "Clerk"');
  });

  it('refuses a psyche.toml over the size limit before reading it', async () => {
    const large = await file('large.toml', `${PSYCHE}# ${'x'.repeat(300 * 1024)}\n`);
    expect(await anima('psyche', 'check', large)).toMatchObject({
      code: 1,
      error: expect.stringContaining('large.toml: error: the file is 301 KB; a psyche.toml may be at most 256 KB'),
    });
  });

  it('imports into a snapshot, exports what re-imports unchanged, and refuses a broken file leaving the snapshot as it was', async () => {
    const snapshot = join(folder, 'session.json');
    expect(await anima('psyche', 'import', await file('clerk.toml', PSYCHE), '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: expect.stringContaining('imported as psyche version 2 (persona Clerk)'),
    });
    const exported = await anima('psyche', 'export', '--snapshot', snapshot);
    expect(exported.out).toMatch(/^sage = 0\.9$/m);
    const before = await readFile(snapshot, 'utf8');
    expect(
      (await anima('psyche', 'import', await file('broken.toml', '[archetypes]\nsage = 2\n'), '--snapshot', snapshot))
        .code,
    ).toBe(1);
    expect(await readFile(snapshot, 'utf8')).toBe(before);
    await anima('psyche', 'import', await file('again.toml', exported.out), '--snapshot', snapshot);
    expect((await anima('psyche', 'export', '--snapshot', snapshot)).out).toBe(exported.out);
  });

  it('runs wearing a psyche, and writes the findings up in its grammar', async () => {
    const snapshot = join(folder, 'session.json');
    const kg = await file('zoo.ttl', TURTLE);
    const run = await anima(
      'run',
      '--goal',
      'Find mammals',
      '--criteria',
      '?x is-a mammal, at least 3',
      '--kg',
      kg,
      '--psyche',
      await file('clerk.toml', PSYCHE),
      '--snapshot',
      snapshot,
    );
    expect(run.code).toBe(0);
    expect((await anima('psyche', 'export', '--snapshot', snapshot)).out).toContain('name = "Clerk"');
    const written = await anima('write-up', '1', '--snapshot', snapshot);
    expect(written.out).toMatch(/^Dog -> is-a -> Mammal \[[\d.]+\]$/m);
    expect((await anima('write-up', '1', '--snapshot', snapshot, '--grammar', 'formal')).out).toMatch(
      /^- Cat is-a Mammal \(confidence 1\.00\)$/m,
    );
    expect(await anima('notes', '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: '',
      error: expect.stringContaining('no notes'),
    });
    await anima(
      'run',
      '--goal',
      'Find canines and keep notes',
      '--criteria',
      '?x is-a canine, at least 1',
      '--snapshot',
      snapshot,
    );
    const notes = await anima('notes', '2', '--snapshot', snapshot);
    expect(notes.out).toMatch(
      /^# Notes: Find canines and keep notes\n\nGoal 2, written at cycle \d+: \d+ findings?\.\n\n- Dog is-a Canine \(confidence [\d.]+\)$/m,
    );
    expect((await anima('notes', 'x', '--snapshot', snapshot)).code).toBe(2);
    const plan = await anima(
      'plan',
      '--goal',
      'Find mammals',
      '--criteria',
      '?x is-a mammal, at least 3',
      '--snapshot',
      snapshot,
    );
    expect(plan.out.split('\n').slice(0, 3)).toEqual([
      'explore first (attempt 0); needs knowledge: kg_query -> memory_recall -> infer_rules -> reason -> gap_analysis',
      '  1. [completed] kg_query {"pattern":"?x is-a mammal"}: knowledge: look up what the graph holds about the goal -> looked up while planning: 3 or more answers to ?x is-a mammal, 3 needed',
      // The goals before ended, and their episodes say what they learned about mammals.
      '  2. [pending] memory_recall {"text":"Find mammals","symbols":[4],"k":3}: knowledge: recall what earlier goals learned',
    ]);
    expect(
      (await anima('plan', '--goal', 'Find mammals', '--attempt', '1', '--snapshot', snapshot, '--json')).out,
    ).toMatch(
      /^\{"attempt":1,"needs":\["knowledge"\],"strategy":"reason first \(attempt 1\); needs knowledge: infer_rules/,
    );
    const refused = await anima(
      'run',
      '--goal',
      'x y z',
      '--psyche',
      await file('bad.toml', '[archetypes]\nsage = 2\n'),
      '--snapshot',
      snapshot,
    );
    expect(refused).toMatchObject({ code: 1, error: expect.stringContaining('nothing was run') });
  });
});

describe('anima plan, reflect and settings', () => {
  it('shows the plans a goal had, reflects on demand, lists reflections, and keeps the settings in the snapshot', async () => {
    const snapshot = join(folder, 'planning.json');
    const kg = await file('mars.csv', 'Mars,is-a,Planet\nPlanet,is-a,CelestialBody\nMars,orbits,Sun\n');
    expect((await anima('settings', '--snapshot', snapshot)).code).toBe(1);
    await anima(
      'run',
      '--goal',
      'Learn about Mars',
      '--criteria',
      'volcano crater',
      '--kg',
      kg,
      '--max-cycles',
      '3',
      '--snapshot',
      snapshot,
    );
    const plans = await anima('plan', '1', '--snapshot', snapshot);
    expect(plans.out.split('\n').slice(0, 3)).toEqual([
      'plan 1, made at cycle 1: active',
      'explore first (attempt 0); needs knowledge: kg_query -> infer_rules -> gap_analysis',
      '  1. [completed] kg_query {"symbol":1}: knowledge: look up what the graph holds about the goal -> looked up while planning: the 2 triples around Mars do not hold volcano, crater',
    ]);
    expect(plans.out).toMatch(
      /^ {2}2\. \[completed\] infer_rules \{"minConfidence":0\.1\}: reasoning: derive the facts the rules imply -> derived .* \(cycle 1\)$/m,
    );
    expect(await anima('plan', '2', '--snapshot', snapshot)).toMatchObject({
      code: 0,
      error: expect.stringContaining('goal 2 has no plan yet'),
    });
    expect(await anima('reflections', '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: '',
      error: expect.stringContaining('no reflections yet'),
    });

    const reflected = await anima('reflect', '--snapshot', snapshot);
    expect(reflected.out.split('\n')[0]).toBe('reflection at cycle 3 (asked for; cycles 1 to 3)');
    expect(reflected.out).toMatch(
      /^ {2}boost goal 1 128 -> 148: it advanced in 3 cycles since the last reflection: keep its momentum$/m,
    );
    // Saved in the snapshot: listed by the next command, and the priority changed.
    expect((await anima('reflections', '--snapshot', snapshot)).out).toBe(reflected.out);
    expect(JSON.parse((await anima('goals', '--snapshot', snapshot, '--json')).out).goals).toHaveLength(1);

    expect((await anima('settings', '--snapshot', snapshot)).out).toBe(
      "planning on\nreflection every 5 cycles\na goal is abandoned after 3 failed plans\nworking memory holds 100 entries, consolidated into episodes above 80% full\nmodel: each engine's defaults\nrecall and similarity: by hypervectors (no embedder; --embedder P:MODEL binds one)\nweb: offline (http_fetch reads no address; --allow-web PREFIX allows one)\n",
    );
    expect((await anima('settings', '--planning', 'maybe', '--snapshot', snapshot)).code).toBe(2);
    expect(
      JSON.parse(
        (await anima('settings', '--planning', 'off', '--reflection-interval', '2', '--snapshot', snapshot, '--json'))
          .out,
      ),
    ).toEqual({
      planning: false,
      reflectionInterval: 2,
      maxFailedPlans: 3,
      memoryCapacity: 100,
      consolidationThreshold: 0.8,
      model: {},
      embedder: null,
      allowedWebPrefixes: [],
    });
    // The session's model settings: checked by the service, kept in the snapshot, `default` gives one back to the engine.
    expect(await anima('settings', '--temperature', '2.5', '--seed', '4', '--snapshot', snapshot)).toMatchObject({
      code: 2,
      error: expect.stringContaining('--temperature: temperature is at most 2'),
    });
    expect(await anima('settings', '--top-p', 'most', '--snapshot', snapshot)).toMatchObject({
      code: 2,
      error: expect.stringContaining("--top-p must be a number, or default for the engine's own"),
    });
    expect(
      (
        await anima(
          'settings',
          '--temperature',
          '0.3',
          '--top-p',
          '0.9',
          '--answer-tokens',
          '200',
          '--seed',
          '4',
          '--snapshot',
          snapshot,
        )
      ).out,
    ).toMatch(
      /^model: temperature 0\.3, top-p 0\.9, answer-tokens 200, seed 4\n {2}The seed is sent to the endpoint, but many servers ignore it/m,
    );
    expect(
      JSON.parse((await anima('settings', '--seed', 'default', '--snapshot', snapshot, '--json')).out).model,
    ).toEqual({ temperature: 0.3, topP: 0.9, maxTokens: 200 });
    expect(
      JSON.parse(
        (
          await anima(
            'settings',
            '--memory-capacity',
            '40',
            '--consolidation-threshold',
            '0.7',
            '--snapshot',
            snapshot,
            '--json',
          )
        ).out,
      ),
    ).toMatchObject({ memoryCapacity: 40, consolidationThreshold: 0.7 });
    expect(JSON.parse((await anima('status', '--snapshot', snapshot, '--json')).out).workingMemory.capacity).toBe(40);
    expect(await anima('settings', '--memory-capacity', '5', '--snapshot', snapshot)).toMatchObject({
      code: 2,
      error: expect.stringContaining('--memory-capacity must be a whole number from 10 to 10000'),
    });
    expect(await anima('settings', '--consolidation-threshold', '1', '--snapshot', snapshot)).toMatchObject({
      code: 2,
      error: expect.stringContaining('--consolidation-threshold must be a number from 0.5 to 0.95'),
    });
    await anima('resume', '--max-cycles', '2', '--snapshot', snapshot);
    // Cycles 4 and 5 ran without a plan; cycle 4 reflected (every 2 cycles now).
    expect((await anima('plan', '1', '--snapshot', snapshot)).out.match(/^plan \d+/gm)).toEqual(['plan 1']);
    const listed = JSON.parse((await anima('reflections', '--snapshot', snapshot, '--json')).out) as {
      cycle: number;
      trigger: string;
    }[];
    expect(listed.map((reflection) => [reflection.cycle, reflection.trigger])).toEqual([
      [4, 'interval'],
      [3, 'request'],
    ]);
  });
});

describe('anima questions and answers', () => {
  it('lists what the agent asked and takes an answer, whose facts enter the snapshot', async () => {
    const snapshot = join(folder, 'session.json');
    const kg = await file('mars.csv', 'Mars,is-a,Planet\nVenus,is-a,Planet\nMars,orbits,Sun\n');
    await anima(
      'run',
      '--goal',
      'Learn about Mars',
      '--criteria',
      'volcano crater',
      '--kg',
      kg,
      '--snapshot',
      snapshot,
    );
    const asked = await anima('questions', '--snapshot', snapshot);
    expect(asked.out).toMatch(/^#1\tpending\tgoal 1\tFor "Learn about Mars" I found nothing yet/m);
    const bad = await anima('answer', '1', '--facts', 'Mars, has', '--snapshot', snapshot);
    expect(bad).toMatchObject({ code: 1, error: expect.stringContaining('line 1, at facts: expected 3 or 4 fields') });
    const answered = await anima(
      'answer',
      '1',
      '--facts',
      'Mars, has-feature, OlympusMons',
      '--facts',
      'OlympusMons, is-a, Volcano',
      '--facts',
      'Mars, has-feature, Crater',
      '--note',
      'the largest',
      '--snapshot',
      snapshot,
    );
    // Every word the goal asked for (volcano and crater): a volcano alone would not complete it.
    expect(answered).toMatchObject({ code: 0, out: expect.stringContaining('3 facts added') });
    expect((await anima('kg', 'query', '?x is-a Volcano', '--snapshot', snapshot)).out).toBe('?x\nOlympusMons\n');
    expect((await anima('resume', '--snapshot', snapshot)).out).toMatch(/^#1\tcompleted\tLearn about Mars/m);
  });

  it('withdraws a question asked by a user_interact that changed since, keeps the answer unapplied, and saves that', async () => {
    const snapshot = join(folder, 'session.json');
    const kg = await file('mars.csv', 'Mars,is-a,Planet\nVenus,is-a,Planet\nMars,orbits,Sun\n');
    await anima(
      'run',
      '--goal',
      'Learn about Mars',
      '--criteria',
      'volcano crater',
      '--kg',
      kg,
      '--snapshot',
      snapshot,
    );
    const { snapshot: stored } = await readSnapshotAt(snapshot);
    stored.questions[0]!.digest = '0'.repeat(64);
    await writeSnapshotFile(stored, snapshot, []);
    const answered = await anima('answer', '1', '--facts', 'Mars, has-feature, OlympusMons', '--snapshot', snapshot);
    expect(answered).toMatchObject({
      code: 1,
      error: expect.stringContaining(
        'answer: question #1 was withdrawn: user_interact changed since it asked this question; your answer is kept on it but was not applied',
      ),
    });
    expect((await anima('questions', '--snapshot', snapshot)).out).toMatch(
      /^#1\twithdrawn\tgoal 1\t.*\t-> Mars, has-feature, OlympusMons$/m,
    );
    expect((await anima('kg', 'query', 'Mars has-feature ?x', '--snapshot', snapshot)).out).toBe('?x\n');
  });
});

describe('anima llm check', () => {
  it('makes one structured call to an OpenAI-compatible server and prints the value, or the bottleneck, with attempts and tokens', async () => {
    const server = await startOpenAiServer([
      { text: '{"city":"Paris"}', promptTokens: 30, completionTokens: 5 },
      { text: 'Paris' },
      { text: '{}' },
      { text: '{"town":"Paris"}' },
    ]);
    try {
      const ok = await anima('llm', 'check', '--provider', 'openai', '--base-url', server.baseUrl, '--model', 'tiny');
      expect(ok).toMatchObject({
        code: 0,
        out: 'ok: {"city":"Paris"} after 1 attempt; 30 prompt + 5 completion tokens\n',
      });
      const failed = await anima(
        'llm',
        'check',
        '--provider',
        'openai',
        '--base-url',
        server.baseUrl,
        '--model',
        'tiny',
        '--json',
      );
      expect(failed.code).toBe(1);
      expect(JSON.parse(failed.out)).toMatchObject({
        ok: false,
        bottleneck: { kind: 'invalid_output' },
        attempts: [{ text: 'Paris' }, { text: '{}' }, { text: '{"town":"Paris"}' }],
        usage: { promptTokens: 30, completionTokens: 15 },
      });
      expect(server.requests[0]!.body).toMatchObject({
        model: 'tiny',
        response_format: { type: 'json_schema', json_schema: { name: 'capital', strict: true } },
      });
    } finally {
      await server.close();
    }
    expect(
      await anima('llm', 'check', '--provider', 'openai', '--base-url', server.baseUrl, '--model', 'tiny'),
    ).toMatchObject({
      code: 1,
      out: expect.stringMatching(/^bottleneck dependency_unavailable: openai-compatible \(tiny\): cannot reach /),
    });
    expect(await anima('llm', 'check', '--provider', 'webllm', '--model', 'x')).toMatchObject({ code: 2 });
    expect(
      await anima('llm', 'check', '--provider', 'openai', '--base-url', 'file:///x', '--model', 'tiny'),
    ).toMatchObject({ code: 2, error: expect.stringContaining('http(s) address') });
  });
});

describe('anima run with a language model', () => {
  const ZORBLAX = JSON.stringify({
    kind: 'final',
    answer: 'Zorblax is a moon of Kepler.',
    triples: [{ subject: 'Zorblax', predicate: 'is-a', object: 'Moon', confidence: 0.9 }],
  });

  it("binds the session's embedder (settings --embedder) to the run's endpoint: recall ranks by it, the key stays out", async () => {
    const server = await startOpenAiServer([], {
      embeddings: (input) => input.map((text) => [0.1, /mammal|dog|cat|canine/i.test(text) ? 1 : 0]),
    });
    const snapshot = join(folder, 'session.json');
    const endpoint = [
      '--provider',
      'openai',
      '--base-url',
      server.baseUrl,
      '--model',
      'tiny',
      '--api-key',
      'sk-cli-key',
    ];
    try {
      const kg = await file('zoo.ttl', TURTLE);
      await anima(
        'run',
        '--goal',
        'Find mammals',
        '--criteria',
        '?x is-a unicorn',
        '--kg',
        kg,
        '--max-cycles',
        '2',
        '--snapshot',
        snapshot,
      );
      expect((await anima('consolidate', '--snapshot', snapshot)).code).toBe(0);
      expect(await anima('settings', '--embedder', 'bert', '--snapshot', snapshot)).toMatchObject({
        code: 2,
        error: expect.stringContaining('--embedder is PROVIDER:MODEL (openai-compatible:MODEL or gguf:MODEL) or none'),
      });
      expect(await anima('settings', '--embedder', 'gguf:nomic', '--snapshot', snapshot)).toMatchObject({
        code: 2,
        error: expect.stringContaining('--embedder: there is no GGUF model nomic on this device'),
      });
      // Node has no WebGPU: WebLLM's embedding models are refused in words.
      expect(
        await anima('settings', '--embedder', 'webllm:snowflake-arctic-embed-s-q0f32-MLC-b4', '--snapshot', snapshot),
      ).toMatchObject({
        code: 2,
        error: expect.stringContaining(
          '--embedder: WebLLM runs only in the browser, on WebGPU, and there is none here: choose an OpenAI-compatible endpoint or a GGUF model to embed',
        ),
      });
      const set = await anima('settings', '--embedder', 'openai-compatible:topics', '--snapshot', snapshot);
      expect(set.out).toContain('\nrecall and similarity: by embeddings of openai-compatible:topics\n');
      const cycle = await anima('cycle', ...endpoint, '--json', '--snapshot', snapshot);
      expect(JSON.parse(cycle.out.split('\n')[0]!).phases.observe).toMatch(
        /recalled episode 1 \(\d\.\d\d\) by embeddings of topics/,
      );
      expect(
        server.requests.some(
          (request) => request.url === '/v1/embeddings' && request.authorization === 'Bearer sk-cli-key',
        ),
      ).toBe(true);
      expect(await readFile(snapshot, 'utf8')).not.toContain('sk-cli-key');
      expect((await anima('settings', '--embedder', 'none', '--snapshot', snapshot)).out).toContain(
        'recall and similarity: by hypervectors',
      );
    } finally {
      await server.close();
    }
  });

  it('binds the OpenAI-compatible endpoint for the run: reason asks it, the fact is capped, the key stays out of the snapshot', async () => {
    const server = await startOpenAiServer([{ text: ZORBLAX, promptTokens: 300, completionTokens: 40 }]);
    const snapshot = join(folder, 'session.json');
    try {
      const facts = await file('mars.csv', 'Mars,is-a,Planet\nPlanet,is-a,CelestialBody\n');
      const ran = await anima(
        'run',
        '--goal',
        'What is Zorblax',
        '--criteria',
        'Zorblax is-a ?x',
        '--kg',
        facts,
        '--provider',
        'openai',
        '--base-url',
        server.baseUrl,
        '--model',
        'tiny',
        '--api-key',
        'sk-test-key',
        '--snapshot',
        snapshot,
      );
      expect(ran.code).toBe(0);
      expect(ran.out).toMatch(/^cycle 1\tkg_query\tno-change\t/);
      expect(ran.out).toMatch(
        /\ncycle 2\treason\tcompleted\tthe model \(tiny\) answered: Zorblax is a moon of Kepler\.; 1 facts at 0\.7 or less/,
      );
      expect(ran.error).toBe(
        'anima: 2 cycles run (no goal is active); openai-compatible tiny: 1 requests, 300 tokens in, 40 out\n',
      );
      expect(server.requests[0]!.authorization).toBe('Bearer sk-test-key');
      const saved = await readFile(snapshot, 'utf8');
      expect(saved).not.toContain('sk-test-key');
      expect(
        JSON.parse((await anima('kg', 'query', 'Zorblax is-a ?x', '--snapshot', snapshot, '--json')).out).rows,
      ).toEqual([{ x: 'Moon' }]);
    } finally {
      await server.close();
    }
  });

  it("stops at the run's request limit and says which limit; refuses a provider it cannot reach", async () => {
    const server = await startOpenAiServer([{ text: 'not JSON' }, { text: ZORBLAX }]);
    const snapshot = join(folder, 'session.json');
    try {
      const ran = await anima(
        'run',
        '--goal',
        'What is Zorblax',
        '--criteria',
        'Zorblax is-a ?x',
        '--provider',
        'openai',
        '--base-url',
        server.baseUrl,
        '--model',
        'tiny',
        '--max-requests',
        '1',
        '--max-cycles',
        '10',
        '--json',
        '--snapshot',
        snapshot,
      );
      const lines = ran.out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines[1]).toMatchObject({
        tool: 'reason',
        model: { requests: 1, bottleneck: { kind: 'budget_exhausted' } },
      });
      expect(lines).toHaveLength(3);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
    expect(await anima('run', '--goal', 'x', '--provider', 'webllm', '--snapshot', snapshot)).toMatchObject({
      code: 2,
      error: expect.stringContaining('--provider is openai or none'),
    });
  });

  it("prints and saves nothing of the key or the base URL's key, even from an endpoint that echoes them; saves no snapshot that would carry one", async () => {
    const key = 'sk-LEAK-cli-key-0123456789';
    const echo = {
      status: 401,
      body: (request: { authorization?: string; url: string }) => `bad key ${request.authorization} for ${request.url}`,
    };
    const server = await startOpenAiServer([echo, echo]);
    const snapshot = join(folder, 'session.json');
    try {
      const endpoint = [
        '--provider',
        'openai',
        '--base-url',
        `${server.baseUrl}?key=qk-LEAK-cli-query`,
        '--model',
        'tiny',
        '--api-key',
        key,
      ];
      const ran = await anima(
        'run',
        '--goal',
        'What is Zorblax',
        '--criteria',
        'Zorblax is-a ?x',
        ...endpoint,
        '--max-cycles',
        '3',
        '--json',
        '--snapshot',
        snapshot,
      );
      expect(ran.code).toBe(0);
      expect(server.requests[0]).toMatchObject({
        authorization: `Bearer ${key}`,
        url: '/v1/chat/completions?key=qk-LEAK-cli-query',
      });
      expect(ran.out).toContain('answered HTTP 401: bad key Bearer [redacted] for /v1/chat/completions?key=[redacted]');
      const checked = await anima('llm', 'check', ...endpoint, '--json');
      expect(checked.out).toContain('[redacted]');
      expect(`${ran.out}${ran.error}${checked.out}${checked.error}${await readFile(snapshot, 'utf8')}`).not.toContain(
        'LEAK',
      );

      // A goal that quotes the key: the agent takes it, but the snapshot is not written, and says where it would have carried it.
      const quoting = join(folder, 'quoting.json');
      const refused = await anima(
        'run',
        '--goal',
        `Remember ${key}`,
        '--criteria',
        'moons',
        ...endpoint,
        '--max-cycles',
        '1',
        '--snapshot',
        quoting,
      );
      expect(refused.code).toBe(1);
      expect(refused.error).toContain(
        `${quoting}: not written, the file was left as it was:\n  at goals.0.description: holds a secret of this device (the API key); a snapshot never carries one, so nothing was written`,
      );
      expect(existsSync(quoting)).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('says, with its kind, that a run went on without an endpoint that stopped answering', async () => {
    const snapshot = join(folder, 'unreachable.json');
    const ran = await anima(
      'run',
      '--goal',
      'What is Zorblax',
      '--criteria',
      'Zorblax is-a ?x',
      '--provider',
      'openai',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--model',
      'tiny',
      '--max-cycles',
      '3',
      '--snapshot',
      snapshot,
    );
    expect(ran.code).toBe(0);
    expect(ran.error).toMatch(
      /anima: went on without the model \(stopped-answering\): openai-compatible \(tiny\): cannot reach /,
    );
  });
});
