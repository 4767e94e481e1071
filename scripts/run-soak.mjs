import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { soakSeed, soakSeedLine } from './soak-seed.mjs';
import { soakSummary } from './soak-summary.mjs';

/**
 * Runs the crash-safety soak (playwright.soak.config.ts, built by `npm run build:soak`) with the
 * first Chromium found, under its seed (the same every run unless SOAK_SEED says otherwise,
 * printed so that a failure can be replayed), then prints one line from Playwright's JSON report
 * for people and CI alike:
 * "soak: N passed, M failed (K kills, P problems, seed S)". Exits non-zero when a test failed or
 * none ran.
 */
const REPORT = new URL('../reports/soak.json', import.meta.url).pathname;

const seed = soakSeed(process.env.SOAK_SEED);
console.log(soakSeedLine(seed));
// A report left by an earlier run must not stand in for this one.
rmSync(REPORT, { force: true });
const run = spawnSync('node', ['scripts/run-e2e.mjs', '--config', 'playwright.soak.config.ts', ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, SOAK_SEED: String(seed) } });
console.log(soakSummary(REPORT));
if (!existsSync(REPORT)) process.exit(run.status || 1);
const { stats } = JSON.parse(readFileSync(REPORT, 'utf8'));
const passed = stats.expected + stats.flaky;
process.exit(run.status !== 0 ? run.status || 1 : stats.unexpected > 0 || passed === 0 ? 1 : 0);
