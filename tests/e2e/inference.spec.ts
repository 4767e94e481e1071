import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startOpenAiServer } from '#core/testing/openai-server.ts';
import { expect, test } from './fixtures.ts';
import { RUN_TIMEOUT_MS } from './page-models/goals-page.ts';

/**
 * A local OpenAI-compatible server, started in the test process, plays the model: each test
 * scripts its replies, consumed in order (one more than a run needs where it may ask again).
 * The app's worker calls it from the page's origin, across origins (the server allows that).
 */

/** A symbol the starter graph does not know: only the model can say what it is. */
const ZORBLAX = { description: 'What is Zorblax', criteria: 'Zorblax is-a ?x' };

/** The model's answer to the reason tool: a final answer and the fact it stands on, more confident than a model may be. */
const ZORBLAX_ANSWER = JSON.stringify({
  kind: 'final',
  answer: 'Zorblax is a moon of Kepler.',
  triples: [{ subject: 'Zorblax', predicate: 'is-a', object: 'Moon', confidence: 0.9 }],
});

test('a model on an OpenAI-compatible endpoint answers the check, then helps a goal: its fact is capped and says a model said it', async ({
  shell,
  settings,
  goals,
  cycles,
  knowledge,
}) => {
  const server = await startOpenAiServer([
    { text: '{"city":"Paris"}', promptTokens: 42, completionTokens: 7 },
    { text: ZORBLAX_ANSWER, promptTokens: 300, completionTokens: 60 },
    { text: ZORBLAX_ANSWER, promptTokens: 300, completionTokens: 60 },
  ]);
  try {
    const model = settings.languageModel;
    await goals.open();
    await expect(goals.run.boundModel).toContainText('Model: none.');
    await goals.run.settingsLink.click();
    await expect(model.provider('None (symbolic engine alone)')).toBeChecked();

    await model.saveEndpoint({ baseUrl: server.baseUrl, model: 'tiny-test' });
    await expect(model.saveStatus).toHaveText('Saved: runs bind tiny-test (OpenAI-compatible), with no limits.');
    await model.checkButton.click();
    await expect(model.checkResult).toContainText('Answer: Paris');
    await expect(model.checkResult).toContainText(
      'tiny-test (OpenAI-compatible): 1 attempt, 42 prompt + 7 completion tokens.',
    );

    await shell.goTo('Goals');
    await expect(goals.run.boundModel).toContainText('Model: tiny-test (OpenAI-compatible).');
    await goals.addGoal(ZORBLAX);
    await goals.run.runUntilDoneButton.click();
    await expect(goals.status(ZORBLAX.description)).toContainText('Completed', { timeout: RUN_TIMEOUT_MS });
    await goals.run.waitForRunEnd();
    await expect(goals.run.status).toContainText('tiny-test (OpenAI-compatible): 1 request, 300 tokens in, 60 out');

    await shell.goTo('Cycles');
    await expect(cycles.tool(1)).toContainText('kg_query');
    await expect(cycles.modelUse(1)).toHaveCount(0);
    await expect(cycles.tool(2)).toContainText('reason');
    await expect(cycles.modelUse(2)).toHaveText(
      'Model: tiny-test (OpenAI-compatible): 1 request, 300 prompt + 60 completion tokens',
    );

    await shell.goTo('Knowledge');
    await knowledge.openSymbol('Zorblax');
    const row = knowledge.factRow(knowledge.outgoingTable, 'Zorblax', 'is-a', 'Moon');
    await expect(row).toContainText('0.70');
    await knowledge.whyButton(row).click();
    await expect(knowledge.explanation(knowledge.outgoingTable, 'Zorblax', 'is-a', 'Moon')).toContainText(
      'Said by a model',
    );
  } finally {
    await server.close();
  }
});

