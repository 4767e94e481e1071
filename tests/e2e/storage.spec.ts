import { expect, test } from './fixtures.ts';
import { DeviceStorage } from './page-models/device-storage.ts';
import { RUN_TIMEOUT_MS } from './page-models/goals-page.ts';
import { StoragePanel } from './page-models/storage-panel.ts';

/** Room for the app, its starter graph and a few cycles; little enough to fill in a moment. */
const SMALL_QUOTA_BYTES = 48 * 2 ** 20;
const LARGE_QUOTA_BYTES = 2 * 2 ** 30;

test.describe('storage', () => {
  test('on a full storage a run pauses after the last stored cycle and an import stores nothing; with room again, the run goes on', async ({
    page,
    baseURL,
    goals,
    cycles,
    knowledge,
    settings,
  }) => {
    const device = new DeviceStorage(page, new URL(baseURL!).origin);
    await device.setQuota(SMALL_QUOTA_BYTES);
    await goals.open();
    await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano crater' });
    await goals.run.runCycles(2);
    await expect(goals.run.status).toHaveText('Ran 2 cycles (up to cycle 2).');

    const panel = new StoragePanel(page);
    await settings.open();
    await expect(panel.usage).toHaveText(/^[\d.,]+ (MB|GB) of [\d.,]+ (MB|GB) used \((under 1|\d+)%\)$/);
    const usedBefore = await panel.usedMegabytes();

    expect(await device.fill()).toBeGreaterThan(0);
    // Opened again, the panel reads the usage again: the filler shows.
    await goals.open();
    await settings.open();
    await expect.poll(() => panel.usedMegabytes()).toBeGreaterThan(usedBefore + 10);

    await goals.open();
    await goals.run.cyclesInput.fill('3');
    await goals.run.runButton.click();
    await expect(goals.run.alert).toHaveText(
      'Storage is full: the run paused after cycle 2. Nothing from the unfinished cycle was kept. Free space (delete a model or a session) or allow more storage, then run again.',
      { timeout: RUN_TIMEOUT_MS },
    );
    await expect(goals.cyclesWorked('Learn about Mars')).toContainText('2');

    // What is shown after a reload is what was stored: two cycles, nothing of the third.
    await page.reload();
    await cycles.open();
    await expect(cycles.entries()).toHaveCount(2);
    await expect(cycles.entries().first()).toHaveAccessibleName('Cycle 2');

    // An import that does not fit is refused whole: the counts after a reload are the stored ones.
    await knowledge.open();
    const triplesBefore = await knowledge.countOf('Triples');
    await knowledge.importFile({
      name: 'aliens.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Zorblax,is-a,Alien\nAlien,is-a,Creature\n'),
    });
    await expect(knowledge.importAlert).toHaveText(
      '“aliens.csv” was not imported: storage is full, and nothing of it was kept. Free space (delete a model or a session) or allow more storage, then try again.',
    );
    await page.reload();
    await knowledge.open();
    expect(await knowledge.countOf('Triples')).toBe(triplesBefore);

    await device.setQuota(LARGE_QUOTA_BYTES);
    await cycles.open();
    await cycles.run.runOneButton.click();
    await expect(cycles.run.status).toHaveText('Ran 1 cycle (up to cycle 3).', { timeout: RUN_TIMEOUT_MS });
    await expect(cycles.entries().first()).toHaveAccessibleName('Cycle 3');
    await page.reload();
    await cycles.open();
    await expect(cycles.entries()).toHaveCount(3);
  });

  test('the Settings screen shows how much is stored, and asks the browser to keep the data, saying truthfully what it answered', async ({
    page,
    settings,
  }) => {
    const panel = new StoragePanel(page);
    await settings.open();
    await expect(panel.usage).toHaveText(/^[\d.,]+ (MB|GB) of [\d.,]+ (MB|GB) used \((under 1|\d+)%\)$/);
    const isPersisted = () => page.evaluate(() => navigator.storage.persisted());
    if (await isPersisted()) {
      await expect(panel.persistence).toHaveText(/^Persistent:/);
      return;
    }
    await expect(panel.persistence).toHaveText(
      /^Not persistent: the browser may clear Anima's data .* An exported session snapshot is a copy that survives that\.$/,
    );
    await panel.keepDataButton.click();
    await expect(panel.persistence).not.toHaveText(/^Not persistent/);
    await expect(panel.persistence).toHaveText(
      (await isPersisted()) ? /^Persistent:/ : /^The browser said no: the browser may clear Anima's data/,
    );
  });
});
