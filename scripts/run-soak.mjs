import { runBrowserSuite } from './browser-suites.mjs';
import { soakSeed, soakSeedLine } from './soak-seed.mjs';
import { soakSummary } from './test-summary.mjs';

/**
 * Runs the crash-safety soak (playwright.soak.config.ts, built by `npm run build:soak`) in the
 * first Chromium found, on ANIMA_SOAK_PORT or a free port, under its seed (printed), then prints
 * "soak: N passed, M failed (K kills, P problems, seed S)" from the JSON report.
 */
const seed = soakSeed(process.env.SOAK_SEED);
console.log(soakSeedLine(seed));
const run = await runBrowserSuite('soak', process.argv.slice(2), { SOAK_SEED: String(seed) });
const summary = soakSummary(run, seed);
console.log(summary.line);
process.exit(summary.ok ? 0 : 1);
