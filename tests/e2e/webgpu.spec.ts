import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures.ts';
import { pretendDownloaded, pretendPartlyDownloaded } from './page-models/models-page.ts';

/**
 * Run only in the "webgpu" project: headless Chromium with --enable-unsafe-webgpu gives WebGPU
 * a software adapter (SwiftShader) without shader-f16. No model can be downloaded here (there is
 * no network), so a download shows how one fails without a network.
 */

const SMOL_F32 = 'SmolLM2-360M-Instruct-q4f32_1-MLC';
const SMOL_F16 = 'SmolLM2-360M-Instruct-q4f16_1-MLC';

test('the Models screen finds the adapter without shader-f16, offers f32 models only, and shows the others with the reason', async ({
  models,
}) => {
  await models.open();
  await expect(models.gpuRegion).toContainText('WebGPU found a GPU');
  await expect(models.gpuDetail('Adapter')).not.toHaveText(/^Adapter\s*$/);
  await expect(models.gpuDetail('shader-f16')).toContainText('No: only models with f32 weights can run');
  await expect(models.gpuDetail('Largest buffer')).toContainText(/\d (MB|GB)$/);

  // Only f32 models are offered, the recommended ones among them; none is downloaded.
  await expect(models.model(SMOL_F32)).toBeVisible();
  await expect(models.model(SMOL_F16)).toHaveCount(0);
  const weights = models.runnableList.getByRole('group', { name: 'Weights', exact: true });
  await expect(weights.first()).toBeVisible();
  await expect(weights.filter({ hasText: 'f16' })).toHaveCount(0);
  const recommended = models.runnableList.getByRole('article').filter({ hasText: 'Recommended' });
  await expect(recommended.first()).toBeVisible();
  for (const card of await recommended.all())
    await expect(card.getByRole('group', { name: 'Weights', exact: true })).toContainText('f32');
  await expect(models.listRegion.getByText('Downloaded', { exact: true })).toHaveCount(0);
  await expect(models.action(SMOL_F32, 'Use this model')).toHaveCount(0);

  const toggle = models.hiddenToggle();
  await expect(toggle).toHaveText(/^Show \d+ models this GPU cannot run$/);
  await toggle.click();
  await expect(toggle).toHaveText(/^Hide \d+ models this GPU cannot run$/);
  const noF16 = models.hiddenList.getByRole('list', {
    name: /^\d+ models? cannot run here: its f16 weights need shader-f16, which this GPU lacks\.$/,
  });
  await expect(noF16.getByRole('article', { name: new RegExp(`${SMOL_F16.replace(/[.]/g, '\\.')}$`) })).toBeVisible();
  await expect(models.hiddenList.getByRole('button')).toHaveCount(0);
});

test('without a network a download fails with a clear message, nothing is marked downloaded, and Repair deletes what it left, offline', async ({
  context,
  models,
}) => {
  await models.open();
  // Cut only now: listing the models has loaded WebLLM's code.
  await expect(models.action(SMOL_F32, 'Download')).toBeVisible();
  await context.setOffline(true);

  await models.action(SMOL_F32, 'Download').click();
  await expect(models.alert(SMOL_F32)).toContainText('SmolLM2 360M was not downloaded:', { timeout: 30_000 });
  await expect(models.alert(SMOL_F32)).toContainText(
    `this device is offline, so ${SMOL_F32} cannot be downloaded: connect once to download it; after that it runs offline`,
  );
  await expect(models.alert(SMOL_F32)).not.toContainText('Failed to fetch');
  await expect(models.action(SMOL_F32, 'Try again')).toBeVisible();
  await expect(models.action(SMOL_F32, 'Repair')).toBeVisible();
  await expect(models.model(SMOL_F32)).toContainText('Not downloaded');
  await expect(models.listRegion.getByText('Downloaded', { exact: true })).toHaveCount(0);

  // The Download button went away: keyboard focus moves to what is offered now.
  await expect(models.action(SMOL_F32, 'Try again')).toBeFocused();

  // Repair deletes what a broken download left, offline too; other models' files stay.
  await models.page.evaluate(async (id) => {
    const cache = await caches.open('webllm/model');
    await cache.put(
      `https://huggingface.co/mlc-ai/${id}/resolve/main/params_shard_0.bin`,
      new Response(new Uint8Array(8)),
    );
    await cache.put(
      'https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f32_1-MLC/resolve/main/params_shard_0.bin',
      new Response(new Uint8Array(8)),
    );
  }, SMOL_F32);
  await models.action(SMOL_F32, 'Repair').click();
  await expect(models.model(SMOL_F32).getByRole('status')).toHaveText(
    'Deleted what was fetched of SmolLM2 360M: a new download starts clean.',
  );
  const left = await models.page.evaluate(async () =>
    (await (await caches.open('webllm/model')).keys()).map((request) => new URL(request.url).pathname),
  );
  expect(left).toEqual(['/mlc-ai/Qwen2.5-0.5B-Instruct-q4f32_1-MLC/resolve/main/params_shard_0.bin']);
});

