/**
 * The app's Content-Security-Policy and the other security headers, in one place for the built
 * page's <meta> (vite.config.ts), the headers of `npm start` and `npm run dev` (vite.config.ts),
 * and the lines for a static host in docs/security.md (checked by tests/unit/docs-examples.test.ts).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  // No inline scripts and no eval; wasm may compile (WebLLM, llama.cpp through wllama).
  "script-src 'self' 'wasm-unsafe-eval'",
  // Svelte's style: directives write through the CSSOM, which style-src does not govern.
  "style-src 'self'",
  // An image artifact (PNG, JPEG, GIF, WebP only) is shown from a blob: URL of its own bytes, never fetched from the web.
  "img-src 'self' blob:",
  "manifest-src 'self'",
  // The engines run in the agent worker. Chromium gives a worker loaded from the app no part of
  // a <meta> policy, but some browsers do, and a blob: worker inherits it: wllama runs llama.cpp
  // in a worker made from a blob: URL, and hands it the wasm as one.
  "worker-src 'self' blob:",
  // Any web address: the user's OpenAI-compatible endpoint, GGUF files by URL, WebLLM's model
  // downloads (Hugging Face and others) and http_fetch's allowed addresses are all the user's
  // choice (http_fetch checks its own allowlist).
  "connect-src 'self' blob: http: https:",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * What a server sends with every response of the app: the policy, with what a <meta> cannot say
 * (no page may frame the app), no guessing of content types, and no Referer to any address the
 * app reaches (a user's endpoint or a model host learns nothing of where Anima runs).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The same for `vite dev`, whose styles arrive as inline <style> elements (the build has them in
 * files): the only difference is that inline styles are allowed.
 */
export const DEV_SERVER_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  'Content-Security-Policy': SECURITY_HEADERS['Content-Security-Policy']!.replace(
    "style-src 'self'",
    "style-src 'self' 'unsafe-inline'",
  ),
};
