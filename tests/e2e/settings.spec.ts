import { expect, test } from './fixtures.ts';

test('web access: a refused prefix is named by its line, an allowed one is kept across a reload', async ({ page }) => {
  await page.goto('/#/settings');
  const region = page.getByRole('region', { name: 'Web access', exact: true });
  const prefixes = region.getByRole('textbox', { name: 'Allowed address prefixes (one per line)' });
  await expect(prefixes).toHaveValue('', { timeout: 45_000 });

  await prefixes.fill('https://dbpedia.org/resource/\nftp://example.org/');
  await region.getByRole('button', { name: 'Save web access' }).click();
  await expect(region.getByRole('alert')).toContainText('line 2: "ftp://example.org/" is not an http or https address');

  await prefixes.fill('https://dbpedia.org/resource/');
  await region.getByRole('spinbutton', { name: 'Time limit (seconds)' }).fill('5');
  await region.getByRole('button', { name: 'Save web access' }).click();
  await expect(region.getByRole('status')).toHaveText(/^Saved: the agent may fetch from 1 address prefix/);

  await page.reload();
  await expect(prefixes).toHaveValue('https://dbpedia.org/resource/', { timeout: 45_000 });
  await expect(region.getByRole('spinbutton', { name: 'Time limit (seconds)' })).toHaveValue('5');
});

test("the session's embedder: a model left unnamed is refused in words, a chosen one is kept across a reload", async ({
  page,
}) => {
  await page.goto('/#/settings');
  const region = page.getByRole('region', { name: 'Embedder', exact: true });
  const none = region.getByRole('radio', { name: 'None' });
  await expect(none).toBeChecked({ timeout: 45_000 });

  await region.getByRole('radio', { name: 'OpenAI-compatible endpoint' }).check();
  await region.getByRole('button', { name: 'Save embedder' }).click();
  await expect(region.getByRole('alert')).toContainText('name the embedding model');

  await region.getByRole('textbox', { name: 'Embedding model' }).fill('nomic-embed-text');
  await region.getByRole('button', { name: 'Save embedder' }).click();
  await expect(region.getByRole('status', { name: 'Embedder saved' })).toHaveText(
    'Saved: recall and similarity use the embeddings of nomic-embed-text from the next run.',
  );
  // No endpoint is set: the check says so, in words.
  await region.getByRole('button', { name: 'Check the embedder' }).click();
  await expect(region.getByRole('alert')).toContainText('no OpenAI-compatible endpoint is set');

  await page.reload();
  await expect(region.getByRole('textbox', { name: 'Embedding model' })).toHaveValue('nomic-embed-text', {
    timeout: 45_000,
  });
});

test("WebLLM's embedding models are offered, and refused in words where WebGPU finds no GPU", async ({ page }) => {
  await page.goto('/#/settings');
  const region = page.getByRole('region', { name: 'Embedder', exact: true });
  await expect(region.getByRole('radio', { name: 'None' })).toBeChecked({ timeout: 45_000 });
  await region.getByRole('radio', { name: 'WebLLM (GPU)' }).check();
  await region
    .getByRole('combobox', { name: 'Embedding model' })
    .selectOption({ label: 'Snowflake Arctic Embed S (batches of 4): 239 MB of GPU memory' });
  await region.getByRole('button', { name: 'Save embedder' }).click();
  // This browser runs without a GPU: the choice is refused, and the session keeps none.
  await expect(region.getByRole('alert')).toContainText('WebLLM cannot embed here:');
  await page.reload();
  await expect(region.getByRole('radio', { name: 'None' })).toBeChecked({ timeout: 45_000 });
});

test("the agent's tools are listed in words, each with its name and what it does", async ({ page, settings }) => {
  await settings.open();
  const tools = page.getByRole('region', { name: "The agent's tools" });
  await expect(tools).toContainText('has not been tried on it yet');
  const query = tools.getByRole('term').filter({ hasText: 'kg_query' });
  await expect(query).toHaveText('Query the knowledge graph kg_query');
  await expect(tools.getByRole('definition').first()).toHaveText(
    'Looks up the facts around a thing, or the facts that match a pattern, such as every mammal.',
  );
  await expect(tools.getByRole('term')).toHaveCount(14);
});
