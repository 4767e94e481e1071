import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures.ts';
import { SCREEN_TITLES } from './page-models/app-shell.ts';

test.describe('knowledge screen', () => {
  test.beforeEach(async ({ knowledge }) => {
    await knowledge.open();
  });

  test('on first start the starter graph loads and the counts show it', async ({ knowledge }) => {
    expect(await knowledge.countOf('Triples')).toBeGreaterThan(300);
    expect(await knowledge.countOf('Symbols')).toBeGreaterThan(0);
    expect(await knowledge.countOf('Relations')).toBeGreaterThan(0);
  });

  test('searching "dog" finds Dog, whose details list its triples and link to other symbols', async ({ knowledge }) => {
    await knowledge.search('dog');
    await expect(knowledge.searchHit('Dog')).toBeVisible();

    await knowledge.searchHit('Dog').click();
    await expect(knowledge.symbolHeading('Dog')).toBeVisible();
    await expect(knowledge.factRow(knowledge.outgoingTable, 'Dog', 'subClassOf', 'Canine')).toBeVisible();
    await expect(knowledge.factRow(knowledge.incomingTable, 'GoldenRetriever', 'subClassOf', 'Dog')).toBeVisible();

    await knowledge.symbolLink(knowledge.incomingTable, 'GoldenRetriever').click();
    await expect(knowledge.symbolHeading('GoldenRetriever')).toBeVisible();
    await expect(knowledge.factRow(knowledge.outgoingTable, 'GoldenRetriever', 'subClassOf', 'Dog')).toBeVisible();

    await knowledge.visitedSymbols.getByRole('button', { name: 'Dog', exact: true }).click();
    await expect(knowledge.symbolHeading('Dog')).toBeVisible();
  });

  test('a search matching an rdfs:label says which name matched', async ({ knowledge }) => {
    await knowledge.search('canid');
    await expect(knowledge.searchHit('Canine')).toContainText('also known as “canid (dog family)”');
  });

  test('importing a CSV file adds its triples and makes its symbols searchable', async ({ knowledge }) => {
    const triplesBefore = await knowledge.countOf('Triples');
    const csv = ['subject,predicate,object', 'Zorblax,is-a,Alien', 'Zorblax,lives-on,Mars', 'Alien,is-a,Creature'].join(
      '\n',
    );

    await knowledge.importFile({ name: 'aliens.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

    await expect(knowledge.importStatus).toHaveText('Imported 3 statements: 3 new triples, 0 raised in confidence.');
    await expect.poll(() => knowledge.countOf('Triples')).toBe(triplesBefore + 3);
    await knowledge.openSymbol('Zorblax');
    await expect(knowledge.factRow(knowledge.outgoingTable, 'Zorblax', 'lives-on', 'Mars')).toBeVisible();
  });

  test('importing a broken N-Triples file names the bad line and changes nothing', async ({ knowledge }) => {
    const triplesBefore = await knowledge.countOf('Triples');
    const ntriples = [
      '<urn:anima:kg#Zorblax> <urn:anima:kg#is-a> <urn:anima:kg#Alien> .',
      '<urn:anima:kg#Alien> <urn:anima:kg#is-a> <urn:anima:kg#Creature> .',
      '<urn:anima:kg#Zorblax> <urn:anima:kg#lives-on> .',
      '<urn:anima:kg#Creature> <urn:anima:kg#is-a> <urn:anima:kg#Thing> .',
    ].join('\n');

    await knowledge.importFile({ name: 'broken.nt', mimeType: 'application/n-triples', buffer: Buffer.from(ntriples) });

    await expect(knowledge.importAlert).toContainText('line 3');
    expect(await knowledge.countOf('Triples')).toBe(triplesBefore);
    await knowledge.search('Zorblax');
    await expect(knowledge.searchSummary).toHaveText('No symbols match “Zorblax”.');
  });

  test('a file whose name gives no format is imported once a format is chosen', async ({ knowledge }) => {
    const file = { name: 'aliens.txt', mimeType: 'text/plain', buffer: Buffer.from('Zorblax,is-a,Alien\n') };

    await knowledge.importFile(file);
    await expect(knowledge.importAlert).toContainText('choose N-Triples, Turtle or CSV');

    await knowledge.importFormat.selectOption({ label: 'CSV' });
    await knowledge.importFile(file);
    await expect(knowledge.importStatus).toHaveText('Imported 1 statement: 1 new triple, 0 raised in confidence.');
  });

  test('exporting downloads an N-Triples file with the graph in it', async ({ page, knowledge }) => {
    const download = page.waitForEvent('download');
    await knowledge.exportButton.click();
    const file = await download;

    expect(file.suggestedFilename()).toMatch(/\.nt$/);
    const text = await readFile(await file.path(), 'utf8');
    // The starter graph's own predicate comes back as it was written (rdfs:subClassOf).
    expect(text).toContain(
      '<urn:anima:kg#Dog> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <urn:anima:kg#Canine> .',
    );
  });

  test('the query "?x is-a Dog" lists GoldenRetriever', async ({ knowledge }) => {
    await knowledge.runQuery('?x is-a Dog');

    await expect(knowledge.queryResults.getByRole('columnheader', { name: '?x' })).toBeVisible();
    await expect(knowledge.queryResults.getByRole('button', { name: 'GoldenRetriever', exact: true })).toBeVisible();
  });

  test('a query joining two patterns with a dot binds both variables', async ({ knowledge }) => {
    await knowledge.runQuery('?x is-a ?y . ?y is-a Canine');

    await expect(knowledge.queryResults.getByRole('columnheader', { name: '?x' })).toBeVisible();
    await expect(knowledge.queryResults.getByRole('columnheader', { name: '?y' })).toBeVisible();
    await expect(knowledge.queryRow('GoldenRetriever', 'Dog')).toBeVisible();
    await expect(knowledge.queryRow('Dog', 'Canine')).toHaveCount(0);
  });

  test('a query naming an unknown symbol says so', async ({ knowledge }) => {
    await knowledge.runQuery('?x is-a Zorblax');

    await expect(knowledge.queryRegion.getByRole('status')).toHaveText('unknown symbol: Zorblax');
  });

  test('a query that cannot be read lists its problems', async ({ knowledge }) => {
    await knowledge.runQuery('?x is-a');

    await expect(knowledge.queryRegion.getByRole('alert')).toContainText('needs 3 terms');
  });
});

test.describe('on a 360 px wide phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('every screen is reachable and the page never scrolls sideways', async ({ shell, knowledge }) => {
    await knowledge.open();
    await knowledge.openSymbol('Dog');
    expect(await shell.pageWidth()).toBeLessThanOrEqual(360);

    for (const title of SCREEN_TITLES) {
      await shell.goTo(title);
      expect(await shell.pageWidth()).toBeLessThanOrEqual(360);
    }
  });
});

test('the Settings screen keeps the chosen theme after a reload', async ({ page, shell, knowledge }) => {
  await knowledge.open();
  await shell.goTo('Settings');
  await page.getByRole('radio', { name: 'Dark' }).check();
  await page.reload();

  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('dark');
});
