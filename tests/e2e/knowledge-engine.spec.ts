import { expect, test } from './fixtures.ts';
import { KnowledgePage } from './page-models/knowledge-page.ts';

test.describe('inference, provenance, graph view and similar symbols', () => {
  test.beforeEach(async ({ knowledge }) => {
    await knowledge.open();
  });

  test('running inference reports new facts, and the triple count grows by exactly that many', async ({
    knowledge,
  }) => {
    const triplesBefore = await knowledge.countOf('Triples');

    const derived = await knowledge.runInference();

    expect(derived).toBeGreaterThan(0);
    await expect.poll(() => knowledge.countOf('Triples')).toBe(triplesBefore + derived);
    await expect(knowledge.inferenceStatus).toContainText(/raised in confidence, in \d+ rounds?\./);
    await expect(knowledge.derivedFacts.getByRole('columnheader', { name: 'Rule' })).toBeVisible();
  });

  test('a derived fact says which rule and premises it came from', async ({ knowledge }) => {
    await knowledge.runInference();
    const row = knowledge.derivedFacts.getByRole('row').filter({ hasText: 'is-a-transitive' }).first();

    await knowledge.whyButton(row).click();

    await expect(knowledge.whyButton(row)).toHaveAttribute('aria-expanded', 'true');
    const premises = knowledge.derivedFacts.getByRole('group', { name: /^Why / }).getByRole('listitem');
    await expect(premises).toHaveCount(2);
    await expect(premises.first()).toHaveText(/^\S+ (?:type|subClassOf) \S+ \(\d\.\d\d\)$/);
  });

  test('after inference "?x is-a Mammal" finds GoldenRetriever, and its is-a Mammal row says why', async ({
    knowledge,
  }) => {
    // The starter graph never says so directly: only the rdfs:subClassOf chain through Dog, Canine and Carnivore does.
    await knowledge.runQuery('?x is-a Mammal');
    await expect(knowledge.queryRegion.getByRole('status')).toContainText(/rows?\.|No matches\./);
    await expect(knowledge.queryResults.getByRole('button', { name: 'GoldenRetriever', exact: true })).toHaveCount(0);

    await knowledge.runInference();
    await knowledge.runQuery('?x is-a Mammal');
    await knowledge.queryResults.getByRole('button', { name: 'GoldenRetriever', exact: true }).click();
    await expect(knowledge.symbolHeading('GoldenRetriever')).toBeVisible();

    const row = knowledge.factRow(knowledge.outgoingTable, 'GoldenRetriever', 'subClassOf', 'Mammal');
    await knowledge.whyButton(row).click();

    const explanation = knowledge.explanation(knowledge.outgoingTable, 'GoldenRetriever', 'subClassOf', 'Mammal');
    await expect(explanation).toContainText('Inferred');
    await expect(explanation).toContainText('is-a-transitive');
    await expect(explanation).toContainText('GoldenRetriever subClassOf Mammal (');
  });

  test('a fact from the starter graph says where it came from', async ({ knowledge }) => {
    await knowledge.openSymbol('Dog');
    const row = knowledge.factRow(knowledge.outgoingTable, 'Dog', 'subClassOf', 'Canine');

    await knowledge.whyButton(row).click();

    await expect(knowledge.explanation(knowledge.outgoingTable, 'Dog', 'subClassOf', 'Canine')).toContainText(
      'Starter graph',
    );
  });

  test('an imported fact names its file', async ({ knowledge }) => {
    await knowledge.importFile({ name: 'pets.csv', mimeType: 'text/csv', buffer: Buffer.from('Rex,is-a,Dog\n') });
    await expect(knowledge.importStatus).toContainText('1 new triple');
    await knowledge.openSymbol('Rex');

    await knowledge.whyButton(knowledge.factRow(knowledge.outgoingTable, 'Rex', 'is-a', 'Dog')).click();

    const explanation = knowledge.explanation(knowledge.outgoingTable, 'Rex', 'is-a', 'Dog');
    await expect(explanation).toContainText('Imported');
    await expect(explanation).toContainText('pets.csv');
  });

  test('the graph view of Dog shows Wolf, and Enter on it opens Wolf', async ({ knowledge }) => {
    await knowledge.openSymbol('Dog');
    const wolf = knowledge.graphNode('Dog', 'Wolf');
    await expect(wolf).toBeVisible();
    await expect(knowledge.graphNode('Dog', 'Canine')).toBeVisible();
    await expect(knowledge.neighbourhoodGraph('Dog')).toContainText('similar-to');

    await wolf.focus();
    await wolf.press('Enter');

    await expect(knowledge.symbolHeading('Wolf')).toBeVisible();
    await expect(knowledge.neighbourhoodGraph('Wolf')).toBeVisible();
    await expect(knowledge.graphNode('Wolf', 'Dog')).toBeVisible();
  });

  test('the nodes of the graph view can be reached with Tab and opened with Space', async ({ page, knowledge }) => {
    await knowledge.openSymbol('Dog');
    const canine = knowledge.graphNode('Dog', 'Canine');
    await expect(canine).toBeVisible();

    // Tab from the heading through the graph's nodes until Canine has focus.
    await knowledge.symbolHeading('Dog').focus();
    for (
      let presses = 0;
      presses < 40 && !(await canine.evaluate((node) => node === document.activeElement));
      presses++
    ) {
      await page.keyboard.press('Tab');
    }
    await expect(canine).toBeFocused();
    await page.keyboard.press('Space');

    await expect(knowledge.symbolHeading('Canine')).toBeVisible();
  });

  test('the similar-symbols list for Dog has Wolf first, and opens it', async ({ knowledge }) => {
    await knowledge.openSymbol('Dog');

    await expect(knowledge.similarSymbols.getByRole('button').first()).toHaveAccessibleName(/^Wolf \d\.\d\d$/);
    await knowledge.similarSymbol('Wolf').click();

    await expect(knowledge.symbolHeading('Wolf')).toBeVisible();
  });

  test('a second run of inference derives nothing new', async ({ knowledge }) => {
    expect(await knowledge.runInference()).toBeGreaterThan(0);
    const triplesAfterFirst = await knowledge.countOf('Triples');

    expect(await knowledge.runInference()).toBe(0);
    await expect(knowledge.inferenceStatus).toContainText('Derived 0 new facts');
    expect(await knowledge.countOf('Triples')).toBe(triplesAfterFirst);
  });

  test('the details of a symbol shown before inference pick up the derived facts', async ({ knowledge }) => {
    await knowledge.openSymbol('GoldenRetriever');
    await expect(knowledge.factRow(knowledge.outgoingTable, 'GoldenRetriever', 'subClassOf', 'Mammal')).toHaveCount(0);

    await knowledge.runInference();

    await expect(knowledge.factRow(knowledge.outgoingTable, 'GoldenRetriever', 'subClassOf', 'Mammal')).toBeVisible();
    await expect(knowledge.graphNode('GoldenRetriever', 'Mammal')).toBeVisible();
  });

  test('a minimum confidence outside 0 to 1 cannot be run', async ({ knowledge }) => {
    await expect(knowledge.minConfidenceInput).toHaveValue('0.1');

    await knowledge.minConfidenceInput.fill('2');

    await expect(knowledge.runInferenceButton).toBeDisabled();
    await expect(knowledge.inferenceRegion).toContainText('Enter a number from 0 to 1.');
  });
});

