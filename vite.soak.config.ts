import { defineConfig } from 'vite';

/**
 * Builds the crash-safety soak page (tests/soak/harness.html) into dist-soak/, apart from the app:
 * not in its build, not in its service worker. `npm run test:soak` builds it and serves it with
 * `vite preview` for playwright.soak.config.ts.
 */
export default defineConfig({
  root: 'tests/soak',
  // The agent worker fetches the starter graph from the site's root, as in the app.
  publicDir: '../../public',
  worker: { format: 'es' },
  build: {
    outDir: '../../dist-soak',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // The worker carries the engines' loaders; size warnings say nothing here.
    chunkSizeWarningLimit: 10_000,
    rolldownOptions: { input: 'tests/soak/harness.html' },
  },
});
