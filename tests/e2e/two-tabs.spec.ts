import { NEVER_ASK, expect, test } from './fixtures.ts';
import { AppShell } from './page-models/app-shell.ts';
import { CyclesPage } from './page-models/cycles-page.ts';
import { KnowledgePage } from './page-models/knowledge-page.ts';
import { SettingsPage } from './page-models/settings-page.ts';

const csv = (text: string) => ({ name: 'more.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });

/** Taking over waits for the browser to end the closed tab's worker, which releases its lock. */
const TAKE_OVER_TIMEOUT_MS = 20_000;

test("a second tab shows the session read-only and follows the first tab's changes live, then takes over when the first closes", async ({
  context,
  knowledge,
}) => {
  await knowledge.open();
  const second = new KnowledgePage(await context.newPage());
  const secondShell = new AppShell(second.page);
  await second.open();
  await expect(secondShell.readOnlyNotice).toBeVisible();
  const before = await second.countOf('Triples');

  await second.importFileInput.setInputFiles(csv('Tabby,is-a,Cat\n'));
  await expect(second.importAlert).toContainText('open in another tab');
  expect(await second.countOf('Triples')).toBe(before);

  // The first tab keeps working as the writer; the second shows what it wrote without a reload.
  await knowledge.importFileInput.setInputFiles(csv('Rex,is-a,Dog\n'));
  await expect(knowledge.importStatus).toContainText('1 new triple');
  await expect.poll(() => second.countOf('Triples')).toBe(before + 1);
  await second.search('Rex');
  await expect(second.searchHit('Rex')).toBeVisible();

  await knowledge.page.close();
  await expect(secondShell.takeOverNotice).toBeVisible({ timeout: TAKE_OVER_TIMEOUT_MS });
  await expect(secondShell.readOnlyNotice).toBeHidden();
  await second.importFileInput.setInputFiles(csv('Tabby,is-a,Cat\n'));
  await expect(second.importStatus).toContainText('1 new triple');
  expect(await second.countOf('Triples')).toBe(before + 2);
});

test("a second tab lists the first tab's cycles as they run, and runs cycles itself once the first closes", async ({
  context,
  shell,
  psyche,
  goals,
}) => {
  // A psyche that never asks: the goal stays active for every cycle of both runs.
  await psyche.open();
  await psyche.importToml(NEVER_ASK);
  await shell.goTo('Goals');
  await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano crater' });

  const second = new CyclesPage(await context.newPage());
  await second.open();
  await expect(second.run.runOneButton).toBeDisabled();
  await expect(second.entries()).toHaveCount(0);

  await goals.run.runCycles(3);
  await expect(second.entries()).toHaveCount(3);
  await expect(second.entries().first()).toHaveAccessibleName('Cycle 3');
  await expect(second.goal(3)).toContainText('Learn about Mars');

  await goals.page.close();
  await expect(second.run.runOneButton).toBeEnabled({ timeout: TAKE_OVER_TIMEOUT_MS });
  await expect(new AppShell(second.page).takeOverNotice).toBeVisible();
  await second.run.runOneButton.click();
  await expect(second.run.status).toHaveText('Ran 1 cycle (up to cycle 4).', { timeout: 30_000 });
  await expect(second.entries().first()).toHaveAccessibleName('Cycle 4');
});

test("a second tab's Settings follow the settings the first tab saves", async ({ context, settings }) => {
  await settings.open();
  const second = new SettingsPage(await context.newPage());
  await second.open();
  await expect(second.saveAgentButton).toBeDisabled();

  await settings.reflectionIntervalInput.fill('7');
  await settings.saveAgentButton.click();
  await expect(settings.agentStatus).toContainText('Saved');
  await expect(second.reflectionIntervalInput).toHaveValue('7');

  await settings.languageModel.saveEndpoint({ baseUrl: 'http://127.0.0.1:9/v1', model: 'tiny-test' });
  await expect(settings.languageModel.saveStatus).toHaveText(/^Saved: runs bind tiny-test/);
  await expect(second.languageModel.baseUrlInput).toHaveValue('http://127.0.0.1:9/v1');
});
