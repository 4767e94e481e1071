import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { refusalProblem } from '#core/testing/fuzz.ts';
import { anima } from './testing/run-anima.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'anima-cli-errors-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** A snapshot with one fact, made through the CLI. */
async function snapshotWithAFact(): Promise<string> {
  const snapshot = join(folder, 'session.json');
  const facts = join(folder, 'facts.csv');
  await writeFile(facts, 'Dog,is-a,Mammal\n');
  expect((await anima('kg', 'import', facts, '--snapshot', snapshot)).code).toBe(0);
  return snapshot;
}

describe('the CLI says what went wrong in one sentence, never with a stack trace', () => {
  it(
    'says an argument over its limit with the limit and its size: a 10 MB psyche.toml, a long query',
    { timeout: 30_000 },
    async () => {
      const snapshot = await snapshotWithAFact();
      const before = await readFile(snapshot);
      const psyche = join(folder, 'huge.toml');
      await writeFile(psyche, `[persona]\nname = "${'x'.repeat(10 * 2 ** 20)}"\n`);
      expect(await anima('psyche', 'import', psyche, '--snapshot', snapshot)).toEqual({
        code: 1,
        out: '',
        error: `anima: ${psyche}: error: the file is 10241 KB; a psyche.toml may be at most 256 KB\n`,
      });
      expect(await anima('kg', 'query', 'q'.repeat(6_000), '--snapshot', snapshot)).toMatchObject({
        code: 1,
        error: 'anima: kgQuery arguments: query has 6,000 characters, more than the 5,000 taken\n',
      });
      expect(await readFile(snapshot)).toEqual(before);
    },
  );

  it('says a defect in one sentence, and shows its stack only with ANIMA_DEBUG=1', async () => {
    const facts = join(folder, 'facts.csv');
    await writeFile(facts, 'Dog,is-a,Mammal\n');
    // A new session's id comes from here: a stand-in for any defect inside the service.
    vi.spyOn(globalThis.crypto, 'randomUUID').mockImplementation(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    const snapshot = join(folder, 'new.json');
    const crashed = await anima('kg', 'import', facts, '--snapshot', snapshot);
    expect(crashed).toEqual({
      code: 1,
      out: '',
      error:
        'anima: open: Anima stopped on an internal error, a defect to report (RangeError: Maximum call stack size exceeded)\n',
    });
    expect(refusalProblem(crashed.error.trim())).toBeUndefined();
    expect(existsSync(snapshot)).toBe(false);
    vi.stubEnv('ANIMA_DEBUG', '1');
    const debugged = await anima('kg', 'import', facts, '--snapshot', snapshot);
    expect(debugged.error).toMatch(
      /^anima: open: Anima stopped on an internal error.*\nError: open: .*\n\s+at .*\n(.|\n)*RangeError: Maximum call stack size exceeded\n\s+at /,
    );
  });

  it('echoes at most 200 characters of what was typed, however long', async () => {
    const huge = 'z'.repeat(10_000_000);
    for (const argv of [
      [huge],
      ['kg', huge],
      ['persona', huge, '--catalog', 'c.json'],
      ['snapshot', huge, 'x'],
      ['kg', 'stats', '--limit', huge],
      [`--${huge}`],
    ]) {
      const refused = await anima(...argv);
      expect(refused.code).toBe(2);
      const firstLine = refused.error.split('\n')[0]!;
      expect(firstLine.length, argv[0]!.slice(0, 20)).toBeLessThan(400);
      // The sentence, then the usage of the command named or the list of commands: never all of --help.
      expect(refused.error.length).toBeLessThan(2_000);
    }
    expect((await anima(huge)).error).toMatch(/^anima: unknown command "z{200}…" \(10,000,000 characters\)\n/);
  });

  it('takes decimal numbers only in options', async () => {
    const snapshot = await snapshotWithAFact();
    for (const limit of ['0x10', '1e2', '', ' 5', 'Infinity', '0b1', '+5'])
      expect(await anima('kg', 'query', '?x is-a Mammal', '--limit', limit, '--snapshot', snapshot)).toMatchObject({
        code: 2,
        error: `anima: --limit must be a whole number from 1 to 10000, not ${JSON.stringify(limit)}\n`,
      });
    expect(await anima('kg', 'query', '?x is-a Mammal', '--limit', '5', '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: '?x\nDog\n',
    });
  });
});
