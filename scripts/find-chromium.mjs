import { existsSync } from 'node:fs';

/**
 * The browser the e2e tests use: CHROMIUM_PATH, then Debian's /usr/bin/chromium, then one that
 * Playwright already has. Returns undefined when there is none.
 */
export async function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  try {
    const { chromium } = await import('@playwright/test');
    const bundled = chromium.executablePath();
    if (bundled && existsSync(bundled)) return bundled;
  } catch {
    // Playwright has no browser of its own here: fall through.
  }
  return undefined;
}

/**
 * The flags every headless Chromium of this project starts with (tests, benchmarks, icon
 * rendering): without the networking ones, this machine's closed network refuses its calls.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
