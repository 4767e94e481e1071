import { defineConfig } from 'vite';

/** Builds the analogy evaluation for Node (see bench/analogy/eval-analogy.ts); dependencies stay external. */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: 'bench/analogy/eval-analogy.ts',
    outDir: 'dist-bench/analogy',
    target: 'node20',
    emptyOutDir: true,
    rollupOptions: { output: { format: 'es', entryFileNames: 'eval-analogy.js' } },
  },
});
