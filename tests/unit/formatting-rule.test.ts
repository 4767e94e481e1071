import { readFile } from 'node:fs/promises';
import { check, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';

// npm run check ends with `prettier --check .`: these show the rule it holds can fail.
const root = new URL('../../', import.meta.url).pathname;

async function isFormatted(source: string, file: string): Promise<boolean> {
  const filepath = `${root}${file}`;
  const options = await resolveConfig(filepath);
  return check(source, { ...options, filepath });
}

describe('the formatting rule of npm run check', () => {
  it('refuses code that is not written as prettier writes it', async () => {
    expect(await isFormatted('const   answer = {a:1}\n', 'src/core/example.ts')).toBe(false);
    expect(await isFormatted('const answer = { a: 1 };\n', 'src/core/example.ts')).toBe(true);
  });

  it('holds lines to 120 columns, also in Svelte components', async () => {
    const long = `export const names = [${Array.from({ length: 20 }, (_, index) => `'name${index}'`).join(', ')}];\n`;
    expect(long.length).toBeGreaterThan(120);
    expect(await isFormatted(long, 'src/core/example.ts')).toBe(false);
    expect(
      await isFormatted('<script lang="ts">\n  let   count = $state(0)\n</script>\n', 'src/ui/example.svelte'),
    ).toBe(false);
  });

  it('passes the files of the repository as they are', async () => {
    const file = 'src/core/result.ts';
    expect(await isFormatted(await readFile(`${root}${file}`, 'utf8'), file)).toBe(true);
  });
});