test.describe('on a 360 px wide phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the graph view, similar symbols and inference fit without sideways scrolling', async ({ shell, knowledge }) => {
    await knowledge.open();
    await knowledge.runInference();
    await knowledge.openSymbol('Dog');
    await expect(knowledge.graphNode('Dog', 'Wolf')).toBeVisible();
    await expect(knowledge.similarSymbol('Wolf')).toBeVisible();
    await knowledge.whyButton(knowledge.factRow(knowledge.outgoingTable, 'Dog', 'subClassOf', 'Mammal')).click();
    await knowledge.whyButton(knowledge.derivedFacts.getByRole('row').nth(1)).click();

    expect(await shell.pageWidth()).toBeLessThanOrEqual(360);
    const box = await knowledge.neighbourhoodGraph('Dog').boundingBox();
    expect(box?.width ?? Infinity).toBeLessThanOrEqual(360);
  });
});

test('a tab that shows the session read-only cannot run inference and says why', async ({ context, knowledge }) => {
  await knowledge.open();
  const second = new KnowledgePage(await context.newPage());
  await second.open();

  await expect(second.runInferenceButton).toBeDisabled();
  await expect(second.inferenceRegion).toContainText('open in another tab');
  await expect(knowledge.runInferenceButton).toBeEnabled();
});

test('a user imports a file, infers from it, and queries what only the rules could tell', async ({ knowledge }) => {
  await knowledge.open();
  const turtle =
    '@prefix e: <http://example.org/kennel#> .\ne:Fido e:is-a e:Dachshund .\ne:Dachshund e:is-a e:Hound .\ne:Hound e:is-a e:Dog .\n';
  await knowledge.importFileInput.setInputFiles({
    name: 'kennel.ttl',
    mimeType: 'text/turtle',
    buffer: Buffer.from(turtle),
  });
  await expect(knowledge.importStatus).toContainText('3 new triples');

  // Before inference, nothing says Fido is a Dog.
  await knowledge.runQuery('?x is-a Dog');
  await expect(knowledge.queryResults.getByRole('cell', { name: 'Fido', exact: true })).toHaveCount(0);

  await knowledge.runInference();
  await knowledge.runQuery('?x is-a Dog');
  // The user's is-a and Dog are other symbols than the starter graph's (is-a · e, Dog · e: told apart by the file's prefix), yet the names match them.
  await expect(knowledge.queryResults.getByRole('cell', { name: 'Fido', exact: true })).toBeVisible();
  await expect(knowledge.queryResults.getByRole('cell', { name: 'Dachshund', exact: true })).toBeVisible();
});
