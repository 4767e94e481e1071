import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { LINE_LIMIT, overLongFiles } from '../../scripts/check-file-length.mjs';

// npm run check ends with scripts/check-file-length.mjs: these show the rule it holds can fail.
const linesOf = (count: number) =>
  Array.from({ length: count }, (_, index) => `export const line${index} = ${index};\n`).join('');

const folders: string[] = [];

/** A tiny repository holding these files. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'anima-file-length-'));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const runCheck = (root: string) =>
  spawnSync(process.execPath, ['scripts/check-file-length.mjs', root], { encoding: 'utf8' });

afterEach(() => {
  for (const root of folders.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('the file length rule of npm run check', () => {
  test('names each source file over the limit with its line count, and fails', () => {
    const root = tree({
      'src/core/kg/long.ts': linesOf(LINE_LIMIT + 1),
      'src/ui/long-panel.svelte': `<script lang="ts">\n${linesOf(LINE_LIMIT + 20)}</script>\n`,
      'workers/long.worker.ts': linesOf(LINE_LIMIT + 5),
      'src/core/kg/short.ts': linesOf(LINE_LIMIT),
    });
    expect(overLongFiles(root)).toEqual([
      { file: 'src/ui/long-panel.svelte', lines: LINE_LIMIT + 22 },
      { file: 'workers/long.worker.ts', lines: LINE_LIMIT + 5 },
      { file: 'src/core/kg/long.ts', lines: LINE_LIMIT + 1 },
    ]);
    const refused = runCheck(root);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n')).toEqual([
      `src/ui/long-panel.svelte: ${LINE_LIMIT + 22} lines, more than ${LINE_LIMIT}: split it by concern`,
      `workers/long.worker.ts: ${LINE_LIMIT + 5} lines, more than ${LINE_LIMIT}: split it by concern`,
      `src/core/kg/long.ts: ${LINE_LIMIT + 1} lines, more than ${LINE_LIMIT}: split it by concern`,
    ]);
  });

  test('passes when every source file is within the limit, tests and their fixtures aside', () => {
    const root = tree({
      'src/core/kg/short.ts': linesOf(LINE_LIMIT),
      'src/core/kg/graph.test.ts': linesOf(LINE_LIMIT * 3),
      'src/ui/personas/personas.svelte.test.ts': linesOf(LINE_LIMIT * 2),
      'src/core/personas/__fixtures__/cards.ts': linesOf(LINE_LIMIT * 2),
      'src/core/kg/notes.md': linesOf(LINE_LIMIT * 2),
    });
    expect(overLongFiles(root)).toEqual([]);
    const passed = runCheck(root);
    expect(passed.status).toBe(0);
    expect(passed.stderr).toBe('');
  });
});
