import { defineConfig } from '@playwright/test';
import { BROWSER_SUITES, suitePort } from './scripts/browser-suites.mjs';
import { CHROMIUM_FLAGS } from './scripts/find-chromium.mjs';

/**
 * The crash-safety soak (`npm run test:soak`, scripts/run-soak.mjs): the real agent worker over
 * Chromium's IndexedDB, killed (and its page reloaded) at random moments, through the harness page
 * built by vite.soak.config.ts. A config of its own, so the e2e runs never start its server.
 */
// ANIMA_SOAK_PORT: its runner sets a free port unless one is given (scripts/browser-suites.mjs).
const PORT = suitePort('soak');

export default defineConfig({
  testDir: 'tests/soak',
  // Apart from the e2e runs' folder, which each Playwright run empties first.
  outputDir: 'test-results/soak',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 150_000,
  expect: { timeout: 15_000 },
  // The summary line is read from the JSON report (scripts/test-summary.mjs).
  reporter: [['list'], ['json', { outputFile: BROWSER_SUITES.soak.report }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'off',
  },
  projects: [
    { name: 'soak', use: { launchOptions: { executablePath: process.env.ANIMA_CHROMIUM, args: [...CHROMIUM_FLAGS] } } },
  ],
  webServer: {
    command: `npx vite preview --config vite.soak.config.ts --port ${PORT} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}/harness.html`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
