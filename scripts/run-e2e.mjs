import { spawnSync } from 'node:child_process';
import { findChromium } from './find-chromium.mjs';

/** Runs the Playwright tests with the first Chromium found, or says how to get one. */
const browser = await findChromium();
if (!browser) {
  process.stderr.write(
    [
      'No Chromium found for the browser tests.',
      '  On Debian or Ubuntu:   sudo apt-get install chromium',
      '  Where downloads work:  npx playwright install chromium',
      '  Or point CHROMIUM_PATH at a Chromium or Chrome binary.',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, ANIMA_CHROMIUM: browser },
});
process.exit(result.status ?? 1);