test("a bound model writes a goal's findings in the persona's voice; the facts beneath are the graph's", async ({
  shell,
  settings,
  goals,
}) => {
  const prose =
    'Aye, every mammal here I have seen with my own eyes [1], and more besides [2]. <img src=x onerror="window.__xss=1">';
  const server = await startOpenAiServer([{ text: JSON.stringify({ kind: 'final', text: prose, cites: [1, 2] }) }]);
  try {
    await goals.open();
    await goals.addGoal({ description: 'Find mammals', criteria: '?x is-a mammal, at least 5' });
    await goals.run.runUntilDoneButton.click();
    await expect(goals.status('Find mammals')).toContainText('Completed', { timeout: RUN_TIMEOUT_MS });
    await goals.showFindings('Find mammals');
    await goals.findings('Find mammals').getByRole('button', { name: 'Write up' }).click();
    const voiced = goals.findings('Find mammals').getByRole('group', { name: "In the persona's voice", exact: true });

    // No model yet: it says where to choose one.
    await voiced.getByRole('button', { name: 'Write with the model' }).click();
    await expect(voiced).toContainText('No language model is chosen. Choose one under Settings, Language model');

    await shell.goTo('Settings');
    await settings.languageModel.saveEndpoint({ baseUrl: server.baseUrl, model: 'tiny-test' });
    await expect(settings.languageModel.saveStatus).toHaveText(/^Saved: runs bind tiny-test/);
    await shell.goTo('Goals');
    await goals.showFindings('Find mammals');
    await goals.findings('Find mammals').getByRole('button', { name: 'Write up' }).click();
    await voiced.getByRole('button', { name: 'Write with the model' }).click();
    await expect(voiced.getByLabel("Write-up in the persona's voice")).toHaveText(prose);
    await expect(voiced).toContainText('Written as Scholar by tiny-test.');
    const findings = voiced.getByRole('list', { name: 'Findings the write-up stands on' }).getByRole('listitem');
    await expect(findings.first()).toHaveText(/ -> subClassOf -> Mammal \[\d\.\d\d\]$/);
    await expect(findings.nth(2)).toContainText('(not cited)');
    expect(await voiced.page().evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    // The model was told the findings by number.
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('[1] ');
  } finally {
    await server.close();
  }
});

test('an API key is sent as a bearer token, never shown again, and can be removed', async ({ page, settings }) => {
  const server = await startOpenAiServer([{ text: '{"city":"Paris"}' }, { text: '{"city":"Paris"}' }]);
  try {
    const model = settings.languageModel;
    await settings.open();
    await model.saveEndpoint({ baseUrl: server.baseUrl, model: 'tiny-test', apiKey: 'sk-test-key' });
    await expect(model.saveStatus).toHaveText(/^Saved: runs bind tiny-test/);
    await expect(model.apiKeyInput).toHaveValue('');
    await expect(model.region).toContainText('A key is stored on this device.');

    await model.checkButton.click();
    await expect(model.checkResult).toContainText('Answer: Paris');
    expect(server.requests.at(-1)?.authorization).toBe('Bearer sk-test-key');

    await page.reload();
    await expect(model.apiKeyInput).toHaveValue('', { timeout: 45_000 });
    await model.removeKeyButton.click();
    await expect(model.saveStatus).toHaveText('The API key is removed from this device.');
    await expect(model.region).toContainText('no key is stored');
    await model.checkButton.click();
    await expect(model.checkResult).toContainText('Answer: Paris');
    expect(server.requests.at(-1)?.authorization).toBeUndefined();
  } finally {
    await server.close();
  }
});

test('a model marked as seeing images stays marked after a reload', async ({ page, settings }) => {
  const model = settings.languageModel;
  await settings.open();
  await model.saveEndpoint({ baseUrl: 'http://127.0.0.1:9/v1', model: 'llava-test' });
  await expect(model.saveStatus).toHaveText(/^Saved: runs bind llava-test/);
  await expect(model.visionCheckbox).not.toBeChecked();
  await model.visionCheckbox.check();
  await model.saveButton.click();
  await expect(model.saveStatus).toHaveText(/^Saved: runs bind llava-test/);
  await page.reload();
  await expect(model.visionCheckbox).toBeChecked({ timeout: 45_000 });
  await model.visionCheckbox.uncheck();
  await model.saveButton.click();
  await expect(model.saveStatus).toHaveText(/^Saved: runs bind llava-test/);
  await page.reload();
  await expect(model.visionCheckbox).not.toBeChecked({ timeout: 45_000 });
});

test('a refused field is named, and an endpoint that fails shows the bottleneck with its message', async ({
  settings,
}) => {
  const server = await startOpenAiServer([
    { status: 500, body: '{"error":{"message":"the model is overloaded"}}' },
    { status: 500, body: '{"error":{"message":"the model is overloaded"}}' },
  ]);
  try {
    const model = settings.languageModel;
    await settings.open();
    await model.saveEndpoint({ baseUrl: 'localhost:8080', model: 'tiny-test', limits: { Requests: 0 } });
    await expect(model.saveAlert).toContainText(
      'Requests: Enter a whole number above 0, or leave it empty for no limit.',
    );
    await model.limit('Requests').fill('');
    await model.saveButton.click();
    await expect(model.saveAlert).toContainText('Base URL: the base URL must be an http(s) address');
    await expect(model.baseUrlInput).toHaveAttribute('aria-invalid', 'true');

    await model.baseUrlInput.fill(server.baseUrl);
    await model.saveButton.click();
    await expect(model.saveStatus).toHaveText(/^Saved: runs bind tiny-test/);
    await model.checkButton.click();
    await expect(model.checkResult).toContainText(
      'Bottleneck: dependency unavailable — openai-compatible (tiny-test):',
    );
    await expect(model.checkResult).toContainText('answered HTTP 500: the model is overloaded');
  } finally {
    await server.close();
  }
});

test('a run stops once its budget is spent, and says which limit', async ({ shell, settings, goals, cycles }) => {
  // The first answer is not JSON: the model is asked again, but the one request the run may make is spent.
  const server = await startOpenAiServer([
    { text: 'Zorblax is a moon, I think.' },
    { text: ZORBLAX_ANSWER },
    { text: ZORBLAX_ANSWER },
  ]);
  try {
    const model = settings.languageModel;
    await settings.open();
    await model.saveEndpoint({ baseUrl: server.baseUrl, model: 'tiny-test', limits: { Requests: 1 } });
    await expect(model.saveStatus).toHaveText('Saved: runs bind tiny-test (OpenAI-compatible), within 1 request each.');

    await shell.goTo('Goals');
    await goals.addGoal(ZORBLAX);
    await goals.run.runUntilDoneButton.click();
    await goals.run.waitForRunEnd();
    await expect(goals.run.status).toContainText("Stopped: the run's budget is spent (1 model request of 1).");
    await expect(goals.run.status).toContainText('tiny-test (OpenAI-compatible): 1 request,');
    await expect(goals.status(ZORBLAX.description)).toContainText('Active');
    expect(server.requests).toHaveLength(1);

    await shell.goTo('Cycles');
    await expect(cycles.modelUse(2)).toContainText('Model: tiny-test (OpenAI-compatible): 1 request');
    await expect(cycles.modelUse(2)).toContainText(
      "Bottleneck: budget exhausted — the run's budget is spent: 1 request, the limit is 1",
    );
  } finally {
    await server.close();
  }
});

test('a check that waits on a silent endpoint can be cancelled', async ({ settings }) => {
  // An endpoint that lets the page call it but never answers the call itself.
  const silent = createServer((request, response) => {
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', 'content-type, authorization');
    response.setHeader('access-control-allow-methods', 'POST, OPTIONS');
    if (request.method === 'OPTIONS') response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const model = settings.languageModel;
    await settings.open();
    await model.saveEndpoint({
      baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`,
      model: 'tiny-test',
    });
    await expect(model.saveStatus).toHaveText(/^Saved: runs bind tiny-test/);
    await model.checkButton.click();
    await expect(model.checkResult).toHaveText('Checking the model…');
    await expect(model.checkButton).toBeDisabled();
    await model.cancelCheckButton.click();
    await expect(model.checkResult).toHaveText('The check was cancelled.');
    await expect(model.cancelCheckButton).toHaveCount(0);
    await expect(model.checkButton).toBeEnabled();
  } finally {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the language model settings fit without sideways scrolling', async ({ shell, settings }) => {
    await settings.open();
    await settings.languageModel.provider('OpenAI-compatible endpoint').check();
    await expect(settings.languageModel.baseUrlInput).toBeVisible();
    expect(await shell.pageWidth()).toBeLessThanOrEqual(360);
  });
});
