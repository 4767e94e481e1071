import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|svelte)$/.test(entry.name) ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  return importsIn(readFileSync(join(root, file), 'utf8'));
}

function importsIn(text: string): string[] {
  // `import x from 'a'`, `export { y } from 'b'`, side-effect `import 'c'`, and `import('d')`.
  return [
    ...text.matchAll(
      /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    ),
  ].map((match) => match[1] ?? match[2] ?? match[3]!);
}

describe('module boundaries', () => {
  it('finds every kind of import it checks', () => {
    const text = [
      "import { a } from 'one';",
      "import type { B } from 'two';",
      "export * from 'three';",
      "import 'four/side-effect';",
      "const five = await import('five');",
    ].join('\n');
    expect(importsIn(text)).toEqual(['one', 'two', 'three', 'four/side-effect', 'five']);
  });

  it('keeps the core free of the UI, Svelte, Comlink and the DOM', () => {
    const offenders = sourceFiles('src/core').flatMap((file) =>
      importsOf(file)
        .filter(
          (target) =>
            target === 'svelte' ||
            target.startsWith('svelte/') ||
            target === 'comlink' ||
            target.includes('/ui/') ||
            (/^[.#]/.test(target) && target.includes('client')),
        )
        .map((target) => `${file} imports ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps Dexie inside core/store', () => {
    const offenders = sourceFiles('src')
      .filter((file) => !file.startsWith('src/core/store/') && !file.startsWith('src/core/testing/'))
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => target === 'dexie' || target.startsWith('dexie/'))
          .map(() => file),
      );
    expect(offenders).toEqual([]);
  });

  it('lets the UI reach the core only through the shared contract', () => {
    // UI tests (and their hosts) may drive the real service over fake-indexeddb from core/testing.
    const isTestCode = (file: string) => /(\.test|-test-host)\.ts$/.test(file);
    const offenders = sourceFiles('src/ui').flatMap((file) =>
      importsOf(file)
        .filter(
          (target) =>
            target.includes('core/') &&
            !/core\/(api|result)(\.ts)?$/.test(target) &&
            !(isTestCode(file) && target.includes('core/testing/')),
        )
        .map((target) => `${relative(root, join(root, file))} imports ${target}`),
    );
    expect(offenders).toEqual([]);
  });
});
