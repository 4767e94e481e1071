import { defineConfig } from '@playwright/test';
import { BROWSER_SUITES, suitePort } from './scripts/browser-suites.mjs';
import { CHROMIUM_FLAGS } from './scripts/find-chromium.mjs';

/**
 * The real-inference tests (`npm run test:inference`, scripts/run-inference.mjs): the tiny GGUF
 * model on llama.cpp in Chromium, through the harness page built by vite.inference.config.ts.
 * A config of their own, so the e2e runs (playwright.config.ts) never start their server or run
 * them, and these never need the app built.
 */
// ANIMA_INFERENCE_PORT: its runner sets a free port unless one is given (scripts/browser-suites.mjs).
const PORT = suitePort('inference');

export default defineConfig({
  testDir: 'tests/inference',
  // Apart from the e2e runs' folder, which each Playwright run empties first.
  outputDir: 'test-results/inference',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // The summary line is read from the JSON report (scripts/test-summary.mjs).
  reporter: [['list'], ['json', { outputFile: BROWSER_SUITES.inference.report }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'off',
  },
  projects: [
    {
      // Single-threaded: the harness is not cross-origin isolated, and at this size more threads are slower.
      name: 'inference',
      use: { launchOptions: { executablePath: process.env.ANIMA_CHROMIUM, args: [...CHROMIUM_FLAGS] } },
    },
  ],
  webServer: {
    command: `npx vite preview --config vite.inference.config.ts --port ${PORT} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}/harness.html`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
