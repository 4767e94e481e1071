import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [
    svelte(),
    VitePWA({
      registerType: 'autoUpdate',
      // An external registerSW.js script, not inline code: the app's CSP allows no inline scripts.
      injectRegister: 'script',
      includeAssets: ['favicon.svg', 'starter-graph.ttl'],
      manifest: {
        name: 'Anima',
        short_name: 'Anima',
        description: 'A private agent with a Jungian psyche that lives on your device.',
        theme_color: '#3b3f8f',
        background_color: '#101225',
        display: 'standalone',
        start_url: '.',
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{html,js,css,svg,png,ttl,webmanifest}'],
        // WebLLM's code (6 MB) is not part of a first visit: it is cached the first time a model is
        // listed or loaded, and from then on served from that cache, offline too.
        globIgnores: ['**/webllm-*.js'],
        runtimeCaching: [{ urlPattern: /\/assets\/webllm-[^/]+\.js$/, handler: 'CacheFirst', options: { cacheName: 'anima-webllm-code', expiration: { maxEntries: 2 } } }],
        navigateFallback: 'index.html',
      },
    }),
  ],
  worker: {
    format: 'es',
    // WebLLM's chunk gets a name of its own, for the service worker's rules above.
    rolldownOptions: { output: { chunkFileNames: (chunk) => (chunk.moduleIds.some((id) => id.includes('@mlc-ai/web-llm')) ? 'assets/webllm-[hash].js' : 'assets/[name]-[hash].js') } },
  },
  build: { target: 'es2022', sourcemap: false },
  test: {
    include: ['src/**/*.test.ts', 'tests/unit/**/*.test.ts'],
    globalSetup: ['tests/unit/global-setup.ts'],
    environment: 'node',
    // CI reads the counts from this report (see .ci/run).
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'reports/unit.json' }]] : ['default'],
  },
});
