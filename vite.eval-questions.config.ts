import { defineConfig } from 'vite';

/** Builds the question evaluation for Node (see bench/questions/eval-questions.ts); dependencies stay external. */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: 'bench/questions/eval-questions.ts',
    outDir: 'dist-bench/questions',
    target: 'node20',
    emptyOutDir: true,
    rollupOptions: { output: { format: 'es', entryFileNames: 'eval-questions.js' } },
  },
});
