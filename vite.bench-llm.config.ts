import { defineConfig } from 'vite';

/** Builds the prompt-economy benchmark for Node (see bench/llm/bench-llm.ts); dependencies stay external. */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: 'bench/llm/bench-llm.ts',
    outDir: 'dist-bench/llm',
    target: 'node20',
    emptyOutDir: true,
    rollupOptions: { output: { format: 'es', entryFileNames: 'bench-llm.js' } },
  },
});
