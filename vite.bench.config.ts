import { defineConfig } from 'vite';

/**
 * Builds the knowledge-graph benchmark page (bench/kg/) into dist-bench/kg/, apart from the app:
 * not in its build, not in its service worker. `npm run bench:kg` builds it, serves it and drives it.
 */
export default defineConfig({
  root: 'bench/kg',
  base: './',
  publicDir: false,
  worker: { format: 'es' },
  build: {
    outDir: '../../dist-bench/kg',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // oxigraph's WebAssembly and the engines' chunks are big; size warnings say nothing here.
    chunkSizeWarningLimit: 10_000,
  },
});
