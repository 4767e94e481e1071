import { defineConfig } from 'vite';

/** Builds the `anima` command: the same core as the app, bundled for Node. Dependencies stay external. */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: 'src/cli/main.ts',
    outDir: 'dist-cli',
    target: 'node20',
    emptyOutDir: true,
    // One file: the app's service loads its slices on first use, which in Node saves nothing worth a folder of chunks.
    rollupOptions: { output: { format: 'es', entryFileNames: 'anima.js', codeSplitting: false } },
  },
});
