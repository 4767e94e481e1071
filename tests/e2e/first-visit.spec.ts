import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

/** What a first visit may load, gzipped, before the home screen is interactive (scripts/report-size.mjs has the same budget). */
const FIRST_VISIT_BUDGET_BYTES = 250 * 1024;

test('a first visit loads under 250 KB of HTML, CSS and JS before the start screen is interactive', async ({
  browser,
}) => {
  // No service worker: it would precache every screen in the background, which a first visit does not wait for.
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const requested: import('@playwright/test').Request[] = [];
  // The agent worker's requests are the page's too (its script and every chunk it imports).
  page.on('request', (request) => requested.push(request));

  await page.goto('/');
  // Interactive: the start screen shows, and the session is open (its ways in are enabled once it is).
  await expect(page.getByRole('heading', { level: 1, name: 'Start' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Explore the starter graph' })).toBeEnabled();
  const beforeInteractive = [...requested];

  const code = beforeInteractive.filter(
    (request) =>
      new URL(request.url()).origin === new URL(page.url()).origin &&
      (request.resourceType() === 'document' || /\.(js|css)$/.test(new URL(request.url()).pathname)),
  );
  const sizes = await Promise.all(
    code.map(async (request) => {
      const response = await request.response();
      expect(response?.ok(), `${request.url()} loaded`).toBe(true);
      return { url: new URL(request.url()).pathname, gzipBytes: gzipSync(await response!.body(), { level: 9 }).length };
    }),
  );
  const total = sizes.reduce((sum, { gzipBytes }) => sum + gzipBytes, 0);
  const listing = sizes.map(({ url, gzipBytes }) => `${(gzipBytes / 1024).toFixed(1)} KB ${url}`).join('\n');

  // The page, its script and style, and the agent worker were all counted.
  expect(
    sizes.some(({ url }) => url === '/'),
    listing,
  ).toBe(true);
  expect(
    sizes.some(({ url }) => /\/assets\/index-[\w-]+\.css$/.test(url)),
    listing,
  ).toBe(true);
  expect(
    sizes.some(({ url }) => /\/assets\/agent\.worker-[\w-]+\.js$/.test(url)),
    listing,
  ).toBe(true);
  // Screens other than the start screen are not part of it.
  expect(
    sizes.some(({ url }) => /knowledge-screen|personas-screen|goals-screen|settings-screen/.test(url)),
    listing,
  ).toBe(false);
  expect(total, listing).toBeLessThan(FIRST_VISIT_BUDGET_BYTES);
  await context.close();
});
