import { expect, test } from './fixtures.ts';

const TRIPLES = 100_000;

/** A 100,000-triple N-Triples file: every subject new, seven predicates, objects among the subjects. */
function largeNTriples(): Buffer {
  const lines: string[] = [];
  for (let index = 0; index < TRIPLES; index++)
    lines.push(
      `<http://example.org/big/e${index}> <http://example.org/big/rel${index % 7}> <http://example.org/big/e${(index * 7919) % TRIPLES}> .`,
    );
  return Buffer.from(`${lines.join('\n')}\n`);
}

test('a 100,000-triple N-Triples file imports whole, with progress, and its symbols are found', async ({
  page,
  knowledge,
}) => {
  test.setTimeout(180_000);
  await knowledge.open();
  const before = await knowledge.countOf('Triples');

  await knowledge.importFileInput.setInputFiles({
    name: 'large.nt',
    mimeType: 'application/n-triples',
    buffer: largeNTriples(),
  });
  await expect(knowledge.transferRegion.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
  await expect(knowledge.importStatus).toContainText('100,000', { timeout: 150_000 });
  expect(await knowledge.countOf('Triples')).toBe(before + TRIPLES);

  await knowledge.search('e99999');
  await expect(knowledge.searchHit('e99999')).toBeVisible();

  // Stored, not only in memory: a reload reads the same graph back from IndexedDB.
  await page.reload();
  await expect(knowledge.count('Triples')).toHaveText(/\d/, { timeout: 60_000 });
  expect(await knowledge.countOf('Triples')).toBe(before + TRIPLES);
});
