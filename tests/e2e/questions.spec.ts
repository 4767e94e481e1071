import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures.ts';
import { RUN_TIMEOUT_MS } from './page-models/goals-page.ts';

test('a goal that asks a question shows how it is read, then its answer before its findings', async ({
  page,
  goals,
}) => {
  await goals.open();
  await goals.descriptionInput.fill('Which countries use the Euro as currency?');
  // The starter graph has no countries: the form says so before anything is added.
  await expect(goals.addRegion).toContainText('I cannot answer this from the graph', { timeout: 10_000 });
  await goals.descriptionInput.fill('Which mammals live in the ocean?');
  await expect(goals.addRegion).toContainText(
    'I read this as: every ?x with ?x lives-in Ocean . ?x is-a Mammal (following is-a chains)',
  );
  await expect(goals.addRegion.getByRole('list', { name: 'Words matched to the graph' })).toContainText(
    '“mammals” → Mammal',
  );
  await goals.descriptionInput.fill('');

  await goals.addGoal({ description: 'Is a whale a mammal?' });
  await goals.addGoal({ description: 'Find all mammals' });
  await goals.addGoal({ description: "Which birds can't fly?" });
  await goals.run.runUntilDoneButton.click();
  await expect(goals.status('Find all mammals')).toContainText('Completed', { timeout: RUN_TIMEOUT_MS });
  await goals.run.waitForRunEnd();

  const whale = goals.goal('Is a whale a mammal?');
  await expect(whale.getByRole('heading', { name: 'Answer: Yes' })).toBeVisible();
  await expect(whale.getByRole('list', { name: 'Proof' })).toContainText('Whale subClassOf Cetacean');

  await expect(goals.status("Which birds can't fly?")).toContainText('Failed');
  await expect(goals.goal("Which birds can't fly?").getByRole('heading', { name: 'Answer: No answer' })).toBeVisible();

  const mammals = goals.goal('Find all mammals');
  await expect(mammals.getByRole('heading', { name: /^Answer: \d+ answers$/ })).toBeVisible();
  await expect(mammals.getByRole('list', { name: /^Answers, 1–\d+ of \d+$/ })).toContainText('Whale');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    mammals.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('find-all-mammals-answer.csv');
  const csv = await readFile(await download.path(), 'utf8');
  expect(csv.startsWith('label,symbol\r\n')).toBe(true);
  expect(csv).toContain('Dolphin,');
});

test('a word the graph names two ways is read as the symbol picked, and the goal is answered so', async ({
  page,
  knowledge,
  goals,
}) => {
  await knowledge.open();
  await knowledge.importFile({
    name: 'clubs.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Bat (club),is-a,SportsEquipment\n'),
  });
  await expect(knowledge.importStatus).toContainText('1 new triple');
  // A third "bat" whose name is markup: it is shown as text, never run.
  await knowledge.importFile({
    name: 'markup.ttl',
    mimeType: 'text/turtle',
    buffer: Buffer.from(
      '<http://example.org/markup> <http://www.w3.org/2000/01/rdf-schema#label> "<img src=x onerror=window.hacked=1>"@en, "bat" .\n',
    ),
  });
  await expect(knowledge.importStatus).toContainText('2 new triples');

  await goals.open();
  await goals.descriptionInput.fill('What is a bat?');
  const which = goals.addRegion.getByRole('group', { name: 'Which does “bat” mean?' });
  await expect(which.getByRole('radio')).toHaveCount(3, { timeout: 10_000 });
  await expect(which.getByRole('radio', { name: '<img src=x onerror=window.hacked=1>' })).toBeVisible();
  await expect(which.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => 'hacked' in window)).toBe(false);
  await expect(goals.addRegion).toContainText('I cannot answer this from the graph: "bat" may mean Bat or Bat (club)');
  await which.getByRole('radio', { name: 'Bat (club)' }).check();
  await expect(goals.addRegion).toContainText('I read this as: what Bat (club) is');
  await expect(goals.addRegion.getByRole('list', { name: 'Words matched to the graph' })).toContainText(
    '“bat” → Bat (club)',
  );
  await goals.addButton.click();
  await expect(goals.goal('What is a bat?')).toBeVisible();

  await goals.run.runUntilDoneButton.click();
  await expect(goals.status('What is a bat?')).toContainText('Completed', { timeout: RUN_TIMEOUT_MS });
  await goals.run.waitForRunEnd();
  const bat = goals.goal('What is a bat?');
  await expect(bat.getByRole('list', { name: /^Answers, / })).toContainText('SportsEquipment');
  await expect(bat.getByRole('list', { name: /^Answers, / })).not.toContainText('Mammal');
  await expect(bat).toContainText('with “bat” as Bat (club) as you chose');
});
