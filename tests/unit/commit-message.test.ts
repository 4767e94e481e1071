import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { commitMessageProblems } from '../../scripts/check-commit-msg.mjs';

describe('the commit message check', () => {
  test('takes a short subject with its why in a body', () => {
    expect(commitMessageProblems('Fuzz harness shared by every file kind\n\nIssue #20 asks for it.\n')).toEqual([]);
  });

  test('refuses a subject over 72 characters, a list of fixes, a missing blank line', () => {
    expect(commitMessageProblems(`${'x'.repeat(73)}\n`)[0]).toMatch(/73 characters; at most 72/);
    expect(commitMessageProblems('Review: a fix; another fix\n')).toEqual([
      'The subject lists several changes; make one commit per change.',
    ]);
    expect(commitMessageProblems('Subject\nbody straight after\n')).toEqual([
      'The second line must be blank: the body starts after it.',
    ]);
    expect(commitMessageProblems('\n\nbody\n')).toContain('The subject line is empty.');
  });

  test('leaves git-made merge subjects and comment lines alone', () => {
    expect(
      commitMessageProblems(`Merge branch 'h-secrets' into main with a long name that goes past the limit\n`),
    ).toEqual([]);
    expect(commitMessageProblems('# Please enter the commit message\nAdd a thing\n')).toEqual([]);
  });

  test('the hook script fails a bad message file and passes a good one', () => {
    const folder = mkdtempSync(join(tmpdir(), 'anima-commit-'));
    const bad = join(folder, 'bad');
    const good = join(folder, 'good');
    writeFileSync(bad, `${'y'.repeat(90)}\n`);
    writeFileSync(good, 'Say what changed\n\nWhy it changed.\n');
    const run = (file: string) =>
      spawnSync(process.execPath, ['scripts/check-commit-msg.mjs', file], { encoding: 'utf8' });
    const refused = run(bad);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/commit message: The subject has 90 characters/);
    expect(run(good).status).toBe(0);
  });
});
