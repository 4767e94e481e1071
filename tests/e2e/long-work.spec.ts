import { expect, test } from './fixtures.ts';

const TRIPLES = 100_000;

/** A large N-Triples file: its import takes long enough to leave the screen while it runs. */
function largeNTriples(): Buffer {
  const lines: string[] = [];
  for (let index = 0; index < TRIPLES; index++)
    lines.push(
      `<http://example.org/big/e${index}> <http://example.org/big/rel${index % 7}> <http://example.org/big/e${(index * 7919) % TRIPLES}> .`,
    );
  return Buffer.from(`${lines.join('\n')}\n`);
}

test('an import keeps its progress and its report while the user visits another screen', async ({
  page,
  knowledge,
  shell,
}) => {
  test.setTimeout(180_000);
  await knowledge.open();
  await knowledge.importFileInput.setInputFiles({
    name: 'large.nt',
    mimeType: 'application/n-triples',
    buffer: largeNTriples(),
  });
  await expect(knowledge.transferRegion.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();

  await shell.goTo('Goals');
  // The shell says what runs, and leads back to it.
  const workLine = page.getByText(/Importing large\.nt: [\d,]+ statements so far/);
  await expect(workLine).toBeVisible();
  await workLine.getByRole('link', { name: 'Follow it on the Knowledge screen' }).click();
  await expect(shell.heading('Knowledge')).toBeVisible();

  // Back on its screen: still running (unless it just ended), and no second file can be started meanwhile.
  const progress = knowledge.transferRegion.getByRole('progressbar', { name: 'Import progress' });
  if (await progress.isVisible()) await expect(knowledge.importFileInput).toBeDisabled();
  await expect(knowledge.importStatus).toContainText('100,000', { timeout: 150_000 });
  await expect(knowledge.importFileInput).toBeEnabled();
  await expect(workLine).toHaveCount(0);
});
