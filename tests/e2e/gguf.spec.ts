import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TINY_GGUF_SHAPE, tinyGguf } from '#core/testing/tiny-gguf.ts';
import { expect, test } from './fixtures.ts';
import type { GoalsPage } from './page-models/goals-page.ts';
import type { ModelsPage } from './page-models/models-page.ts';

/**
 * The CPU engine (llama.cpp in WebAssembly) on the Models screen and in Settings, in the default
 * browser, which has no usable GPU: GGUF models added from a file or an address, kept in this
 * origin's private file system, listed with what their header says, chosen for runs and deleted.
 * Running one is another project's work (it loads wllama): nothing here runs a model.
 */

/** A tiny random-weight llama model, made here: its header says llama, F32, a context of 256. */
const TINY = tinyGguf(7);
const TINY_NAME = 'anima-tiny-7';

/** Serves bytes at /models/NAME across origins, as a model host does; `stall` sends a part and then waits, so an addition can be cancelled. */
async function modelServer(bytes: Uint8Array, options: { stall?: boolean } = {}) {
  const server: Server = createServer((request, response) => {
    if (!request.url?.startsWith('/models/'))
      return void response.writeHead(404, { 'access-control-allow-origin': '*' }).end();
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(bytes.byteLength),
      'access-control-allow-origin': '*',
    });
    if (options.stall) return void response.write(bytes.subarray(0, 64 * 1024));
    response.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test('a GGUF file is added with its header facts and kept across a reload; a file that is not a model is refused and nothing is kept', async ({
  models,
}) => {
  const gguf = models.gguf;
  await models.open();
  // Without a usable GPU the CPU engine is the way to run a model: the section says so.
  await expect(gguf.region).toContainText('Recommended here');
  await expect(gguf.region).toContainText('the CPU engine is the way to run one here');
  await expect(gguf.region).toContainText('135M–360M parameters need under 1 GB');
  await expect(gguf.region).toContainText('No model is added yet.');

  await gguf.addFile('page.html', new TextEncoder().encode('<html>not a model</html>'), 'text/html');
  await expect(gguf.addAlert()).toContainText('page.html: not a GGUF model');
  await expect(gguf.list.getByRole('article')).toHaveCount(0);

  await gguf.addFile('Tiny Llama.gguf', TINY);
  await expect(gguf.status).toHaveText(`Added ${TINY_NAME} (Tiny Llama.gguf): it runs on the CPU, offline too.`);
  await expect(gguf.addAlert()).toHaveCount(0);
  await expect(gguf.list.getByRole('article')).toHaveCount(1);
  await expect(gguf.model(TINY_NAME)).toContainText('Tiny Llama.gguf');
  await expect(gguf.fact(TINY_NAME, 'Architecture')).toContainText('llama');
  await expect(gguf.fact(TINY_NAME, 'Quantisation')).toContainText('F32');
  await expect(gguf.fact(TINY_NAME, 'Context')).toContainText(`${TINY_GGUF_SHAPE.context} tokens`);
  await expect(gguf.fact(TINY_NAME, 'Parameters')).toContainText(/\d+(\.\d)?K$/);
  await expect(gguf.fact(TINY_NAME, 'Memory needed')).toContainText(/about \d+(\.\d)? MB$/);
  await expect(gguf.fact(TINY_NAME, 'From')).toContainText('a file picked on this device');

  // Kept in this origin's private file system: still there after a reload.
  await models.page.reload();
  await expect(gguf.model(TINY_NAME)).toBeVisible({ timeout: 45_000 });
  await expect(gguf.fact(TINY_NAME, 'Architecture')).toContainText('llama');
});

test('"Use this model" makes runs bind the GGUF model, Settings shows it, and a deletion asks first', async ({
  shell,
  models,
  settings,
  goals,
}) => {
  const gguf = models.gguf;
  await models.open();
  await gguf.addFile('Tiny Llama.gguf', TINY);
  await expect(gguf.model(TINY_NAME)).toBeVisible();

  await gguf.action(TINY_NAME, 'Use this model').click();
  await expect(gguf.model(TINY_NAME)).toContainText('In use');
  await expect(gguf.model(TINY_NAME).getByRole('status')).toHaveText(
    `Runs now bind ${TINY_NAME} (CPU engine). Your limits and other settings stay as they were.`,
  );
  await expect(gguf.action(TINY_NAME, 'Use this model')).toHaveCount(0);

  await settings.open();
  const model = settings.languageModel;
  await expect(model.provider('CPU engine (llama.cpp, any browser)')).toBeChecked();
  await expect(model.ggufModelSelect).toHaveValue('tiny-llama.gguf');
  await expect(model.ggufModelSelect.getByRole('option', { selected: true })).toHaveText(
    /^anima-tiny-7: .* F32, about .* of memory \(Tiny Llama\.gguf\)$/,
  );

  await goals.open();
  await expect(goals.run.boundModel).toContainText('Model: tiny-llama.gguf (CPU engine).');

  await shell.goTo('Models');
  await gguf.action(TINY_NAME, 'Delete').click();
  const question = gguf.model(TINY_NAME).getByRole('group').filter({ hasText: 'Delete anima-tiny-7' });
  await expect(question).toContainText(
    'Runs bind it: until it is added again, or you choose another, they use the symbolic engine alone.',
  );
  await expect(gguf.action(TINY_NAME, 'Delete the model')).toBeFocused();
  await gguf.action(TINY_NAME, 'Keep it').click();
  await expect(gguf.action(TINY_NAME, 'Delete')).toBeFocused();
  await expect(gguf.model(TINY_NAME)).toBeVisible();

  await gguf.action(TINY_NAME, 'Delete').click();
  await gguf.action(TINY_NAME, 'Delete the model').click();
  await expect(gguf.status).toHaveText(`Deleted ${TINY_NAME} (Tiny Llama.gguf) from this device.`);
  await expect(gguf.list.getByRole('article')).toHaveCount(0);
  await expect(gguf.region.getByRole('heading', { name: 'CPU engine (llama.cpp)', exact: true })).toBeFocused();

  // Settings keeps the choice, and says the model is gone.
  await shell.goTo('Settings');
  await expect(model.provider('CPU engine (llama.cpp, any browser)')).toBeChecked();
  await expect(model.ggufModelSelect).toHaveValue('tiny-llama.gguf');
  await expect(model.region).toContainText('tiny-llama.gguf (not on this device)');
  await expect(model.region).toContainText('No GGUF model is added on this device yet.');
});

test('in Settings, the CPU engine without a model says to add one on the Models screen, and saving names the missing model', async ({
  shell,
  settings,
}) => {
  await settings.open();
  const model = settings.languageModel;
  await model.provider('CPU engine (llama.cpp, any browser)').check();
  await expect(model.region).toContainText('No GGUF model is added on this device yet.');
  await expect(model.ggufModelSelect).toHaveCount(0);
  await model.saveButton.click();
  await expect(model.saveAlert).toContainText('GGUF model: choose a GGUF model (add one on the Models screen)');
  await model.modelsScreenLink.click();
  await expect(shell.heading('Models')).toBeVisible();
});

test('a recommended model is added in one click: its address is filled, and a refused download says why, naming it', async ({
  context,
  models,
}) => {
  const gguf = models.gguf;
  const address =
    'https://huggingface.co/bartowski/SmolLM2-360M-Instruct-GGUF/resolve/main/SmolLM2-360M-Instruct-Q8_0.gguf';
  // No network here: the model host answers through a route, with a 404 a page may read.
  await context.route('https://huggingface.co/**', (route) =>
    route.fulfill({ status: 404, headers: { 'access-control-allow-origin': '*' }, body: 'Entry not found' }),
  );
  await models.open();
  const card = gguf.recommendedModel('SmolLM2 360M Instruct');
  await expect(card).toContainText('Good for trying the engine on any machine');
  await expect(card.getByRole('group', { name: 'Download', exact: true })).toContainText('386 MB');
  await expect(card.getByRole('group', { name: 'Speed', exact: true })).toContainText('fast on the CPU');
  await expect(gguf.region).toContainText('Download is the size of the file fetched once');

  await card.getByRole('button', { name: 'Add SmolLM2 360M Instruct', exact: true }).click();
  await expect(gguf.urlInput).toHaveValue(address);
  await expect(gguf.addAlert()).toContainText(`${address} answered 404 Not Found: there is no file at this address`);
  await expect(gguf.list.getByRole('article')).toHaveCount(0);

  // A server that answers without letting other sites read its files: its cross-origin policy is named.
  const server = createServer((_request, response) => response.writeHead(200).end('GGUF'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const noCorsAddress = `http://127.0.0.1:${(server.address() as AddressInfo).port}/models/tiny.gguf`;
  try {
    await gguf.download(noCorsAddress);
    await expect(gguf.addAlert()).toContainText(`${noCorsAddress} is blocked by its server's cross-origin policy`);
    await expect(gguf.addAlert()).not.toContainText('Failed to fetch');
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  // Once nothing answers there, it says so.
  await gguf.downloadButton.click();
  await expect(gguf.addAlert()).toContainText(`nothing answers at ${noCorsAddress}`);
});

test('a GGUF model is downloaded from an address with its progress; a stalled download is cancelled and nothing is kept', async ({
  models,
}) => {
  const gguf = models.gguf;
  const server = await modelServer(TINY);
  const stalled = await modelServer(new Uint8Array(4 * 2 ** 20), { stall: true });
  try {
    await models.open();
    await gguf.download('huggingface.co/model.gguf');
    await expect(gguf.addAlert()).toContainText('Enter a whole address, starting with https://.');

    await gguf.download(`${server.baseUrl}/models/tiny-q.gguf`);
    await expect(gguf.status).toHaveText(`Added ${TINY_NAME} (tiny-q.gguf): it runs on the CPU, offline too.`);
    await expect(gguf.fact(TINY_NAME, 'From')).toContainText(`${server.baseUrl}/models/tiny-q.gguf`);
    await expect(gguf.urlInput).toHaveValue('');

    await gguf.download(`${stalled.baseUrl}/models/big.gguf`);
    await expect(gguf.progress).toBeVisible();
    await expect(gguf.region).toContainText(/Downloading: [\d.]+ MB of 4 MB \(\d+%\)/);
    await expect(gguf.cancelButton).toBeFocused();
    await gguf.cancelButton.click();
    await expect(gguf.status).toHaveText('Adding big.gguf was cancelled; nothing was kept.');
    await expect(gguf.progress).toHaveCount(0);
    await expect(gguf.list.getByRole('article')).toHaveCount(1);
  } finally {
    await server.close();
    await stalled.close();
  }
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the CPU engine section comes first without a GPU, and a model card fits without sideways scrolling', async ({
    shell,
    models,
  }) => {
    await models.open();
    const gguf = models.gguf;
    await gguf.addFile('Tiny Llama.gguf', TINY);
    await expect(gguf.model(TINY_NAME)).toBeVisible();
    const cpu = await gguf.region.boundingBox();
    const gpu = await models.gpuRegion.boundingBox();
    expect(cpu!.y).toBeLessThan(gpu!.y);
    expect(await shell.pageWidth()).toBeLessThanOrEqual(360);
  });
});

/** Adds a tiny model with a context long enough for the agent's prompts, and makes runs bind it. */
async function useRunnableModel(models: ModelsPage): Promise<void> {
  await models.gguf.addFile('runnable.gguf', tinyGguf(1, { contextLength: 4096 }));
  await models.gguf.action('anima-tiny-1', 'Use this model').click();
  await expect(models.gguf.model('anima-tiny-1')).toContainText('In use');
}

/**
 * Two cycles of a goal only a model could answer: the symbolic engine finds nothing, then reason
 * asks the model (its random words give a bottleneck or a proposed fact).
 */
async function askTheModel(goals: GoalsPage, subject: string): Promise<void> {
  await goals.addGoal({ description: `What is ${subject}`, criteria: `${subject} is-a ?x`, priority: 255 });
  for (let cycle = 0; cycle < 2; cycle++) {
    await goals.run.runOneButton.click();
    await goals.run.waitForRunEnd();
  }
}

test('a run with the CPU engine loads the model in the browser and its cycles ask it, recording what it used', async ({
  shell,
  models,
  goals,
  cycles,
}) => {
  await models.open();
  await useRunnableModel(models);
  await shell.goTo('Goals');
  await askTheModel(goals, 'Zorblax');
  // A step may call a tool before it answers: each call is one more request.
  await expect(goals.run.status).toContainText(
    /runnable\.gguf \(CPU engine\): [\d,]+ requests?, [\d,]+ tokens in, [\d,]+ out/,
  );
  await expect(goals.run.status).not.toContainText('could not be used');

  await shell.goTo('Cycles');
  await expect(cycles.tool(2)).toContainText('reason');
  await expect(cycles.modelUse(2)).toContainText(
    /^Model: runnable\.gguf \(CPU engine\): [\d,]+ requests?, [\d,]+ prompt \+ [\d,]+ completion tokens/,
  );
});

test('a model used on the first visit runs with the network off afterwards', async ({
  page,
  context,
  shell,
  models,
  goals,
  settings,
}) => {
  await models.open();
  await page.waitForFunction(
    async () => (await navigator.serviceWorker.ready) !== null && navigator.serviceWorker.controller !== null,
  );
  // Still the first visit: the agent worker started before the service worker took control.
  await useRunnableModel(models);
  await shell.goTo('Goals');
  await askTheModel(goals, 'Zorblax');
  await expect(goals.run.status).toContainText('runnable.gguf (CPU engine)');

  await context.setOffline(true);
  await page.reload();
  await settings.open();
  await settings.languageModel.checkButton.click();
  await expect(settings.languageModel.checkResult).toContainText(
    /runnable\.gguf \(CPU engine\): [1-3] attempts?, [\d,]+ prompt \+ [\d,]+ completion tokens/,
    { timeout: 60_000 },
  );
});
