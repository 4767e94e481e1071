/**
 * What Anima's builds give sparql-http-client in place of its default fetch, nodeify-fetch: that
 * one wraps responses in Node streams (120 KB of polyfills) and reads `window` as it loads, which
 * a worker has not. Anima always passes its own fetch (protocol.ts), so this is never called; it
 * is the platform's fetch all the same.
 */
export default (input: string | URL, init?: RequestInit): Promise<Response> => fetch(input, init);
export const Headers = globalThis.Headers;
