import { runBrowserSuite } from './browser-suites.mjs';
import { browserSummary } from './test-summary.mjs';

/**
 * Runs the real-inference tests (playwright.inference.config.ts, built by `npm run
 * build:inference`) in the first Chromium found, on ANIMA_INFERENCE_PORT or a free port, then
 * prints "inference: N passed, M failed" from the JSON report.
 */
const run = await runBrowserSuite('inference', process.argv.slice(2));
const summary = browserSummary('inference', run);
console.log(summary.line);
process.exit(summary.ok ? 0 : 1);
