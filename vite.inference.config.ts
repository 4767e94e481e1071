import { defineConfig } from 'vite';

/**
 * Builds the real-inference test page (tests/inference/harness.html) into dist-inference/, apart
 * from the app: not in its build, not in its service worker. `npm run test:inference` builds it
 * and serves it with `vite preview` for the `inference` Playwright project.
 */
export default defineConfig({
  root: 'tests/inference',
  publicDir: false,
  // For `vite dev`: wllama's esm/index.js is one bundle already; served as it is, as in the app.
  optimizeDeps: { exclude: ['@wllama/wllama'] },
  worker: { format: 'es' },
  build: {
    outDir: '../../dist-inference',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // wllama's code and wasm are big; size warnings say nothing here.
    chunkSizeWarningLimit: 10_000,
    rolldownOptions: { input: 'tests/inference/harness.html' },
  },
});
