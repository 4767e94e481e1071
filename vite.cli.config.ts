import { defineConfig } from 'vite';

/** Builds the `anima` command: the same core as the app, bundled for Node. Dependencies stay external. */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: 'src/cli/main.ts',
    outDir: 'dist-cli',
    target: 'node20',
    emptyOutDir: true,
    rollupOptions: { output: { format: 'es', entryFileNames: 'anima.js' } },
  },
});
