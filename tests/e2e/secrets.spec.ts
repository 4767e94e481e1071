import { readFile } from 'node:fs/promises';
import { type ServerRequest, startOpenAiServer } from '#core/testing/openai-server.ts';
import { expect, test } from './fixtures.ts';
import type { ScreenTitle } from './page-models/app-shell.ts';
import { SessionsPage } from './page-models/sessions-page.ts';

/**
 * A key and a key in the base URL, both holding LEAK, go to an endpoint that refuses them and
 * echoes them back (as some servers do): nothing of either may show on any screen, or reach the
 * exported snapshot.
 */
const KEY = 'sk-LEAK-e2e-key-7d41c9a0b2';
const QUERY_KEY = 'qk-LEAK-e2e-query-5e8f';

/** Where a part of either shows up: the text around it (so a failure says where, without the whole page). */
const leaksIn = (text: string) => text.match(/.{0,60}LEAK.{0,30}/g) ?? [];

/** A 401 that echoes the key and the address it was sent to. */
const echo = (request: ServerRequest) =>
  JSON.stringify({
    error: {
      message: `Incorrect API key provided: ${request.authorization?.replace(/^Bearer /, '')} (for ${request.url})`,
    },
  });

test('a key an endpoint echoes back shows on no screen and is not in the exported snapshot', async ({
  page,
  shell,
  settings,
  goals,
  cycles,
}) => {
  const server = await startOpenAiServer([
    { status: 401, body: echo },
    { status: 401, body: echo },
  ]);
  try {
    const model = settings.languageModel;
    await settings.open();
    await model.saveEndpoint({ baseUrl: `${server.baseUrl}?key=${QUERY_KEY}`, model: 'tiny-test', apiKey: KEY });
    await expect(model.saveStatus).toHaveText(/^Saved: runs bind tiny-test/);
    // The form shows the address with its key masked, and says it is kept.
    await expect(model.baseUrlInput).toHaveValue(`${server.baseUrl}?key=[redacted]`);
    await expect(model.region).toContainText('stored on this device and not shown');
    await model.checkButton.click();
    await expect(model.checkResult).toContainText(
      'answered HTTP 401: Incorrect API key provided: [redacted] (for /v1/chat/completions?key=[redacted])',
    );

    await shell.goTo('Goals');
    await goals.addGoal({ description: 'What is Zorblax', criteria: 'Zorblax is-a ?x' });
    await goals.run.runCycles(3);
    await expect(goals.run.status).toContainText('The model could not be used (openai-compatible (tiny-test):');
    await expect(goals.run.status).toContainText('Incorrect API key provided: [redacted]');
    // The server was sent the key each time: the echo is of the real thing.
    expect(server.requests.map((request) => [request.authorization, request.url])).toEqual([
      [`Bearer ${KEY}`, `/v1/chat/completions?key=${QUERY_KEY}`],
      [`Bearer ${KEY}`, `/v1/chat/completions?key=${QUERY_KEY}`],
    ]);

    await shell.goTo('Cycles');
    await expect(cycles.modelUse(2)).toContainText('Incorrect API key provided: [redacted]');

    const screens: ScreenTitle[] = ['Goals', 'Cycles', 'Memory', 'Knowledge', 'Sessions', 'Settings'];
    for (const screen of screens) {
      await shell.goTo(screen);
      expect(leaksIn(await page.locator('body').innerText()), `the ${screen} screen`).toEqual([]);
      // Nor in a field's value (which innerText leaves out).
      const values = await page
        .locator('input, textarea')
        .evaluateAll((fields) => fields.map((field) => (field as HTMLInputElement).value));
      expect(leaksIn(values.join('\n')), `the ${screen} screen's fields`).toEqual([]);
    }

    const sessions = new SessionsPage(page);
    await sessions.open();
    const download = await sessions.exportFile('My session', 'JSON');
    const text = await readFile(await download.path(), 'utf8');
    expect(text).toContain('Incorrect API key provided: [redacted]');
    expect(leaksIn(text)).toEqual([]);
  } finally {
    await server.close();
  }
});
