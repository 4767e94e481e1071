import { NEVER_ASK, expect, test } from './fixtures.ts';
import { RUN_TIMEOUT_MS } from './page-models/goals-page.ts';

/** Classes in the generated taxonomy: the closure under one of them is thousands of facts, many cycles of rules. */
const CLASSES = 40_000;
/**
 * The longest a click on Pause may take to show "Paused", measured in the page from the click to
 * the status text. The worker stops a cycle at its next pause point: before the cycle stores
 * anything (it is then not kept), or once a commit under way ends (400 derived facts at most). On
 * this graph a cycle takes 40-150 ms and the pause 15-170 ms, on a 2-core machine shared at load
 * 12-15; the issue asks 100 ms on a quiet one. The bound leaves a busy CI room for a commit under way.
 */
const PAUSE_BOUND_MS = 1_000;

/** An is-a tree (branching 4) in Anima's own namespace: C0 is the root, every class is-a its parent. */
function taxonomy(): Buffer {
  const kg = (name: string) => `<urn:anima:kg#${name}>`;
  const lines: string[] = [];
  for (let index = 1; index < CLASSES; index++)
    lines.push(`${kg(`C${index}`)} ${kg('is-a')} ${kg(`C${Math.floor((index - 1) / 4)}`)} .`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

test('Pause stops a run on a big graph between its long cycles, soon after the click, and the run shows its progress', async ({
  page,
  shell,
  knowledge,
  psyche,
  goals,
}) => {
  test.setTimeout(240_000);
  // The goal never ends by asking: only the pause ends the run.
  await psyche.open();
  await psyche.importToml(NEVER_ASK);
  await knowledge.open();
  await knowledge.importFile({ name: 'taxonomy.nt', mimeType: 'application/n-triples', buffer: taxonomy() });
  await expect(knowledge.importStatus).toContainText(`Imported ${(CLASSES - 1).toLocaleString('en')} statements`, {
    timeout: 150_000,
  });

  await shell.goTo('Goals');
  // C1's subtree is a quarter of the graph: its rules derive thousands of facts, 400 a cycle.
  await goals.addGoal({ description: 'Learn about C1', criteria: 'volcano crater' });
  await expect(goals.run.runUntilDoneButton).toBeEnabled();
  await goals.run.runUntilDoneButton.click();
  // The run shows its progress as it goes.
  await expect(goals.run.status).toHaveText(/^Running until no goal is active: ([2-9]|\d\d+) cycles done\.$/, {
    timeout: RUN_TIMEOUT_MS,
  });

  // Timed in the page: how long its cycles take (between the counts the status shows), and from
  // the click on Pause to the status saying the run paused.
  await page.evaluate(() => {
    const state = { clickedAt: 0, pausedAt: 0, cycleEnds: [] as number[] };
    (window as unknown as { pauseTiming: typeof state }).pauseTiming = state;
    document.addEventListener(
      'click',
      (event) => {
        if ((event.target as HTMLElement).closest('button')?.textContent?.trim() === 'Pause')
          state.clickedAt = performance.now();
      },
      { capture: true },
    );
    let lastText = '';
    new MutationObserver(() => {
      const text = document.body.textContent ?? '';
      const done = /Running until no goal is active: (\d+) cycles done/.exec(text)?.[1];
      if (done !== undefined && done !== lastText) {
        lastText = done;
        state.cycleEnds.push(performance.now());
      }
      if (state.pausedAt === 0 && /Paused after/.test(text)) state.pausedAt = performance.now();
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  // A few cycles timed first, so the click lands in the middle of a cycle's work.
  await expect
    .poll(
      () =>
        page.evaluate(
          () => (window as unknown as { pauseTiming: { cycleEnds: number[] } }).pauseTiming.cycleEnds.length,
        ),
      { timeout: RUN_TIMEOUT_MS },
    )
    .toBeGreaterThanOrEqual(4);
  await goals.run.pauseButton.click();
  await expect(goals.run.status).toHaveText(/^Paused after \d+ cycles \(up to cycle (\d+)\)\.$/, {
    timeout: RUN_TIMEOUT_MS,
  });
  const { clickedAt, pausedAt, cycleEnds } = await page.evaluate(
    () =>
      (window as unknown as { pauseTiming: { clickedAt: number; pausedAt: number; cycleEnds: number[] } }).pauseTiming,
  );
  const pauseMs = pausedAt - clickedAt;
  const cycleTimes = cycleEnds
    .slice(1)
    .map((end, index) => end - cycleEnds[index]!)
    .sort((a, b) => a - b);
  const cycleMs = cycleTimes[Math.floor(cycleTimes.length / 2)]!;
  test
    .info()
    .annotations.push(
      { type: 'pause latency', description: `${Math.round(pauseMs)} ms` },
      { type: 'median cycle', description: `${Math.round(cycleMs)} ms` },
    );
  expect(clickedAt).toBeGreaterThan(0);
  expect(pauseMs).toBeGreaterThan(0);
  expect(pauseMs).toBeLessThan(PAUSE_BOUND_MS);

  // It stays paused: no cycle runs after it, and the goal is still there to run again.
  const paused = (await goals.run.status.textContent()) ?? '';
  const lastCycle = Number(/up to cycle (\d+)/.exec(paused)?.[1]);
  await page.waitForTimeout(1_000);
  await expect(goals.run.status).toHaveText(paused);
  await expect(goals.cyclesWorked('Learn about C1')).toHaveText(new RegExp(`${lastCycle}$`));
  await expect(goals.status('Learn about C1')).toContainText('Active');
  await expect(goals.run.runUntilDoneButton).toBeEnabled();
});

test('Cancel stops a full materialisation on a big graph while the rules run, which shows its progress, and stores nothing', async ({
  knowledge,
}) => {
  test.setTimeout(240_000);
  await knowledge.open();
  await knowledge.importFile({ name: 'taxonomy.nt', mimeType: 'application/n-triples', buffer: taxonomy() });
  await expect(knowledge.importStatus).toContainText(`Imported ${(CLASSES - 1).toLocaleString('en')} statements`, {
    timeout: 150_000,
  });

  // Every class is-a each of its ancestors: the rules run to the 200,000-fact cap (3.6 s from the first
  // progress shown to storing, at load 15 here), time enough to cancel them.
  await knowledge.runInferenceButton.click();
  await expect(knowledge.inferenceStatus).toContainText(
    /^Running the rules: [1-9][\d,]* facts derived so far, round \d+…/,
    {
      timeout: RUN_TIMEOUT_MS,
    },
  );
  await knowledge.inferenceRegion.getByRole('button', { name: 'Cancel' }).click();
  await expect(knowledge.inferenceStatus).toHaveText('Inference cancelled: nothing the rules derived was stored.', {
    timeout: RUN_TIMEOUT_MS,
  });
  await expect(knowledge.runInferenceButton).toBeEnabled();

  // C100 is-a C24 is-a C5: only the stated parent, none of what the rules had derived.
  await knowledge.runQuery('C100 is-a ?x');
  await expect(knowledge.queryRow('C24')).toBeVisible();
  await expect(knowledge.queryRow('C5')).toHaveCount(0);
});
