import { expect, test } from './fixtures.ts';

/**
 * The Models screen in the default browser, which has WebGPU's API but no usable GPU (the
 * WebGPU project, webgpu.spec.ts, has a software one): it says why and what to do instead, and
 * the rest of Anima works as before.
 */

test('without a usable GPU the Models screen says why and what to do instead, Settings says the same, and goals still run', async ({
  shell,
  models,
  settings,
  goals,
}) => {
  await models.open();
  await expect(models.gpuRegion).toContainText('WebGPU cannot run a model here: WebGPU found no usable GPU');
  await expect(models.gpuRegion).toContainText(
    'Anima works without a model. To run one here, add it to the CPU engine (llama.cpp), or use an OpenAI-compatible endpoint in Settings.',
  );
  await expect(models.listRegion).toContainText('No model can run here.');
  await expect(models.runnableList.getByRole('article')).toHaveCount(0);
  await expect(models.listRegion.getByRole('button', { name: 'Download', exact: true })).toHaveCount(0);

  // The models Anima offers are listed on request, grouped by why they cannot run: the reason said once.
  const toggle = models.hiddenToggle();
  await expect(toggle).toHaveText(/^Show \d+ models that cannot run here$/);
  const count = (await toggle.textContent())?.match(/\d+/)?.[0];
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const noGpu = models.hiddenList.getByRole('list', {
    name: new RegExp(`^${count} models cannot run here: WebGPU found no usable GPU`),
  });
  await expect(noGpu.getByRole('article')).toHaveCount(Number(count));
  await expect(noGpu.getByRole('article', { name: /SmolLM2-360M-Instruct-q4f32_1-MLC$/ })).toBeVisible();
  await expect(models.hiddenList.getByText(/^Cannot run here:/)).toHaveCount(0);
  await expect(models.hiddenList.getByRole('button')).toHaveCount(0);

  await expect(models.storageRegion).toContainText(/ of .* used/);
  // The page asks the browser to keep the data (only the page can); the browser decides.
  await expect(models.persistenceStatus).toHaveText(/^Not persistent: the browser may clear Anima's data/);
  await models.persistButton.click();
  await expect(models.persistenceStatus).toHaveText(/^(Persistent: this browser keeps|The browser said no)/);

  await models.gpuRegion.getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(shell.heading('Settings')).toBeVisible();
  const model = settings.languageModel;
  await model.provider("WebLLM (on this device's GPU)").check();
  await expect(model.region).toContainText('WebGPU cannot run a model here: WebGPU found no usable GPU');
  await expect(model.webllmModelSelect).toHaveCount(0);
  await model.modelsScreenLink.click();
  await expect(shell.heading('Models')).toBeVisible();

  // Nothing was saved: runs bind no model, and a goal runs with the symbolic engine.
  await goals.open();
  await expect(goals.run.boundModel).toContainText('Model: none.');
  await goals.addGoal({ description: 'Find mammals', criteria: '?x is-a mammal, at least 5' });
  await goals.run.runOneButton.click();
  await expect(goals.run.status).toContainText('Ran 1 cycle');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the Models screen fits without sideways scrolling, its models listed', async ({ shell, models }) => {
    await models.open();
    await models.hiddenToggle().click();
    await expect(models.model('Llama-3.1-8B-Instruct-q4f16_1-MLC')).toBeVisible();
    expect(await shell.pageWidth()).toBeLessThanOrEqual(360);
  });
});
