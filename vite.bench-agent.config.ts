import { defineConfig } from 'vite';

/** Builds the agent benchmark for Node (see bench/agent/bench-agent.ts); dependencies stay external. */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: 'bench/agent/bench-agent.ts',
    outDir: 'dist-bench/agent',
    target: 'node20',
    emptyOutDir: true,
    rollupOptions: { output: { format: 'es', entryFileNames: 'bench-agent.js' } },
  },
});
