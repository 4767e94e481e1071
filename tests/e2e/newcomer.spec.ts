import { expect, test } from './fixtures.ts';

test('symbol search shows how many match and lets the user see every match', async ({ page, knowledge }) => {
  await knowledge.open();
  await knowledge.searchBox.fill('a');
  const summary = knowledge.searchSummary;
  await expect(summary).toHaveText(/^50 of [\d,]+ matches$/);
  const total = Number((await summary.textContent())!.replace(/^50 of /, '').replace(/\D/g, ''));
  expect(total).toBeGreaterThan(50);
  const items = knowledge.searchResults.getByRole('listitem');
  await expect(items).toHaveCount(50);

  const more = page.getByRole('button', { name: /^Show [\d,]+ more$/ });
  let shown = 50;
  while (await more.isVisible()) {
    await more.click();
    await expect(items).not.toHaveCount(shown);
    shown = await items.count();
  }
  await expect(summary).toHaveText(total === 1 ? '1 match' : `${total.toLocaleString('en')} matches`);
  await expect(items).toHaveCount(Math.min(total, 1000));
});

test('a long session name stays inside the sidebar', async ({ page, shell }) => {
  const { SessionsPage } = await import('./page-models/sessions-page.ts');
  const sessions = new SessionsPage(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/sessions');
  await shell.goTo('Sessions');
  const longName = 'A session about the long history of every mammal of the northern hemisphere and their cousins';
  await sessions.rename('My session', longName);
  const banner = page.getByRole('banner');
  await expect(banner).toContainText(longName.slice(0, 20));
  const sidebar = await banner.boundingBox();
  const name = await banner.getByText(longName.slice(0, 20)).boundingBox();
  expect(name!.x + name!.width).toBeLessThanOrEqual(sidebar!.x + sidebar!.width + 1);
});

test('at 390 px wide every screen link is in view', async ({ page, shell }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto('/#/knowledge');
  await expect(shell.heading('Knowledge')).toBeVisible();
  for (const link of await shell.navigation.getByRole('link').all()) {
    const box = (await link.boundingBox())!;
    const name = (await link.textContent()) ?? '';
    expect(box.x, name).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, name).toBeLessThanOrEqual(390);
  }
  expect(await shell.pageWidth()).toBeLessThanOrEqual(390);
});

test('the first Tab reaches a skip link that leads past the navigation to the screen', async ({ page, shell }) => {
  await page.goto('/#/goals');
  await expect(shell.heading('Goals')).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the Goals screen' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(shell.heading('Goals')).toBeFocused();
  // The address still names the screen.
  expect(new URL(page.url()).hash).toBe('#/goals');
});

test("file pickers look like the app's buttons", async ({ knowledge }) => {
  await knowledge.open();
  const picker = await knowledge.importFileInput.evaluate((input) => {
    const style = getComputedStyle(input, '::file-selector-button');
    return [style.backgroundColor, style.borderRadius, style.borderTopColor, style.paddingLeft];
  });
  const button = await knowledge.exportButton.evaluate((element) => {
    const style = getComputedStyle(element);
    return [style.backgroundColor, style.borderRadius, style.borderTopColor, style.paddingLeft];
  });
  expect(picker).toEqual(button);
});

test('a psyche import shows its difference, and removing a veto needs an explicit confirmation', async ({ psyche }) => {
  await psyche.open();
  const noVetoes = `[persona]
name = "Daredevil"

[shadow]
veto_patterns = []
bias_patterns = []

[archetypes]
explorer = 0.95
`;
  await psyche.chooseFile('daredevil.toml', noVetoes);
  const preview = psyche.filePreview('daredevil.toml');
  const changes = preview.getByRole('list', { name: 'Changes from the current psyche' });
  await expect(changes).toContainText('becomes Daredevil');
  await expect(changes).toContainText(/Explorer: weight [\d.]+ becomes 0\.95/);
  await expect(changes).toContainText(/Safety: veto patterns removed: “destructive_action”/);

  const importButton = preview.getByRole('button', { name: 'Import daredevil.toml' });
  await expect(importButton).toBeDisabled();
  await preview.getByRole('checkbox', { name: /safeguards? of the current psyche go away/ }).check();
  await expect(importButton).toBeEnabled();
  await importButton.click();
  await expect(psyche.tomlStatus(/Imported daredevil\.toml as version \d+\./)).toBeVisible();
});

