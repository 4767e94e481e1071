import { NEVER_ASK, expect, test } from './fixtures.ts';
import { RUN_TIMEOUT_MS } from './page-models/goals-page.ts';
import { MemoryPage } from './page-models/memory-page.ts';

const MARS = { description: 'Learn about Mars', criteria: 'volcano crater' };
const LONGER_ON_MARS = { description: 'Study the surface of Mars', criteria: 'canyon dune' };
const LONGEST_ON_MARS = { description: 'Map the poles of Mars', criteria: 'ice cap glacier' };

test.describe('memory', () => {
  test('two cycles fill working memory; consolidating turns them into an episode that recall finds', async ({
    shell,
    goals,
    memory,
  }) => {
    await goals.open();
    await goals.addGoal(MARS);
    await goals.run.runCycles(2);

    await shell.goTo('Memory');
    // Each cycle notes an observation, a decision and an action.
    await expect(memory.pressureMeter).toHaveAccessibleDescription(/^6 of 100 entries\b/);
    await expect(memory.entries()).toHaveCount(6);
    await expect(memory.entries().first()).toHaveAccessibleName('Action, cycle 2');
    const action = memory.entriesWithTool('Action', 'kg_query');
    await expect(action).toContainText('triples around Mars');
    await expect(memory.value(action, 'Relevance')).toHaveText(/\d\.\d\d$/);
    await expect(
      memory
        .chips(action, 'Symbols')
        .getByRole('listitem')
        .filter({ hasText: /^Mars$/ }),
    ).toBeVisible();
    await expect(memory.episodes.getByRole('article')).toHaveCount(0);
    const before = await memory.entryCount();

    await memory.consolidateButton.click();
    await expect(memory.consolidateStatus).toHaveText(/^1 episode added; \d+ entries? left in working memory\.$/);
    const episode = memory.episodeItems().first();
    await expect(memory.episodeItems()).toHaveCount(1);
    await expect(episode).toHaveAccessibleName('Episode of cycle 2');
    await expect(memory.value(episode, 'Tools')).toHaveText(/infer_rules, kg_query$/);
    await expect(memory.value(episode, 'Goal')).toContainText('Learn about Mars');
    await expect(
      memory
        .chips(episode, 'Learnings')
        .getByRole('listitem')
        .filter({ hasText: /^Mars$/ }),
    ).toBeVisible();
    // The consolidated entries left working memory; what the status says is what the meter shows.
    await expect.poll(() => memory.entryCount()).toBeLessThan(before);
    const left = Number(/(\d+) entr/.exec((await memory.consolidateStatus.textContent()) ?? '')?.[1]);
    expect(await memory.entryCount()).toBe(left);
    await expect(memory.entries()).toHaveCount(left);

    await memory.recall('Mars');
    await expect(memory.recalledEpisodes.getByRole('article')).toHaveCount(1);
    const recalled = memory.recalledEpisodes.getByRole('article', { name: 'Episode of cycle 2' });
    await expect(memory.value(recalled, 'Score')).toHaveText(/\d\.\d\d$/);
    await expect(recalled).toContainText('triples around Mars');

    await memory.recall('zqxv');
    await expect(memory.recallStatus).toHaveText('No episode matches.');
    await expect(memory.recalledEpisodes).toHaveCount(0);
  });

  test('with nothing in working memory there is nothing to consolidate, and the button says so', async ({ memory }) => {
    await memory.open();

    await expect(memory.pressureMeter).toHaveAccessibleDescription(/^0 of 100 entries\b/);
    await expect(memory.consolidateButton).toBeDisabled();
    await expect(memory.consolidateButton).toHaveAccessibleDescription(/empty/);
    await expect(memory.workingMemoryRegion).toContainText('Working memory is empty');
    await expect(memory.pressureMeter).toHaveAccessibleDescription(/80%/);
  });

  test('the lists follow a run started on the Goals screen, cycle by cycle', async ({
    shell,
    goals,
    memory,
    psyche,
  }) => {
    // A psyche that never asks: the run goes on until paused.
    await psyche.open();
    await psyche.importToml(NEVER_ASK);
    await goals.open();
    // Each goal is given up after some 17 cycles: three make a run long enough to watch on a busy
    // machine (with one, CI once saw the run end before the Memory screen opened).
    for (const goal of [MARS, LONGER_ON_MARS, LONGEST_ON_MARS]) await goals.addGoal(goal);
    await goals.run.runUntilDoneButton.click();

    // Straight to Memory while the run is young.
    await shell.goTo('Memory');
    await expect(memory.entries().or(memory.episodeItems()).first()).toBeVisible({ timeout: RUN_TIMEOUT_MS });
    // The screen fetched memory when it opened; newer cycles appear only if it follows the run, in
    // working memory while the goal runs, and in its episode once it is given up.
    const seen = await memory.newestCycle();
    await expect.poll(() => memory.newestCycle(), { timeout: RUN_TIMEOUT_MS }).toBeGreaterThan(seen);

    await shell.goTo('Goals');
    // The goals cannot be met on the starter graph: by now the run may have given them up (each
    // abandoned after 3 times its stall threshold) and ended; a run still going is paused.
    await goals.run.pauseIfRunning();
  });
});

test('a goal that ends leaves what working memory held for it to its episode', async ({ shell, goals, memory }) => {
  await goals.open();
  await goals.addGoal({ description: 'Find mammals', criteria: '?x is-a mammal, at least 5' });
  await goals.run.runCycles(1);
  await expect(goals.status('Find mammals')).toContainText('Completed');

  await shell.goTo('Memory');
  await expect(memory.episodeItems()).toHaveCount(1);
  const episode = memory.episodeItems().first();
  await expect(episode).toHaveAccessibleName('Episode of cycle 1');
  await expect(memory.value(episode, 'Goal')).toContainText('Find mammals');
  await expect(memory.value(episode, 'Tools')).toHaveText(/infer_rules$/);
  await expect(memory.entries()).toHaveCount(0);
  await expect(memory.workingMemoryRegion).toContainText('a goal that ends leaves its entries to its episode');
  await expect(memory.pressureMeter).toHaveAccessibleDescription(/^0 of 100 entries\b/);
  expect(await memory.newestCycle()).toBe(1);
});

test('a second tab shows memory read-only: Consolidate now is disabled, and says why', async ({ context, goals }) => {
  await goals.open();
  await goals.addGoal(MARS);
  await goals.run.runCycles(1);

  const second = new MemoryPage(await context.newPage());
  await second.open();
  await expect(second.entries()).toHaveCount(3);
  await expect(second.consolidateButton).toBeDisabled();
  await expect(second.consolidateButton).toHaveAccessibleDescription(/open in another tab/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 780 } });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`working memory, episodes and recall fit without sideways scrolling (${colorScheme})`, async ({
      page,
      shell,
      goals,
      memory,
    }) => {
      await page.emulateMedia({ colorScheme });
      await goals.open();
      await goals.addGoal(MARS);
      await goals.run.runCycles(2);

      await shell.goTo('Memory');
      await expect(memory.entries()).toHaveCount(6);
      await memory.consolidateButton.click();
      await expect(memory.episodeItems()).toHaveCount(1);
      await memory.recall('Mars');
      await expect(memory.recalledEpisodes.getByRole('article')).toHaveCount(1);
      expect(await shell.pageWidth()).toBeLessThanOrEqual(360);
    });
  }
});
