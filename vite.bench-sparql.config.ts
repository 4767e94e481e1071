import { defineConfig } from 'vite';

/** Builds the SPARQL benchmark for Node (see bench/sparql/bench-sparql.ts); dependencies stay external. */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: 'bench/sparql/bench-sparql.ts',
    outDir: 'dist-bench/sparql',
    target: 'node20',
    emptyOutDir: true,
    rollupOptions: { output: { format: 'es', entryFileNames: 'bench-sparql.js' } },
  },
});
