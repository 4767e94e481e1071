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
