import { startOpenAiServer } from '#core/testing/openai-server.ts';
import { type RunningServer, startEverythingServer } from '../../src/core/testing/mcp-servers.ts';
import { expect, test } from './fixtures.ts';
import { RUN_TIMEOUT_MS } from './page-models/goals-page.ts';

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

/** A symbol the starter graph does not know: only the model can say what it is. */
const ZORBLAX = { description: 'What is Zorblax', criteria: 'Zorblax is-a ?x' };
const callOf = (tool: string, input: unknown) => ({ text: JSON.stringify({ kind: 'tool_call', tool, input }) });

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

  test('a bound model calls a granted read-only tool at once; one not marked read-only waits, is approved after a reload, and runs', async ({
    page,
    shell,
    settings,
    goals,
    cycles,
    approvals,
  }) => {
    const model = await startOpenAiServer([
      callOf('mcp.everything.echo', { message: 'Zorblax' }),
      callOf('mcp.everything.toggle-simulated-logging', {}),
      {
        text: JSON.stringify({
          kind: 'final',
          answer: 'Zorblax is a moon.',
          triples: [{ subject: 'Zorblax', predicate: 'is-a', object: 'Moon', confidence: 0.9 }],
        }),
      },
    ]);
    try {
      const panel = page.getByRole('region', { name: 'Tool servers' });
      const form = panel.getByRole('form', { name: 'Add a tool server' });
      await form.getByLabel('Name').fill('everything');
      await form.getByLabel('Address').fill(everything.url);
      await form.getByRole('button', { name: 'Add tool server' }).click();
      const tools = panel.getByRole('list', { name: 'Tools of everything' });
      for (const tool of ['echo', 'toggle-simulated-logging']) {
        const grant = tools.getByRole('checkbox', { name: `Grant ${tool}`, exact: true });
        await grant.check();
        await expect(grant).toBeChecked();
      }
      await settings.languageModel.saveEndpoint({ baseUrl: model.baseUrl, model: 'tiny-test' });
      await expect(settings.languageModel.saveStatus).toContainText('Saved');

      await shell.goTo('Goals');
      await goals.addGoal(ZORBLAX);
      await goals.run.runUntilDoneButton.click();
      await expect(goals.status(ZORBLAX.description)).toContainText('Waiting for you', { timeout: RUN_TIMEOUT_MS });
      // The read-only tool ran, and the model read what it said.
      expect(JSON.stringify(model.requests[1]!.body.messages)).toContain('Echo: Zorblax');

      await shell.goTo('Approvals');
      const pending = approvals.pending('mcp.everything.toggle-simulated-logging', ZORBLAX.description);
      await expect(approvals.value(pending, 'Pattern')).toContainText('not-read-only');
      await expect(pending).toContainText(
        'the tool server everything does not mark toggle-simulated-logging read-only',
      );

      await page.reload();
      await expect(approvals.value(pending, 'Status')).toContainText('Pending', { timeout: 45_000 });
      await approvals.approve(pending);
      await expect(approvals.status('Approved: run the agent to carry it out.')).toBeVisible();

      await shell.goTo('Goals');
      await goals.run.runOneButton.click();
      await goals.run.waitForRunEnd();
      await expect(goals.status(ZORBLAX.description)).toContainText('Completed');
      await shell.goTo('Cycles');
      const newest = cycles.entries().first();
      await expect(newest.getByRole('group', { name: 'Tool', exact: true })).toContainText(
        'mcp.everything.toggle-simulated-logging',
      );
      await expect(newest).toContainText('simulated');
    } finally {
      await model.close();
    }
  });

  test("a model's bad input goes back naming the field, a veto refuses a tool, and a server that stopped fails only its call", async ({
    page,
    shell,
    settings,
    psyche,
    goals,
  }) => {
    const stopping = await startEverythingServer();
    const model = await startOpenAiServer([
      callOf('mcp.everything.get-sum', { a: 'one', b: 2 }),
      callOf('mcp.everything.get-sum', { a: 1, b: 2 }),
      callOf('mcp.everything.get-tiny-image', {}),
      callOf('mcp.gone.echo', { message: 'hi' }),
      { text: JSON.stringify({ kind: 'final', answer: 'Zorblax is unknown.', triples: [] }) },
    ]);
    try {
      const panel = page.getByRole('region', { name: 'Tool servers' });
      const form = panel.getByRole('form', { name: 'Add a tool server' });
      for (const [name, url] of [
        ['everything', everything.url],
        ['gone', stopping.url],
      ] as const) {
        await form.getByLabel('Name').fill(name);
        await form.getByLabel('Address').fill(url);
        await form.getByRole('button', { name: 'Add tool server' }).click();
        await expect(panel.getByRole('list', { name: `Tools of ${name}` })).toBeVisible();
      }
      for (const [server, tool] of [
        ['everything', 'get-sum'],
        ['everything', 'get-tiny-image'],
        ['gone', 'echo'],
      ] as const) {
        const grant = panel
          .getByRole('list', { name: `Tools of ${server}` })
          .getByRole('checkbox', { name: `Grant ${tool}`, exact: true });
        await grant.check();
        await expect(grant).toBeChecked();
      }
      await settings.languageModel.saveEndpoint({ baseUrl: model.baseUrl, model: 'tiny-test' });
      await expect(settings.languageModel.saveStatus).toContainText('Saved');
      await stopping.stop();

      await shell.goTo('Psyche');
      await psyche.importToml(
        '[[shadow.veto_patterns]]\nname = "no-images"\ntriggers = ["get-tiny-image"]\nseverity = 1.0\nexplanation = "No images."\n',
      );
      await shell.goTo('Goals');
      await goals.addGoal(ZORBLAX);
      // kg_query, then reason, whose model calls the tools.
      await goals.run.runCycles(2);
      const lastMessage = (index: number) =>
        JSON.stringify((model.requests[index]!.body.messages as { content: string }[]).at(-1)!.content);
      expect(lastMessage(1)).toContain('at input.a: mcp.everything.get-sum does not take this input');
      expect(lastMessage(2)).toContain('The sum of 1 and 2 is 3');
      expect(lastMessage(3)).toContain("the agent's shadow blocks this (no-images");
      expect(lastMessage(4)).toContain('the tool server gone cannot be reached');
      // The run went on: the model answered after the failed call, and the cycle ended.
      expect(model.requests).toHaveLength(5);
      await expect(goals.run.status).toContainText('Ran 2 cycles');
    } finally {
      await model.close();
      await stopping.stop();
    }
  });
});
