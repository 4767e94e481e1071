import { expect, test } from '@playwright/test';

/** The triple count the Knowledge screen shows, once the app has opened its database. */
async function shownTripleCount(page: import('@playwright/test').Page): Promise<number> {
  const count = page.getByLabel('Triples', { exact: true });
  await expect(count).toHaveText(/[1-9]/);
  return Number((await count.textContent())!.replace(/\D/g, ''));
}

test('after one online visit, the app reloads and works with the network off', async ({ page, context }) => {
  await page.goto('/');
  const online = await shownTripleCount(page);
  // The service worker takes control of the page once it has precached the app shell.
  await page.waitForFunction(async () => (await navigator.serviceWorker.ready) !== null && navigator.serviceWorker.controller !== null);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Knowledge' })).toBeVisible();
  expect(await shownTripleCount(page)).toBe(online);
  // The worker still answers: a search runs against the stored graph.
  await page.getByRole('searchbox', { name: 'Search symbols' }).fill('mars');
  await expect(page.getByRole('button', { name: /^Mars/ }).first()).toBeVisible();
});

test('control: with the service worker blocked, the same offline reload fails', async ({ browser }) => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto('/');
  await shownTripleCount(page);
  await context.setOffline(true);
  await expect(page.reload()).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
  await context.close();
});
