import { expect, test } from './fixtures.ts';
import { KnowledgePage } from './page-models/knowledge-page.ts';

const csv = (text: string) => ({ name: 'more.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });

test('a second tab shows the session read-only, refuses changes, and takes over when the first closes', async ({ context, knowledge }) => {
  await knowledge.open();
  const second = new KnowledgePage(await context.newPage());
  await second.open();
  await expect(second.page.getByRole('status').filter({ hasText: 'open in another tab' })).toBeVisible();
  const before = await second.countOf('Triples');

  await second.importFileInput.setInputFiles(csv('Tabby,is-a,Cat\n'));
  await expect(second.importAlert).toContainText('open in another tab');
  expect(await second.countOf('Triples')).toBe(before);

  // The first tab keeps working as the writer.
  await knowledge.importFileInput.setInputFiles(csv('Rex,is-a,Dog\n'));
  await expect(knowledge.importStatus).toContainText('1 new triple');

  await knowledge.page.close();
  // Once the first tab's worker is gone, the second holds the lock and sees what the first wrote.
  await expect(async () => {
    await second.importFileInput.setInputFiles(csv('Tabby,is-a,Cat\n'));
    await expect(second.importStatus).toContainText('1 new triple', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  expect(await second.countOf('Triples')).toBe(before + 2);
});
