import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

/**
 * Runs the real-inference tests (playwright.inference.config.ts, built by `npm run
 * build:inference`) with the first Chromium found, then prints one line from Playwright's JSON
 * report, "inference: N passed, M failed", for people and CI alike. Exits non-zero when a test
 * failed or none ran.
 */
const REPORT = new URL('../reports/inference.json', import.meta.url).pathname;

// A report left by an earlier run must not stand in for this one.
rmSync(REPORT, { force: true });
const run = spawnSync('node', ['scripts/run-e2e.mjs', '--config', 'playwright.inference.config.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
if (!existsSync(REPORT)) {
  console.log('inference: 0 passed, 1 failed (no report: the inference tests did not run)');
  process.exit(run.status || 1);
}
const { stats } = JSON.parse(readFileSync(REPORT, 'utf8'));
const passed = stats.expected + stats.flaky;
console.log(`inference: ${passed} passed, ${stats.unexpected} failed`);
process.exit(run.status !== 0 ? run.status || 1 : stats.unexpected > 0 || passed === 0 ? 1 : 0);