test('a download that stopped before a reload shows as partly downloaded, with Try again and Repair; Repair deletes what it left', async ({
  page,
  models,
}) => {
  const QWEN_F32 = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
  await models.open();
  await pretendPartlyDownloaded(page, SMOL_F32);
  await pretendPartlyDownloaded(page, QWEN_F32);
  await page.reload();

  const card = models.model(SMOL_F32);
  await expect(card.getByText('Partly downloaded', { exact: true })).toBeVisible({ timeout: 45_000 });
  await expect(models.action(SMOL_F32, 'Try again')).toBeVisible();
  await expect(models.action(SMOL_F32, 'Download')).toHaveCount(0);
  await expect(models.action(SMOL_F32, 'Use this model')).toHaveCount(0);
  await models.action(SMOL_F32, 'Repair').click();
  await expect(card.getByRole('status')).toHaveText(
    'Deleted what was fetched of SmolLM2 360M: a new download starts clean.',
  );
  await expect(card.getByText('Not downloaded', { exact: true })).toBeVisible();
  await expect(models.action(SMOL_F32, 'Download')).toBeFocused();
  await expect(models.action(SMOL_F32, 'Repair')).toHaveCount(0);

  // Only its own files went: the other stopped download is still there, and still offered a repair.
  await expect(models.model(QWEN_F32).getByText('Partly downloaded', { exact: true })).toBeVisible();
  await expect(models.action(QWEN_F32, 'Repair')).toBeVisible();
  await page.reload();
  await expect(card.getByText('Not downloaded', { exact: true })).toBeVisible({ timeout: 45_000 });
  await expect(models.action(SMOL_F32, 'Download')).toBeVisible();
});

test("Settings' WebLLM choice says no model is downloaded yet and links to the Models screen", async ({
  shell,
  settings,
}) => {
  await settings.open();
  const model = settings.languageModel;
  await model.provider("WebLLM (on this device's GPU)").check();
  await expect(model.region).toContainText('No model is downloaded on this device yet.', { timeout: 30_000 });
  await expect(model.webllmModelSelect).toHaveCount(0);
  await model.modelsScreenLink.click();
  await expect(shell.heading('Models')).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the Models screen with its models fits without sideways scrolling', async ({ shell, models }) => {
    await models.open();
    await expect(models.model(SMOL_F32)).toBeVisible();
    await models.hiddenToggle().click();
    await expect(models.model('Llama-3.1-8B-Instruct-q4f16_1-MLC')).toBeVisible();
    expect(await shell.pageWidth()).toBeLessThanOrEqual(360);
  });
});

