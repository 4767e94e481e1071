import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures.ts';

/** WordNet's canines and planets as an RDFS class hierarchy with instances (see tests/fixtures/public/README.md). */
const RDFS_FILE = new URL('../fixtures/public/wordnet-canine-planet.rdfs.ttl', import.meta.url);
/** WordNet's felines as a SKOS thesaurus (skos:broader and skos:narrower). */
const SKOS_FILE = new URL('../fixtures/public/wordnet-felines.skos.ttl', import.meta.url);

test('a user imports RDFS beside the starter graph, and is-a, the rules and the names all understand it', async ({
  context,
  knowledge,
}) => {
  await knowledge.open();
  await knowledge.importFile({ name: 'wordnet.ttl', mimeType: 'text/turtle', buffer: await readFile(RDFS_FILE) });
  // The starter graph says rdf:type and rdfs:subClassOf too: the file's are the very same relations, nothing to align.
  // WordNet's dog is told apart from the starter graph's Dog by its parent.
  await expect(knowledge.importStatus).toContainText('924 new triples');
  await expect(knowledge.importStatus).not.toContainText('relations of the file join');
  await expect(knowledge.importStatus).toContainText('“dog (canine)” and “Dog”');
  await expect(knowledge.importStatus).not.toContainText('-2');

  await knowledge.runInference();
  // WordNet's Mars is an instance of terrestrial planet, itself a celestial body: the type climbs the class chain.
  await knowledge.runQuery('?x rdf:type wnid:09239740-n');
  await expect(knowledge.queryRow('Mars (terrestrial planet)')).toBeVisible();
  // is-a reads WordNet's rdfs:subClassOf and the starter graph's alike, joined by the name canine.
  await knowledge.runQuery('?x is-a canine');
  await expect(knowledge.queryRow('dog (canine)')).toBeVisible();
  await expect(knowledge.queryRow('Dog')).toBeVisible();

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await knowledge.openSymbol('dog (canine)');
  await expect(knowledge.symbolDetails.getByLabel('IRI')).toHaveText('http://wordnet-rdf.princeton.edu/id/02084071-n');
  await knowledge.symbolDetails.getByRole('button', { name: 'Copy IRI' }).click();
  await expect(knowledge.symbolDetails.getByRole('status')).toHaveText('Copied the IRI.');
  expect(await knowledge.page.evaluate(() => navigator.clipboard.readText())).toBe(
    'http://wordnet-rdf.princeton.edu/id/02084071-n',
  );
});

test('a preview says what a file shares with the graph before it is imported, and the import links as then chosen', async ({
  knowledge,
}) => {
  await knowledge.open();
  const triplesBefore = await knowledge.countOf('Triples');
  await knowledge.previewFileInput.setInputFiles({
    name: 'felines.ttl',
    mimeType: 'text/turtle',
    buffer: await readFile(SKOS_FILE),
  });
  // In the file's own terms: no has-instance, which neither the file nor the screen ever says.
  await expect(knowledge.importPreview).toContainText('skos:broader as is-a');
  await expect(knowledge.importPreview).toContainText('skos:narrower as is-a, read backwards');
  await expect(knowledge.importPreview).not.toContainText('has-instance');
  await expect(knowledge.importPreview).toContainText('the name of one in the graph (');
  await expect(knowledge.importPreview).toContainText('“lion');
  await expect(knowledge.importPreview).toContainText('Nothing is in the graph until you import it.');
  expect(await knowledge.countOf('Triples')).toBe(triplesBefore);

  // Having seen the shared names, the user links them, then imports the previewed file.
  await knowledge.linkSameLabels.check();
  await knowledge.importPreview.getByRole('button', { name: 'Import felines.ttl' }).click();
  await expect(knowledge.importStatus).toContainText(/Linked \d+ things? to the graph's of the same name/);
  await expect(knowledge.importPreview).toHaveCount(0);
  await expect.poll(() => knowledge.countOf('Triples')).toBeGreaterThan(triplesBefore);
});
