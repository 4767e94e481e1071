// Prints what a first visit needs before the home screen is interactive (the shell): the HTML,
// its CSS, the UI's JS and the agent worker's JS with everything they import statically, gzipped.
// Every other chunk (a screen, a slice of the agent) is listed with its size: it is fetched the
// first time it is used, and the service worker precaches it in the background meanwhile. Fails
// the build when the shell is over the budget, so new code arrives lazily or not at all.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';

// Issue #21 brought the first visit from 364 KB to under this. It may only go down: code a first
// visit does not need is loaded with a dynamic import() where it is first used.
const BUDGET_BYTES = 250 * 1024;
const dist = new URL(`../${process.env.ANIMA_DIST ?? 'dist'}/`, import.meta.url).pathname;
const gzipBytes = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

/** The files a built ES module imports statically (`import ... from"./x.js"`, `import"./x.js"`), not its dynamic `import()`s. */
function staticImportsOf(file) {
  const code = readFileSync(join(dist, file), 'utf8');
  const specifiers = [
    ...code.matchAll(/(?:^|[\s;}])(?:import|export)\s*(?:[\w$*{][^"'`;()]*?from\s*)?["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g),
  ].map((match) => match[1]);
  return specifiers.map((specifier) => posix.join(posix.dirname(file), specifier));
}

/** The module workers a UI file starts (`new Worker(new URL("/assets/x.js", ...))`). */
function workersOf(file) {
  const code = readFileSync(join(dist, file), 'utf8');
  return [...code.matchAll(/new Worker\(\s*new URL\(\s*["'`]\/?([^"'`]+\.js)["'`]/g)].map((match) => match[1]);
}

/** A file and everything it imports statically. */
function closureOf(entries) {
  const seen = new Set();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImportsOf(file));
  }
  return seen;
}

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const attribute = (tag, name) => tag.match(new RegExp(`${name}="/?([^"]+)"`))?.[1];
const tags = [...html.matchAll(/<(?:script|link)\b[^>]*>/g)].map((match) => match[0]);
const uiEntries = tags
  .filter((tag) => /type="module"/.test(tag) || /rel="modulepreload"/.test(tag))
  .map((tag) => attribute(tag, 'src') ?? attribute(tag, 'href'));
const styles = tags.filter((tag) => /rel="stylesheet"/.test(tag)).map((tag) => attribute(tag, 'href'));
const ui = closureOf(uiEntries);
const worker = closureOf([...ui].flatMap(workersOf));
const shell = ['index.html', ...styles, ...ui, ...worker];

// The in-browser engines' code is cached when a model first needs it (vite.config.ts), not precached.
const isEngineCode = (file) => /^assets\/(webllm|wllama)\./.test(file);
const lazy = readdirSync(join(dist, 'assets'))
  .map((name) => `assets/${name}`)
  .filter((file) => /\.(js|css)$/.test(file) && !shell.includes(file) && !isEngineCode(file));

const sized = (files) =>
  files.map((file) => ({ file, gzipBytes: gzipBytes(file) })).sort((a, b) => b.gzipBytes - a.gzipBytes);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const shellSizes = sized(shell);
const lazySizes = sized(lazy);
const shellTotal = shellSizes.reduce((sum, { gzipBytes }) => sum + gzipBytes, 0);
const lazyTotal = lazySizes.reduce((sum, { gzipBytes }) => sum + gzipBytes, 0);

console.log('The shell: what a first visit loads before the home screen is interactive (gzipped)');
for (const { file, gzipBytes } of shellSizes)
  console.log(`  ${kb(gzipBytes).padStart(9)}  ${file}${worker.has(file) ? '  (agent worker)' : ''}`);
console.log(
  `Lazy chunks: fetched when first used, precached by the service worker after the first visit (${kb(lazyTotal)} in all)`,
);
for (const { file, gzipBytes } of lazySizes) console.log(`  ${kb(gzipBytes).padStart(9)}  ${file}`);
console.log(`first visit: ${kb(shellTotal)} gzipped of HTML/JS/CSS (budget ${kb(BUDGET_BYTES)})`);
if (shellTotal > BUDGET_BYTES) {
  console.error(
    'the first visit is over budget: load what the home screen does not need with a dynamic import() where it is first used',
  );
  process.exit(1);
}