test('a downloaded model is used for runs, keeping the other settings, shows in Settings, and is deleted after a question', async ({
  page,
  shell,
  models,
  settings,
  goals,
}) => {
  const model = settings.languageModel;
  await settings.open();
  await model.saveEndpoint({ baseUrl: 'http://127.0.0.1:9/v1', model: 'tiny-test', limits: { Requests: 3 } });
  await expect(model.saveStatus).toHaveText(/^Saved: runs bind tiny-test/);
  await pretendDownloaded(page, SMOL_F32);

  await shell.goTo('Models');
  const card = models.model(SMOL_F32);
  await expect(card.getByText('Downloaded', { exact: true })).toBeVisible();
  await expect(models.action(SMOL_F32, 'Download')).toHaveCount(0);
  await models.action(SMOL_F32, 'Use this model').click();
  await expect(card.getByRole('status')).toHaveText(
    'Runs now bind SmolLM2 360M (WebLLM). Your limits and other settings stay as they were.',
  );
  await expect(card.getByText('In use', { exact: true })).toBeVisible();
  await expect(models.action(SMOL_F32, 'Use this model')).toHaveCount(0);
  await expect(models.action(SMOL_F32, 'Delete')).toBeFocused();

  // Settings shows the choice among the downloaded models, with the limits and the endpoint kept.
  await shell.goTo('Settings');
  await expect(model.provider("WebLLM (on this device's GPU)")).toBeChecked();
  await expect(model.webllmModelSelect).toHaveValue(SMOL_F32);
  await expect(model.limit('Requests')).toHaveValue('3');
  await model.provider('OpenAI-compatible endpoint').check();
  await expect(model.baseUrlInput).toHaveValue('http://127.0.0.1:9/v1');
  await shell.goTo('Goals');
  await expect(goals.run.boundModel).toContainText(`Model: ${SMOL_F32} (WebLLM).`);

  // Deleting asks first (Escape keeps it), and says what runs do without the model.
  await shell.goTo('Models');
  await models.action(SMOL_F32, 'Delete').click();
  await expect(card.getByRole('group', { name: /^Delete SmolLM2 360M/ })).toContainText(
    'Runs bind it: until it is downloaded again, or you choose another, they use the symbolic engine alone.',
  );
  await expect(models.action(SMOL_F32, 'Delete the model')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(models.action(SMOL_F32, 'Delete')).toBeFocused();
  await models.action(SMOL_F32, 'Delete').click();
  await models.action(SMOL_F32, 'Delete the model').click();
  await expect(card.getByRole('status')).toHaveText(`Deleted SmolLM2 360M (${SMOL_F32}) from this device.`);
  await expect(card.getByText('Not downloaded', { exact: true })).toBeVisible();
  await expect(models.action(SMOL_F32, 'Download')).toBeFocused();

  // Still chosen, but not downloaded: Settings says what runs do meanwhile.
  await shell.goTo('Settings');
  await expect(model.webllmModelSelect).toHaveValue(SMOL_F32);
  await expect(model.webllmModelSelect.getByRole('option', { name: `${SMOL_F32} (not downloaded)` })).toHaveCount(1);
  await expect(model.region).toContainText('until the chosen one is downloaded, runs use the symbolic engine alone');
});

test('a model not in the list is added by address, fetched from there, used for runs, kept after a reload, and removed with its files after a question', async ({
  context,
  page,
  shell,
  models,
  settings,
}) => {
  const TINY = 'Tiny-Chat-q4f32_1-MLC';
  const weights = `https://models.example/${TINY}`;
  const library = 'https://models.example/libs/tiny-q4f32_1-webgpu.wasm';
  // The model's server: it records what WebLLM asks for, and has nothing to give.
  const asked: string[] = [];
  await context.route('https://models.example/**', (route) => {
    asked.push(route.request().url());
    return route.fulfill({ status: 404, body: 'no such model' });
  });
  await models.open();
  const form = models.customForm;
  await form.openButton.click();
  await expect(form.field('Model id')).toBeFocused();
  // What WebLLM 0.2.86 needs of a model's files, said before anything is typed.
  await expect(form.region).toContainText("Anima runs WebLLM 0.2.86: the weights' folder needs a tensor-cache.json");
  await expect(form.region).toContainText("must be built for this WebLLM's runtime");
  await expect(form.region).toContainText("Built for WebLLM 0.2.86's runtime, as the libraries of its own models are.");

  // Each problem shows beside its field; nothing is added.
  await form.add({
    'Model id': 'a model',
    'Weights address': weights,
    'Model library address (.wasm)': 'https://models.example/libs/tiny.js',
  });
  await expect(form.alert()).toHaveText('The model was not added:');
  // Focus goes to the first field with a problem.
  await expect(form.field('Model id')).toBeFocused();
  await expect(form.region).toContainText('an id is letters, digits, ".", "_" and "-" (as WebLLM names models)');
  await expect(form.region).toContainText('the model library is a .wasm file compiled for these weights');
  await expect(form.region).toContainText('give the GPU memory it needs, in MB');
  await expect(form.field('Model id')).toHaveAttribute('aria-invalid', 'true');
  await form.add({
    'Model id': 'SmolLM2-360M-Instruct-q4f32_1-MLC',
    'Model library address (.wasm)': library,
    'GPU memory needed (MB)': '300',
  });
  await expect(form.region).toContainText(
    "SmolLM2-360M-Instruct-q4f32_1-MLC is one of WebLLM's own models: it is already in the list",
  );

  await form.add({ 'Model id': TINY, 'Name (optional)': 'Tiny Chat', 'Context window (tokens)': '2048' });
  await expect(form.status).toHaveText(
    `Added Tiny Chat (${TINY}) to the list. Download it to run it: nothing is fetched before.`,
  );
  await expect(form.openButton).toBeFocused();
  expect(asked).toEqual([]);
  const card = models.model(TINY);
  // The user's model comes first, with its addresses.
  await expect(models.runnableList.getByRole('article').first()).toHaveAccessibleName(new RegExp(`${TINY}$`));
  await expect(card.getByText('Added here', { exact: true })).toBeVisible();
  await expect(card.getByRole('group', { name: 'Weights from', exact: true })).toContainText(weights);
  await expect(card.getByRole('group', { name: 'Library', exact: true })).toContainText(library);
  await expect(card.getByRole('group', { name: 'Context', exact: true })).toContainText('2,048 tokens');

  // A download goes to the model's own address, and says it failed.
  await models.action(TINY, 'Download').click();
  await expect(models.alert(TINY)).toContainText(
    `Tiny Chat was not downloaded: could not download ${TINY}: the weights' configuration at ${weights}/resolve/main/mlc-chat-config.json answered 404`,
    { timeout: 30_000 },
  );
  expect(asked[0]).toBe(`${weights}/resolve/main/mlc-chat-config.json`);
  await expect(card.getByText('Not downloaded', { exact: true })).toBeVisible();

  // Kept on this device: still listed after a reload. Downloaded (played here), it is chosen for runs.
  await pretendDownloaded(page, TINY, weights);
  await pretendDownloaded(page, 'SmolLM2-360M-Instruct-q4f32_1-MLC');
  await page.evaluate(
    async (url) => (await caches.open('webllm/wasm')).put(url, new Response(new Uint8Array(8))),
    library,
  );
  await page.reload();
  await expect(card.getByText('Downloaded', { exact: true })).toBeVisible({ timeout: 45_000 });
  await models.action(TINY, 'Use this model').click();
  await expect(card.getByRole('status')).toHaveText(
    'Runs now bind Tiny Chat (WebLLM). Your limits and other settings stay as they were.',
  );
  await shell.goTo('Settings');
  await expect(settings.languageModel.webllmModelSelect).toHaveValue(TINY);

  // Removing asks first, says runs bind it, and deletes its files but no other model's.
  await shell.goTo('Models');
  await models.action(TINY, 'Remove from list').click();
  await expect(card.getByRole('group', { name: /^Remove Tiny Chat/ })).toContainText(
    'Runs bind it: until you add it again or choose another, they use the symbolic engine alone.',
  );
  await expect(models.action(TINY, 'Remove the model')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(models.action(TINY, 'Remove from list')).toBeFocused();
  await models.action(TINY, 'Remove from list').click();
  await models.action(TINY, 'Remove the model').click();
  await expect(card).toHaveCount(0);
  // Its card is gone: the list says what happened, and takes the focus.
  await expect(models.listRegion.getByRole('status').first()).toHaveText(
    `Removed Tiny Chat (${TINY}) and its files from this device.`,
  );
  await expect(models.listRegion.getByRole('heading', { name: 'WebLLM models', exact: true })).toBeFocused();
  const left = await page.evaluate(async () =>
    (await (await caches.open('webllm/model')).keys()).map((request) => request.url),
  );
  expect(left.every((url) => url.startsWith('https://huggingface.co/mlc-ai/SmolLM2-360M-Instruct-q4f32_1-MLC/'))).toBe(
    true,
  );
  expect(left).toHaveLength(2);
  // Its library went too: no other model uses it.
  expect(await page.evaluate(async () => (await (await caches.open('webllm/wasm')).keys()).length)).toBe(0);
});

test("a model whose server does not let other sites fetch its files says it is blocked by the server's cross-origin policy", async ({
  models,
}) => {
  // A real server (a route would add the CORS header itself): it answers, without a CORS header.
  const server = createServer((_request, response) => response.writeHead(200).end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const TINY = 'Closed-Chat-q4f32_1-MLC';
  try {
    await models.open();
    const form = models.customForm;
    await form.openButton.click();
    await form.add({
      'Model id': TINY,
      'Weights address': `${origin}/${TINY}`,
      'Model library address (.wasm)': `${origin}/libs/closed-q4f32_1-webgpu.wasm`,
      'GPU memory needed (MB)': '300',
    });
    await expect(models.model(TINY)).toBeVisible();
    await models.action(TINY, 'Download').click();
    await expect(models.alert(TINY)).toContainText(
      `could not download ${TINY}: the weights' configuration: ${origin}/${TINY}/resolve/main/mlc-chat-config.json is blocked by its server's cross-origin policy`,
      { timeout: 30_000 },
    );
    await expect(models.alert(TINY)).not.toContainText('Failed to fetch');
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
