import { defineConfig } from '@playwright/test';
import { BROWSER_SUITES, suitePort } from './scripts/browser-suites.mjs';
import { CHROMIUM_FLAGS } from './scripts/find-chromium.mjs';

/** The e2e tests run against the built app served by `vite preview` in Chromium (see scripts/run-e2e.mjs). */
// ANIMA_E2E_PORT (its runner sets a free port unless one is given, scripts/browser-suites.mjs)
// and ANIMA_DIST (see vite.config.ts) let two runs on one machine keep apart.
const PORT = suitePort('e2e');

/** The WebGPU tests: the one file run in a Chromium with software WebGPU (SwiftShader). */
const WEBGPU_SPEC = /webgpu\.spec\.ts$/;

export default defineConfig({
  testDir: 'tests/e2e',
  // Apart from the other suites' folders and from a run on another build, as each run empties its own.
  outputDir: process.env.ANIMA_DIST ? `test-results/e2e-${process.env.ANIMA_DIST}` : 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // The summary line is read from the JSON report (scripts/test-summary.mjs).
  reporter: [['list'], ['json', { outputFile: BROWSER_SUITES.e2e.report }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'off',
  },
  // A project's launchOptions replace the top-level ones: each names the browser and all its flags.
  projects: [
    {
      name: 'chromium',
      testIgnore: WEBGPU_SPEC,
      use: { launchOptions: { executablePath: process.env.ANIMA_CHROMIUM, args: [...CHROMIUM_FLAGS] } },
    },
    {
      // Without a GPU, this flag gives WebGPU a real software adapter: no shader-f16, 1 GiB buffers.
      name: 'webgpu',
      testMatch: WEBGPU_SPEC,
      use: {
        launchOptions: {
          executablePath: process.env.ANIMA_CHROMIUM,
          args: [...CHROMIUM_FLAGS, '--enable-unsafe-webgpu'],
        },
      },
    },
  ],
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
