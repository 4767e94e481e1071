import { type RunningServer, startEverythingServer } from '../../src/core/testing/mcp-servers.ts';
import { expect, test } from './fixtures.ts';

/**
 * Tool servers with the browser as the real MCP client (the SDK in the agent worker):
 * server-everything over Streamable HTTP, started here from npm, whose CORS allows any origin and
 * exposes mcp-session-id. It cannot start: the tests fail, saying why.
 */
let everything: RunningServer;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  everything = await startEverythingServer();
});

test.afterAll(async () => {
  await everything?.stop();
});

test.describe('Tool servers in the browser', () => {
  test.beforeEach(async ({ settings }) => {
    await settings.open();
  });

  test('a server is added, its tools shown with schemas and annotations, and a grant kept across a reload', async ({
    page,
    settings,
  }) => {
    const panel = page.getByRole('region', { name: 'Tool servers' });
    const form = panel.getByRole('form', { name: 'Add a tool server' });
    await form.getByLabel('Name').fill('everything');
    await form.getByLabel('Address').fill(everything.url);
    await form.getByRole('button', { name: 'Add tool server' }).click();

    const tools = panel.getByRole('list', { name: 'Tools of everything' });
    const echo = tools.getByRole('listitem').filter({ hasText: 'Grant echo' });
    await expect(echo).toContainText('read-only, idempotent');
    await expect(echo).toContainText('Echoes back the input string');
    await echo.getByText('Input schema of echo').click();
    await expect(echo.locator('pre')).toContainText('"required": [\n    "message"\n  ]');

    const grant = echo.getByRole('checkbox', { name: 'Grant echo' });
    await expect(grant).not.toBeChecked();
    await grant.check();
    await expect(grant).toBeChecked();

    await page.reload();
    await settings.open();
    await expect(
      page
        .getByRole('region', { name: 'Tool servers' })
        .getByRole('list', { name: 'Tools of everything' })
        .getByRole('checkbox', { name: 'Grant echo' }),
    ).toBeChecked();
  });

  test('a server that does not answer is not added, and the reason is said', async ({ page }) => {
    const panel = page.getByRole('region', { name: 'Tool servers' });
    const form = panel.getByRole('form', { name: 'Add a tool server' });
    await form.getByLabel('Name').fill('gone');
    await form.getByLabel('Address').fill('http://127.0.0.1:9/mcp');
    await form.getByRole('button', { name: 'Add tool server' }).click();
    await expect(panel.getByRole('alert')).toContainText(
      'the tool server gone cannot be reached at http://127.0.0.1:9/mcp',
    );
    await expect(panel.getByText('No tool server yet.')).toBeVisible();
  });
});
