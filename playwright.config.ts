import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS } from './scripts/find-chromium.mjs';

/** The e2e tests run against the built app served by `vite preview` in Chromium (see scripts/run-e2e.mjs). */
// ANIMA_E2E_PORT (with ANIMA_DIST, see vite.config.ts) lets two runs on one machine keep apart.
const PORT = Number(process.env.ANIMA_E2E_PORT ?? 4319);

/** The WebGPU tests: the one file run in a Chromium with software WebGPU (SwiftShader). */
const WEBGPU_SPEC = /webgpu\.spec\.ts$/;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: process.env.ANIMA_E2E_PORT ? `test-results/e2e-${process.env.ANIMA_E2E_PORT}` : 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'reports/e2e.json' }]] : [['list']],
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
      use: { launchOptions: { executablePath: process.env.ANIMA_CHROMIUM, args: [...CHROMIUM_FLAGS, '--enable-unsafe-webgpu'] } },
    },
  ],
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
