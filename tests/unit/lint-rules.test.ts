import { readFile } from 'node:fs/promises';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// npm run check runs `npm run lint` (eslint.config.js): these show each rule it adds can fail.
const root = new URL('../../', import.meta.url).pathname;
let eslint: ESLint;

/** The rules that fire on `source` as if it were the file at `file`. */
async function rulesBrokenBy(source: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: `${root}${file}` });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

// Loading the configuration and its plugins takes seconds on a busy 2-core machine: once, here.
beforeAll(async () => {
  eslint = new ESLint({ cwd: root });
  await eslint.calculateConfigForFile(`${root}src/ui/example.svelte`);
}, 60_000);

describe('the lint rules of npm run check', () => {
  it('refuses an unused import or variable (dead code)', async () => {
    const source = "import { join } from 'node:path';\nconst unused = 1;\nexport const answer = 2;\n";
    expect(await rulesBrokenBy(source, 'src/core/example.ts')).toEqual([
      '@typescript-eslint/no-unused-vars',
      '@typescript-eslint/no-unused-vars',
    ]);
    expect(await rulesBrokenBy('export const answer = 2;\n', 'src/core/example.ts')).toEqual([]);
  });

  it('refuses {@html} in a Svelte component: untrusted text is never rendered as HTML', async () => {
    const component = (markup: string) =>
      `<script lang="ts">\n  let { text }: { text: string } = $props();\n</script>\n\n${markup}\n`;
    expect(await rulesBrokenBy(component('<p>{@html text}</p>'), 'src/ui/example.svelte')).toEqual([
      'svelte/no-at-html-tags',
    ]);
    expect(await rulesBrokenBy(component('<p>{text}</p>'), 'src/ui/example.svelte')).toEqual([]);
  });

  it('refuses the console in the core, and only there', async () => {
    const source = "export function greet(): void {\n  console.log('hello');\n}\n";
    expect(await rulesBrokenBy(source, 'src/core/example.ts')).toEqual(['no-console']);
    expect(await rulesBrokenBy(source, 'src/cli/example.ts')).toEqual([]);
  });

  it('refuses loose equality', async () => {
    const source = 'export const isOne = (value: unknown): boolean => value == 1;\n';
    expect(await rulesBrokenBy(source, 'src/core/example.ts')).toEqual(['eqeqeq']);
  });

  it('refuses a disable comment that silences nothing', async () => {
    const source = '// eslint-disable-next-line eqeqeq -- no longer needed\nexport const answer = 2;\n';
    expect(await rulesBrokenBy(source, 'src/core/example.ts')).toEqual([
      expect.stringMatching(/^Unused eslint-disable directive/),
    ]);
  });

  it('passes the files of the repository as they are', async () => {
    for (const file of ['src/core/result.ts', 'src/ui/app.svelte']) {
      expect(await rulesBrokenBy(await readFile(`${root}${file}`, 'utf8'), file)).toEqual([]);
    }
  });
});
