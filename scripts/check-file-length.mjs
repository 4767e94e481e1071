import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The size rule of docs/architecture.md: no source file (TypeScript or Svelte, in src/ or workers/)
 * over 400 lines, tests aside, so that a file keeps to one concern. `npm run check` runs it;
 * `node scripts/check-file-length.mjs` prints one line per file over the limit and fails.
 */
export const LINE_LIMIT = 400;

const FOLDERS = ['src', 'workers'];

/** A source file the rule holds: not a test, not a test's data (a `__fixtures__` folder). */
const isSource = (name) => /\.(ts|svelte)$/.test(name) && !/\.test\.ts$/.test(name);

function* sourceFiles(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && entry.name !== '__fixtures__') yield* sourceFiles(path);
    else if (entry.isFile() && isSource(entry.name)) yield path;
  }
}

/** Lines as `wc -l` counts them in a file that ends with a newline. */
function lineCount(text) {
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** The source files under `root` over `limit` lines, longest first, with their line counts. */
export function overLongFiles(root, limit = LINE_LIMIT) {
  const found = [];
  for (const folder of FOLDERS) {
    let files;
    try {
      files = [...sourceFiles(join(root, folder))];
    } catch (error) {
      if (error.code === 'ENOENT') continue;
      throw error;
    }
    for (const path of files) {
      const lines = lineCount(readFileSync(path, 'utf8'));
      if (lines > limit) found.push({ file: relative(root, path), lines });
    }
  }
  return found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const found = overLongFiles(process.argv[2] ?? process.cwd());
  for (const { file, lines } of found)
    console.error(`${file}: ${lines} lines, more than ${LINE_LIMIT}: split it by concern`);
  process.exit(found.length > 0 ? 1 : 0);
}
