import { expect, test } from './fixtures.ts';

test('symbol search shows how many match and lets the user see every match', async ({ page, knowledge }) => {
  await knowledge.open();
  await knowledge.searchBox.fill('a');
  const summary = knowledge.searchSummary;
  await expect(summary).toHaveText(/^50 of [\d,]+ matches$/);
  const total = Number((await summary.textContent())!.replace(/^50 of /, '').replace(/\D/g, ''));
  expect(total).toBeGreaterThan(50);
  const items = knowledge.searchResults.getByRole('listitem');
  await expect(items).toHaveCount(50);

  const more = page.getByRole('button', { name: /^Show [\d,]+ more$/ });
  let shown = 50;
  while (await more.isVisible()) {
    await more.click();
    await expect(items).not.toHaveCount(shown);
    shown = await items.count();
  }
  await expect(summary).toHaveText(total === 1 ? '1 match' : `${total.toLocaleString('en')} matches`);
  await expect(items).toHaveCount(Math.min(total, 1000));
});
