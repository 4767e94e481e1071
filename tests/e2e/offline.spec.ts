import { expect, test } from '@playwright/test';
import { AppShell, SCREEN_TITLES } from './page-models/app-shell.ts';

/** The triple count the Knowledge screen shows, once the app has opened its database. */
async function shownTripleCount(page: import('@playwright/test').Page): Promise<number> {
  const count = page.getByLabel('Triples', { exact: true });
  await expect(count).toHaveText(/[1-9]/);
  return Number((await count.textContent())!.replace(/\D/g, ''));
}

test('after one online visit, the app reloads and works with the network off', async ({ page, context }) => {
  await page.goto('/#/knowledge');
  const online = await shownTripleCount(page);
  // The service worker takes control of the page once it has precached the app shell.
  await page.waitForFunction(
    async () => (await navigator.serviceWorker.ready) !== null && navigator.serviceWorker.controller !== null,
  );

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Knowledge' })).toBeVisible();
  expect(await shownTripleCount(page)).toBe(online);
  // The worker still answers: a search runs against the stored graph.
  await page.getByRole('searchbox', { name: 'Search symbols' }).fill('mars');
  await expect(page.getByRole('button', { name: /^Mars/ }).first()).toBeVisible();
});

test('after one online visit, every screen opens offline, with its data from the agent', async ({ page, context }) => {
  const shell = new AppShell(page);
  await page.goto('/#/knowledge');
  await shownTripleCount(page);
  // Only the home screen was loaded; the service worker fetched the other screens' code meanwhile.
  await page.waitForFunction(
    async () => (await navigator.serviceWorker.ready) !== null && navigator.serviceWorker.controller !== null,
  );

  await context.setOffline(true);
  await page.reload();
  await shownTripleCount(page);
  // What each screen shows once the agent (its slice fetched now, offline) has answered.
  const shown = {
    Start: page.getByRole('button', { name: 'Explore the starter graph' }),
    Goals: page.getByRole('region', { name: 'Add a goal', exact: true }),
    Cycles: page.getByRole('region', { name: 'Reflections', exact: true }),
    Knowledge: page.getByLabel('Triples', { exact: true }),
    Memory: page.getByRole('region', { name: 'Working memory', exact: true }),
    Psyche: page
      .getByRole('region', { name: 'Current psyche', exact: true })
      .getByText(/Persona/)
      .first(),
    Personas: page.getByRole('region', { name: 'Personas', exact: true }),
    Models: page.getByRole('region', { name: 'WebLLM models', exact: true }),
    Approvals: page.getByRole('region', { name: 'Waiting for you', exact: true }),
    Sessions: page.getByRole('region', { name: 'Sessions on this device', exact: true }).getByText('My session'),
    Settings: page.getByRole('region', { name: 'Agent', exact: true }),
  };
  for (const title of SCREEN_TITLES) {
    await shell.goTo(title);
    await expect(shown[title], `${title} shows its content offline`).toBeVisible();
    await expect(page.getByText(/could not be fetched/), `${title} was saved for offline use`).toHaveCount(0);
  }
});

test('control: with the service worker blocked, the same offline reload fails', async ({ browser }) => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto('/#/knowledge');
  await shownTripleCount(page);
  await context.setOffline(true);
  await expect(page.reload()).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
  await context.close();
});
