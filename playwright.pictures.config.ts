import { defineConfig } from '@playwright/test';
import { BROWSER_SUITES, suitePort } from './scripts/browser-suites.mjs';
import { CHROMIUM_FLAGS } from './scripts/find-chromium.mjs';

/**
 * The README's tour pictures (`npm run docs:pictures`, scripts/draw-pictures.mjs): the built app
 * walked through in Chromium, one picture a step, written to docs/pictures/. Not a test suite:
 * `npm test` never runs it; run it again when a pictured screen changes.
 */
const PORT = suitePort('pictures');

export default defineConfig({
  testDir: 'tests/pictures',
  outputDir: 'test-results/pictures',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 300_000,
  expect: { timeout: 30_000 },
  reporter: [['list'], ['json', { outputFile: BROWSER_SUITES.pictures.report }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'off',
    viewport: { width: 1280, height: 800 },
    // Light, with no animation: the pictures are the same each time they are drawn.
    colorScheme: 'light',
    reducedMotion: 'reduce',
    launchOptions: { executablePath: process.env.ANIMA_CHROMIUM, args: [...CHROMIUM_FLAGS] },
  },
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
