import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures.ts';
import { RUN_TIMEOUT_MS } from './page-models/goals-page.ts';

/** A goal that asks for notes: file_io writes its findings to goal-1-notes.md, and it completes once the note holds them all. */
const GOAL = { description: 'Find mammals and keep notes', criteria: '?x is-a mammal, at least 5' };
const OTHER_GOAL = { description: 'Find birds', criteria: '?x is-a bird, at least 2' };

test('a goal that asks for notes shows its note as an artifact, to read and to download', async ({ page, goals }) => {
  await goals.open();
  await goals.addGoal(GOAL);
  await goals.addGoal(OTHER_GOAL);
  await expect(goals.artifactsButton(GOAL.description)).toHaveCount(0);

  await goals.run.runUntilDoneButton.click();
  await expect(goals.status(GOAL.description)).toContainText('Completed', { timeout: RUN_TIMEOUT_MS });
  await goals.run.waitForRunEnd();

  // A goal that asked for no notes shows nothing more.
  await expect(goals.artifactsButton(OTHER_GOAL.description)).toHaveCount(0);

  await goals.showArtifacts(GOAL.description);
  await expect(goals.artifactsButton(GOAL.description)).toHaveAttribute('aria-expanded', 'true');
  const notes = goals.artifacts(GOAL.description);
  await expect(notes.getByRole('heading', { name: 'goal-1-notes.md', exact: true })).toBeVisible();
  await expect(notes).toContainText(/Written at cycle \d+ by file_io, \d+ KB/);
  const text = goals.artifactPreview(GOAL.description, 'goal-1-notes.md');
  await expect(text).toContainText('# Notes: Find mammals and keep notes');
  await expect(text).toContainText('- Dog subClassOf Mammal (confidence 0.90)');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    goals.artifactDownloadButton(GOAL.description, 'goal-1-notes.md').click(),
  ]);
  expect(download.suggestedFilename()).toBe('goal-1-notes.md');
  const downloaded = await readFile(await download.path(), 'utf8');
  expect(downloaded).toBe(await text.textContent());

  await goals.artifactsButton(GOAL.description).click();
  await expect(notes).toHaveCount(0);
});
