import { statSync } from 'node:fs';
import { runBrowserSuite } from './browser-suites.mjs';

/**
 * Draws the README's tour pictures (playwright.pictures.config.ts, tests/pictures/) from the app
 * built by `npm run build`, in the first Chromium found, on ANIMA_PICTURES_PORT or a free port,
 * then lists each picture with its size. Exits non-zero when a picture could not be drawn.
 */
const run = await runBrowserSuite('pictures', process.argv.slice(2));
if (!run.ran) {
  console.error(`pictures: not drawn: ${run.reason}`);
  process.exit(1);
}
for (const name of ['question-answered', 'cycle-log', 'approval', 'psyche-import', 'snapshot-export']) {
  const file = `docs/pictures/${name}.png`;
  try {
    console.log(`${file}: ${Math.round(statSync(file).size / 1024)} KB`);
  } catch {
    console.log(`${file}: missing`);
  }
}
process.exit(run.status);
