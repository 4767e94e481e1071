import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { configDefaults, defineConfig } from 'vitest/config';
import { CONTENT_SECURITY_POLICY, DEV_SERVER_HEADERS, SECURITY_HEADERS } from './src/security-headers.ts';
import { ENGINE_CODE_CACHES } from './workers/engine-code.ts';

/** The chunk name of an in-browser engine's code, which the service worker caches at run time. */
function engineChunkName(moduleIds: readonly string[]): string | undefined {
  // By the modules that import each engine's code (the wasm's address alone, in the host's chunk, is not it).
  if (moduleIds.some((id) => id.endsWith('/workers/webllm-code.ts'))) return 'webllm';
  if (moduleIds.some((id) => id.endsWith('/workers/wllama-code.ts'))) return 'wllama';
  return undefined;
}

/**
 * Puts the policy and the referrer policy first in the built page's head, before anything they
 * govern, for a static host that sends no headers (the headers of `npm start` say the same, and
 * more). Only in the build: `vite dev` injects its CSS as inline <style> elements, which this
 * policy refuses (its headers allow them, see DEV_SERVER_HEADERS).
 */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'anima-content-security-policy',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY },
        injectTo: 'head-prepend',
      },
      {
        tag: 'meta',
        attrs: { name: 'referrer', content: SECURITY_HEADERS['Referrer-Policy'] },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig({
  // sparql-http-client's default fetch is never used (see src/core/sparql/native-fetch.ts).
  resolve: { alias: { 'nodeify-fetch': fileURLToPath(new URL('./src/core/sparql/native-fetch.ts', import.meta.url)) } },
  server: { headers: DEV_SERVER_HEADERS },
  preview: { headers: SECURITY_HEADERS },
  // For `vite dev`: wllama's esm/index.js is one bundle already; served as it is.
  optimizeDeps: { exclude: ['@wllama/wllama'] },
  plugins: [
    svelte(),
    contentSecurityPolicy(),
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
        // WebLLM's code (6 MB) and llama.cpp's (wllama: 400 KB of JS, a 9 MB wasm, which no glob
        // here takes) are not part of a first visit: each is cached the first time a model needs it,
        // and from then on served from that cache, offline too.
        globIgnores: ['**/webllm.*.js', '**/wllama.*.js'],
        runtimeCaching: [
          {
            urlPattern: /\/assets\/webllm\.[^/]+\.js$/,
            handler: 'CacheFirst',
            options: {
              cacheName: ENGINE_CODE_CACHES.webllm,
              expiration: { maxEntries: 2 },
              matchOptions: { ignoreVary: true },
            },
          },
          // Its JS and its wasm: room for both, from this version and the one before. A module import
          // sends an Origin header the cached response may Vary on: it must match all the same.
          {
            urlPattern: /\/assets\/(wllama\.[^/]+\.js|wllama-[^/]+\.wasm)$/,
            handler: 'CacheFirst',
            options: {
              cacheName: ENGINE_CODE_CACHES.wllama,
              expiration: { maxEntries: 4 },
              matchOptions: { ignoreVary: true },
            },
          },
        ],
        navigateFallback: 'index.html',
      },
    }),
  ],
  worker: {
    format: 'es',
    // WebLLM's and wllama's chunks get names of their own, for the service worker's rules above:
    // the engine's name and a dot, which no module's chunk has (webllm-host's, say, is precached).
    // wllama's wasm is named after its file already: assets/wllama-[hash].wasm.
    rolldownOptions: {
      output: {
        chunkFileNames: (chunk) => {
          const engine = engineChunkName(chunk.moduleIds);
          return engine ? `assets/${engine}.[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
  // ANIMA_DIST lets parallel e2e runs (one per working copy or helper) build and serve apart.
  build: { target: 'es2022', sourcemap: false, outDir: process.env.ANIMA_DIST ?? 'dist' },
  test: {
    include: ['src/**/*.test.ts', 'tests/unit/**/*.test.ts'],
    // Tests of real files the repository may not hold run only where ANIMA_SHARED_FIXTURES names
    // their folder (tests/unit/shared-fixtures.ts); elsewhere they are not part of the suite.
    exclude: process.env.ANIMA_SHARED_FIXTURES
      ? configDefaults.exclude
      : [...configDefaults.exclude, '**/*.shared-fixtures.test.ts'],
    globalSetup: ['tests/unit/global-setup.ts'],
    environment: 'node',
    // Vitest's 5 s default fails tests that take 2 s on an idle 2-core machine once it is loaded
    // (CI shares it); the heaviest tests set longer timeouts of their own.
    testTimeout: 15_000,
  },
});