test("a goal's findings export as CSV and N-Triples, every one of them, as counted", async ({ page, goals }) => {
  test.setTimeout(120_000);
  await goals.open();
  await goals.addGoal({ description: 'Find mammals', criteria: '?x is-a mammal, at least 5' });
  await goals.run.runUntilDoneButton.click();
  await expect(goals.status('Find mammals')).toContainText('Completed', { timeout: 90_000 });
  await goals.showFindings('Find mammals');
  const findings = goals.findings('Find mammals');
  const countText = (await findings.getByText(/^\d[\d,]* findings?$/).textContent())!;
  const count = Number(countText.replace(/\D/g, ''));

  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    findings.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/^goal-\d+-findings\.csv$/);
  const csvLines = (await (await import('node:fs/promises')).readFile((await csv.path())!, 'utf8'))
    .trimEnd()
    .split('\n');
  expect(csvLines).toHaveLength(count);
  expect(csvLines).toContainEqual(expect.stringMatching(/^SiameseCat,subClassOf,Mammal,/));

  const [nTriples] = await Promise.all([
    page.waitForEvent('download'),
    findings.getByRole('button', { name: 'Export N-Triples' }).click(),
  ]);
  const ntLines = (await (await import('node:fs/promises')).readFile((await nTriples.path())!, 'utf8'))
    .trimEnd()
    .split('\n');
  expect(ntLines).toHaveLength(count);
  expect(ntLines.every((line) => line.endsWith(' .'))).toBe(true);
});

test("a goal's findings sort and filter, and the export follows the filter", async ({ page, goals }) => {
  test.setTimeout(120_000);
  await goals.open();
  await goals.addGoal({ description: 'Find mammals', criteria: '?x is-a mammal, at least 5' });
  await goals.run.runUntilDoneButton.click();
  await expect(goals.status('Find mammals')).toContainText('Completed', { timeout: 90_000 });
  await goals.showFindings('Find mammals');
  const findings = goals.findings('Find mammals');
  const total = Number(((await findings.getByText(/^\d[\d,]* findings?$/).textContent()) ?? '').replace(/\D/g, ''));

  await findings.getByRole('searchbox', { name: 'Filter' }).fill('siamese mammal');
  await expect(findings.getByRole('status')).toHaveText(`1 matching finding (of ${total.toLocaleString('en')})`);
  await expect(findings.getByRole('listitem')).toHaveCount(2);
  await expect(goals.findingGroup('Find mammals', 'subClassOf Mammal')).toHaveText(/^SiameseCat \(0\.\d\d\)$/);

  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    findings.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/^goal-\d+-findings-filtered\.csv$/);
  const lines = (await (await import('node:fs/promises')).readFile((await csv.path())!, 'utf8')).trimEnd().split('\n');
  expect(lines).toEqual([expect.stringMatching(/^SiameseCat,subClassOf,Mammal,0\.\d+/)]);

  // By confidence, one fact a line with its source, the most certain first.
  await findings.getByRole('searchbox', { name: 'Filter' }).fill('');
  await findings.getByRole('combobox', { name: 'Sort by' }).selectOption('Confidence');
  const byConfidence = findings.getByRole('list', { name: 'Findings by confidence' }).getByRole('listitem');
  await expect(byConfidence).toHaveCount(Math.min(total, 200));
  await expect(byConfidence.first()).toContainText('(1.00)');
  await expect(byConfidence.last()).not.toContainText('(1.00)');
  await expect(byConfidence.filter({ hasText: /^SiameseCat subClassOf Mammal \(0\.\d\d\) · Inferred$/ })).toHaveCount(
    1,
  );
});
