import { expect, test } from './fixtures.ts';
import { DocumentsPage } from './page-models/documents-page.ts';
import { RUN_TIMEOUT_MS } from './page-models/goals-page.ts';

const MARS = 'Mars has volcanoes. Mars has craters. Olympus Mons is a volcano.';

test.describe('documents', () => {
  test.beforeEach(async ({ documents }) => {
    await documents.open();
  });

  test('an imported document is listed as not read yet, and an empty file is refused with the problem', async ({
    documents,
  }) => {
    await documents.importText('mars.txt', MARS);
    await expect(documents.status).toHaveText(`Imported mars.txt (${MARS.length} characters).`);
    await expect(documents.documentStatus('mars.txt')).toContainText('Not read yet');
    await expect(documents.documentSize('mars.txt')).toContainText(`${MARS.length} characters`);
    await expect(documents.document('mars.txt')).toContainText('Olympus Mons is a volcano.');

    await documents.importText('empty.txt', '');
    await expect(documents.alert).toContainText('“empty.txt” was not imported');
    await expect(documents.alert).toContainText('empty.txt is empty');
    await expect(documents.list.getByRole('article')).toHaveCount(1);
  });

  test('deleting a document asks first, says its facts stay, and removes it', async ({ documents }) => {
    await documents.importText('mars.txt', MARS);
    await expect(documents.document('mars.txt')).toBeVisible();

    const question = await documents.deleteDocument('mars.txt');
    expect(question).toContain('“mars.txt”');
    expect(question).toContain('stay in the graph');
    await expect(documents.status).toContainText('Deleted mars.txt');
    await expect(documents.document('mars.txt')).toHaveCount(0);
    await expect(documents.region).toContainText('No documents yet.');
  });

  test('a second tab lists the documents read-only, and says why it cannot import or delete', async ({
    context,
    documents,
  }) => {
    await documents.importText('mars.txt', MARS);
    await expect(documents.document('mars.txt')).toBeVisible();

    const second = new DocumentsPage(await context.newPage());
    await second.open();
    await expect(second.document('mars.txt')).toBeVisible();
    await expect(second.fileInput).toBeDisabled();
    await expect(second.fileInput).toHaveAccessibleDescription(/open in another tab/);
    await expect(second.deleteButton('mars.txt')).toBeDisabled();
    await expect(second.deleteButton('mars.txt')).toHaveAccessibleDescription(/open in another tab/);
  });

  test('the agent reads a document while it works on a goal, and the panel says how many facts it took', async ({
    shell,
    documents,
    goals,
  }) => {
    await documents.importText('mars.txt', MARS);
    await expect(documents.documentStatus('mars.txt')).toContainText('Not read yet');

    await shell.goTo('Goals');
    await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano crater' });
    await goals.run.runUntilDoneButton.click();
    await expect(goals.status('Learn about Mars')).toContainText('Completed', { timeout: RUN_TIMEOUT_MS });

    await shell.goTo('Knowledge');
    await expect(documents.documentStatus('mars.txt')).toContainText(/Turned into \d+ facts? on /);
  });
});
