import { runBrowserSuite } from './browser-suites.mjs';
import { browserSummary } from './test-summary.mjs';

/**
 * Runs the e2e tests (playwright.config.ts, against the app built by `npm run build`) in the first
 * Chromium found, on ANIMA_E2E_PORT or a free port, passing its arguments to Playwright (a spec
 * file, `--project webgpu`), then prints "e2e: N passed, M failed" from the JSON report.
 */
const run = await runBrowserSuite('e2e', process.argv.slice(2));
const summary = browserSummary('e2e', run);
console.log(summary.line);
process.exit(summary.ok ? 0 : 1);
