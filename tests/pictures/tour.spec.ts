import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../e2e/fixtures.ts';
import { RUN_TIMEOUT_MS } from '../e2e/page-models/goals-page.ts';
import { SessionsPage } from '../e2e/page-models/sessions-page.ts';

/**
 * The README's five-minute tour, walked in the built app with one picture a step, written to
 * docs/pictures/ (`npm run docs:pictures`). Each picture is the window (1280x800) with the
 * pictured part scrolled to its top, so the menu shows where it is.
 */

/** The most a picture may weigh: the README loads five. */
const MAX_PICTURE_BYTES = 150 * 1024;

/**
 * Scrolls a part of the screen to the top of the window and saves the window (its top `height`
 * pixels: less for a dense screen, whose picture would be heavy) as docs/pictures/NAME.png.
 */
async function picture(page: Page, part: Locator, name: string, height = 800): Promise<void> {
  await part.evaluate((element) => element.scrollIntoView({ block: 'start' }));
  // Focus rings and the caret are not part of the tour.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const png = await page.screenshot({
    path: `docs/pictures/${name}.png`,
    clip: { x: 0, y: 0, width: 1280, height },
    animations: 'disabled',
    caret: 'hide',
  });
  expect(png.byteLength, `${name}.png`).toBeLessThan(MAX_PICTURE_BYTES);
}

/** A psyche file whose shadow loses the default veto: its import shows the difference, safety first. */
const DAREDEVIL = `[persona]
name = "Daredevil"

[shadow]
veto_patterns = []
bias_patterns = []

[archetypes]
explorer = 0.95
`;

/** A psyche whose only veto holds every query of the graph for the user's approval. */
const ASK_BEFORE_QUERYING = `[shadow]
bias_patterns = []

[[shadow.veto_patterns]]
name = "ask_before_querying"
triggers = ["kg_query"]
severity = 0.5
explanation = "Queries wait for your approval."
require_approval = true
`;

test('the five-minute tour, in pictures', async ({ page, shell, goals, cycles, psyche, approvals }) => {
  // 1. A question answered: a goal run until done, its findings open.
  await goals.open();
  await goals.addGoal({ description: 'Find mammals', criteria: '?x is-a mammal, at least 5' });
  await goals.run.runUntilDoneButton.click();
  await expect(goals.status('Find mammals')).toContainText('Completed', { timeout: 90_000 });
  await goals.showFindings('Find mammals');
  await expect(goals.findings('Find mammals').getByRole('listitem').first()).toBeVisible();
  await picture(page, goals.goal('Find mammals'), 'question-answered');

  // 2. The cycle log: the first cycle, with the score of every tool considered.
  await shell.goTo('Cycles');
  await cycles.showScores(1);
  await expect(cycles.scores(1)).toBeVisible();
  await picture(page, cycles.cycle(1), 'cycle-log', 640);

  // 3. A psyche import: the difference from the current psyche, a removed veto marked as a safety change.
  await shell.goTo('Psyche');
  await psyche.chooseFile('daredevil.toml', DAREDEVIL);
  const preview = psyche.filePreview('daredevil.toml');
  await expect(preview.getByRole('list', { name: 'Changes from the current psyche' })).toContainText('Safety');
  await picture(page, preview, 'psyche-import');

  // 4. An approval: a psyche that holds queries for approval, and the query it held.
  await psyche.importToml(ASK_BEFORE_QUERYING);
  await shell.goTo('Goals');
  await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano crater' });
  await goals.run.runUntilDoneButton.click();
  await expect(goals.status('Learn about Mars')).toContainText('Waiting for you', { timeout: RUN_TIMEOUT_MS });
  await shell.goTo('Approvals');
  const pending = approvals.pending('kg_query', 'Learn about Mars');
  await expect(pending).toContainText('Queries wait for your approval.');
  await picture(page, pending, 'approval');

  // 5. A snapshot: the session renamed and exported as one file.
  const sessions = new SessionsPage(page);
  await shell.goTo('Sessions');
  await sessions.rename('My session', 'Mammals and Mars');
  const download = await sessions.exportFile('Mammals and Mars', 'JSON');
  expect(download.suggestedFilename()).toBe('mammals-and-mars.anima.json');
  await picture(page, sessions.session('Mammals and Mars'), 'snapshot-export');
});
