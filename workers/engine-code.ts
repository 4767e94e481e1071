/**
 * Where the service worker keeps the in-browser engines' code (vite.config.ts serves these
 * caches CacheFirst): each engine's chunk (and wllama's wasm) is fetched only when a model
 * first needs it, and must then be there offline.
 */
export const ENGINE_CODE_CACHES = { webllm: 'anima-webllm-code', wllama: 'anima-wllama-code' } as const;

/**
 * Puts an engine's code files in its cache once it has loaded. The service worker's rule caches
 * them as they are fetched, but only for a worker it already controls, which the agent worker of
 * a first visit is not: without this, a model used on the first visit would not load offline.
 * Best effort: a failure here costs only offline use, and says so in the console.
 */
export async function keepEngineCodeForOffline(cacheName: string, urls: readonly string[]): Promise<void> {
  if (typeof caches === 'undefined') return;
  try {
    const cache = await caches.open(cacheName);
    await Promise.all(urls.map(async (url) => (await cache.match(url)) ?? cache.add(url)));
  } catch (error) {
    console.warn(
      `the engine's code could not be kept for offline use: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
