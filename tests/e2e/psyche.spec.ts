import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures.ts';
import { RUN_TIMEOUT_MS } from './page-models/goals-page.ts';
import { PsychePage } from './page-models/psyche-page.ts';

test.describe('the psyche', () => {
  test.beforeEach(async ({ psyche }) => {
    await psyche.open();
  });

  test('the default psyche is the Scholar, with the sage dominant', async ({ psyche }) => {
    await expect(psyche.value('Persona')).toContainText('Scholar');
    await expect(psyche.value('Dominant archetype')).toContainText('Sage');
    await expect(psyche.value('Sage')).toContainText('0.70');
    await expect(psyche.chart).toHaveAccessibleName(/sage 0\.70/);
    await expect(psyche.tomlText).toHaveValue(/name = "Scholar"/);
    await expect(psyche.importButton).toBeDisabled();
  });

  test('psyche.toml with an error shows the problem with its line, and cannot be imported', async ({ psyche }) => {
    await psyche.editToml((text) => text.replace(/explorer = [\d.]+/, 'explorer = "lots"'));

    await expect(psyche.tomlProblems).toContainText(/line \d+/);
    await expect(psyche.tomlProblems).toContainText('explorer');
    await expect(psyche.tomlText).toHaveAttribute('aria-invalid', 'true');
    await expect(psyche.importButton).toBeDisabled();

    await psyche.editToml((text) => text.replace('explorer = "lots"', 'explorer = 0.6'));
    await expect(psyche.tomlStatus('Valid: it can be imported.')).toBeVisible();
    await expect(psyche.importButton).toBeEnabled();
  });

  test('an imported change makes a new version that the summary, chart and export show; restoring version 1 brings the old weights back, after a reload too', async ({
    page,
    psyche,
  }) => {
    const before = await psyche.currentVersion();
    await psyche.editToml((text) => text.replace(/explorer = [\d.]+/, 'explorer = 0.9'));
    await expect(psyche.tomlStatus('Valid: it can be imported.')).toBeVisible();
    await psyche.importButton.click();

    await expect(psyche.tomlStatus(/Imported .* as version \d+\./)).toBeVisible();
    await expect(psyche.value('Explorer')).toContainText('0.90');
    await expect.poll(() => psyche.currentVersion()).toBeGreaterThan(before);
    await expect(psyche.chart).toHaveAccessibleName(/explorer 0\.90/);
    await expect(psyche.importButton).toBeDisabled();

    const download = page.waitForEvent('download');
    await psyche.exportButton.click();
    const exported = await readFile(await (await download).path(), 'utf8');
    expect(exported).toMatch(/^explorer = 0\.9$/m);

    const imported = await psyche.currentVersion();
    await psyche.restore(1);
    await expect(psyche.historyStatus(`Restored version 1 as version ${imported + 1}.`)).toBeVisible();
    await expect(psyche.value('Explorer')).toContainText('0.50');
    await expect(psyche.value('Version')).toContainText(String(imported + 1));
    await expect(psyche.version(imported + 1)).toContainText('restored version 1');

    await page.reload();
    await psyche.waitUntilShown();
    await expect(psyche.value('Version')).toContainText(String(imported + 1));
    await expect(psyche.value('Explorer')).toContainText('0.50');
    await expect(psyche.versions.getByRole('listitem')).toHaveCount(imported + 1);
  });

  test('a psyche.toml file is checked and previewed before it is imported; an invalid one changes nothing and says why', async ({
    psyche,
  }) => {
    const before = await psyche.currentVersion();
    await psyche.chooseFile('broken.toml', '[archetypes]\nsage = 0.8\nexplorer = [\n');
    await expect(psyche.filePreview('broken.toml').getByRole('alert')).toContainText(
      /broken\.toml cannot be imported; nothing changed/,
    );
    await expect(psyche.filePreview('broken.toml').getByRole('alert')).toContainText(/line \d+/);
    await expect(psyche.filePreview('broken.toml').getByRole('button', { name: 'Import broken.toml' })).toHaveCount(0);
    expect(await psyche.currentVersion()).toBe(before);

    await psyche.chooseFile(
      'bold.toml',
      '[persona]\nname = "Pathfinder"\ngrammar_preference = "terse"\ntraits = ["bold"]\ntone = ["brief"]\n',
    );
    const preview = psyche.filePreview('bold.toml');
    await expect(preview).toContainText('Pathfinder');
    await expect(preview).toContainText('Sage 0.70');
    await expect(psyche.value('Persona')).toContainText('Scholar');
    await preview.getByRole('button', { name: 'Import bold.toml' }).click();

    await expect(psyche.tomlStatus(/Imported bold\.toml as version \d+\./)).toBeVisible();
    await expect(psyche.value('Persona')).toContainText('Pathfinder');
    await expect(psyche.value('Grammar')).toContainText('terse');
  });

  test('the form editor saves an edited persona as a new version', async ({ psyche }) => {
    const before = await psyche.currentVersion();
    await psyche.nameInput.fill('Cartographer');
    await psyche.form.getByRole('slider', { name: 'Guardian' }).fill('0.8');
    await psyche.saveButton.click();

    await expect(psyche.formStatus(/Saved as version \d+\./)).toBeVisible();
    await expect(psyche.value('Persona')).toContainText('Cartographer');
    await expect(psyche.value('Guardian')).toContainText('0.80');
    await expect(psyche.value('Dominant archetype')).toContainText('Guardian');
    await expect.poll(() => psyche.currentVersion()).toBeGreaterThan(before);
  });

  test("the persona's grammar writes up a goal's findings, and another grammar can be chosen", async ({
    shell,
    psyche,
    goals,
  }) => {
    await psyche.form.getByRole('combobox', { name: 'Grammar preference' }).selectOption('terse');
    await psyche.saveButton.click();
    await expect(psyche.value('Grammar')).toContainText('terse');

    await shell.goTo('Goals');
    await goals.addGoal({ description: 'Find mammals', criteria: '?x is-a mammal, at least 5' });
    await goals.run.runUntilDoneButton.click();
    await expect(goals.status('Find mammals')).toContainText('Completed', { timeout: RUN_TIMEOUT_MS });
    await goals.showFindings('Find mammals');
    await goals.findings('Find mammals').getByRole('button', { name: 'Write up' }).click();

    const writeUp = goals.findings('Find mammals').getByRole('group', { name: 'Write-up', exact: true });
    const grammar = writeUp.getByRole('combobox', { name: 'Grammar' });
    await expect(grammar).toHaveValue('terse');
    // A goal this big opens with its findings grouped by kind, then a sample of the facts.
    await expect(writeUp).toContainText(/\d+ facts by kind:\n- a kind of Mammal: \d+ \(Carnivore, /);
    await expect(writeUp).toContainText(/Carnivore -> subClassOf -> Mammal \[\d\.\d\d\]/);
    await expect(writeUp).toContainText(/… and \d+ more facts, not written out here/);

    await grammar.selectOption('formal');
    await expect(writeUp).toContainText(/facts by kind:\n- a kind of Mammal: \d+ \(Carnivore, /);
    await expect(writeUp).toContainText('Carnivore subClassOf Mammal (confidence');
    await expect(writeUp).not.toContainText('->');
    await expect(writeUp.getByRole('button', { name: 'Download' })).toBeEnabled();
  });
});

test('a second tab shows the psyche read-only: it cannot save, import or restore, and says why', async ({
  context,
  psyche,
}) => {
  await psyche.open();
  await psyche.importToml('[archetypes]\nsage = 0.7\nhealer = 0.5\nexplorer = 0.8\nguardian = 0.4\n');

  const second = new PsychePage(await context.newPage());
  await second.open();
  await expect(second.value('Explorer')).toContainText('0.80');
  await expect(second.saveButton).toBeDisabled();
  await expect(second.saveButton).toHaveAccessibleDescription(/open in another tab/);
  await second.editToml((text) => text.replace(/explorer = [\d.]+/, 'explorer = 0.6'));
  await expect(second.tomlStatus('Valid: it can be imported.')).toBeVisible();
  await expect(second.importButton).toBeDisabled();
  await expect(second.history.getByRole('button', { name: 'Restore version 1', exact: true })).toBeDisabled();
});
