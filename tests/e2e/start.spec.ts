import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** Drops a file on the page, as a user drags one from their desktop onto it. */
async function dropFile(page: Page, name: string, text: string): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ name, text }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name));
      return transfer;
    },
    { name, text },
  );
  await page.dispatchEvent('main', 'dragover', { dataTransfer });
  await page.dispatchEvent('main', 'drop', { dataTransfer });
}

const explore = (page: Page) => page.getByRole('button', { name: 'Explore the starter graph' });

test('a first visit opens on the start screen; an example goal runs on a click and shows where to look', async ({
  page,
  shell,
}) => {
  await page.goto('/');
  await expect(shell.heading('Start')).toBeVisible();
  await expect(page.getByText(/^Anima is an agent that lives in your browser/)).toBeVisible();
  for (const way of ['Explore the starter graph', 'Start an empty session', 'Import a file'])
    await expect(page.getByRole('heading', { level: 3, name: way })).toBeVisible();

  await explore(page).click();
  const examples = page.getByRole('region', { name: 'Try a goal' }).getByRole('button');
  await expect(examples).toHaveText([
    'Find every Animal',
    'Is Horse an Animal?',
    'What do Pluto and Ceres have in common?',
  ]);
  await examples.filter({ hasText: 'Is Horse an Animal?' }).click();

  const where = page.getByRole('region', { name: 'Where to look' });
  await expect(where.getByRole('status')).toHaveText('Answered: Yes.');
  await where.getByRole('link', { name: 'The cycle log' }).click();
  await expect(shell.heading('Cycles')).toBeVisible();
  await page.goBack();
  await where.getByRole('link', { name: 'The answer' }).click();
  await expect(shell.heading('Goals')).toBeVisible();
  await expect(page.getByText('Is Horse an Animal?').first()).toBeVisible();

  // After the first visit, Goals is home; the start screen stays in the menu.
  await page.goto('/');
  await expect(shell.heading('Goals')).toBeVisible();
  await shell.goTo('Start');
  await expect(explore(page)).toBeEnabled();
});

test('an empty session starts from the start screen, and says how to fill it', async ({ page, shell, knowledge }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Start an empty session' }).click();
  await expect(page.getByRole('banner')).toContainText('Empty session');
  await expect(page.getByText(/This graph holds no “is a” facts to ask about yet/)).toBeVisible();
  await shell.goTo('Knowledge');
  await expect(knowledge.count('Triples')).toHaveText('Triples 0');
});

test('a graph file chosen on the start screen is read by its content and imported into a session of its own', async ({
  page,
  shell,
  knowledge,
}) => {
  await page.goto('/');
  await expect(explore(page)).toBeEnabled();
  const turtle = [
    '@prefix : <http://example.org/> .',
    ':Germany :is-a :Country .',
    ':France :is-a :Country .',
    ':Country :is-a :Place .',
    ':Berlin :is-a :City .',
    ':Paris :is-a :City .',
    ':City :is-a :Place .',
  ].join('\n');
  // Named .txt: its content, not its name, says it is a graph.
  await page.getByLabel('Choose a file…').setInputFiles({
    name: 'places.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from(turtle),
  });
  await expect(page.getByRole('heading', { name: 'places.txt is a knowledge graph (turtle)' })).toBeVisible();
  await page.getByRole('button', { name: 'Import into a new session' }).click();
  await expect(page.getByRole('banner')).toContainText('places');
  await expect(page.getByRole('region', { name: 'Try a goal' }).getByRole('button').first()).toHaveText(
    'Find every Place',
  );
  await shell.goTo('Knowledge');
  await expect(knowledge.count('Triples')).toHaveText('Triples 6');
});

test('a psyche.toml dropped on any screen opens its preview on the Psyche screen', async ({
  page,
  shell,
  knowledge,
}) => {
  await knowledge.open();
  await dropFile(page, 'calm.toml', '[persona]\nname = "Calm"\n');
  await expect(shell.heading('Psyche')).toBeVisible();
  const preview = page.getByRole('group', { name: 'Preview of calm.toml' });
  await expect(preview).toContainText('Calm');
  // Nothing changed yet: the preview waits for the user's confirmation.
  await expect(preview.getByRole('button', { name: 'Import calm.toml' })).toBeVisible();
});

test('a character card chosen on the start screen opens its preview on the Personas screen', async ({
  page,
  shell,
}) => {
  await page.goto('/');
  await expect(explore(page)).toBeEnabled();
  const card = { spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Ada', description: 'A careful reader.' } };
  await page.getByLabel('Choose a file…').setInputFiles({
    name: 'ada.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(card)),
  });
  await expect(shell.heading('Personas')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Preview of ada.json' })).toContainText('Ada');
});

test('a file Anima does not read is refused in a sentence, and nothing changes', async ({ page }) => {
  await page.goto('/');
  await expect(explore(page)).toBeEnabled();
  await dropFile(page, 'diary.txt', 'Dear diary, today I met a dog.');
  await expect(page.getByRole('alert')).toContainText('diary.txt is none of the files Anima reads');
  await expect(page.getByRole('banner')).toContainText('My session');
});
