import { NEVER_ASK, expect, test } from './fixtures.ts';
import { GoalsPage, RUN_TIMEOUT_MS } from './page-models/goals-page.ts';

/** Goals the starter graph cannot meet, enough of them for a run that only a pause ends in time. */
const PLANETS = ['Mars', 'Venus', 'Jupiter', 'Saturn', 'Neptune', 'Uranus'];

test.describe('goals and cycles', () => {
  test.beforeEach(async ({ goals }) => {
    await goals.open();
  });

  test('"Find mammals" runs until done, completes, and finds mammals only the rules reach', async ({
    shell,
    goals,
    cycles,
  }) => {
    await goals.addGoal({ description: 'Find mammals', criteria: '?x is-a mammal, at least 5' });
    await expect(goals.status('Find mammals')).toContainText('Active');

    await goals.run.runUntilDoneButton.click();
    await expect(goals.status('Find mammals')).toContainText('Completed', { timeout: RUN_TIMEOUT_MS });
    await expect(goals.run.status).toContainText('no goal is active any more');
    await expect(goals.run.runUntilDoneButton).toBeDisabled();

    await goals.showFindings('Find mammals');
    // GoldenRetriever subClassOf Dog subClassOf Canine ... Mammal (the starter graph's RDFS): only the rules make it a mammal.
    const mammals = goals.findingGroup('Find mammals', 'subClassOf Mammal');
    await expect(mammals.getByRole('listitem').filter({ hasText: /^GoldenRetriever \(\d\.\d\d\)$/ })).toBeVisible();
    await expect(mammals.getByRole('listitem').filter({ hasText: /^SiameseCat \(/ })).toBeVisible();

    await shell.goTo('Cycles');
    // The tool in words, and why it was chosen, before its name.
    await expect(cycles.tool(1)).toContainText(
      'Derive new facts with the rules (infer_rules), chosen because it has not been tried on this goal yet, the plan asks for it next',
    );
    await expect(cycles.outcome(1)).toContainText('Completed');
    await expect(cycles.goal(1)).toContainText('Find mammals');
    await cycles.showScores(1);
    // The plan's next step (infer_rules) gets the plan bonus on top of its score: said in words, the exact breakdown a click away.
    const inferRules = cycles.scores(1).getByRole('listitem').filter({ hasText: 'infer_rules' });
    await expect(inferRules).toContainText(
      'Score 0.96: fits this goal 0.85; raised because it has not been tried on this goal yet (+0.15), the plan asks for it next (+0.25)',
    );
    const exact = inferRules.getByText('[score=0.96: base=0.85 recency=-0.00 novelty=+0.15');
    await expect(exact).toBeHidden();
    await inferRules.getByText('Exact breakdown').click();
    await expect(exact).toBeVisible();
    await expect(exact).toContainText('plan=+0.25');
  });

  test('the n shortcut runs one cycle at a time, and the log shows the newest first', async ({
    shell,
    goals,
    cycles,
  }) => {
    await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano crater', priority: 255 });
    await shell.goTo('Cycles');
    // The screen loads its goals after it shows: until then there is nothing to run.
    await expect(cycles.run.runUntilDoneButton).toBeEnabled();

    await cycles.run.pressShortcut('n');
    await expect(cycles.run.status).toHaveText('Ran 1 cycle (up to cycle 1).', { timeout: RUN_TIMEOUT_MS });
    await cycles.run.pressShortcut('n');
    await expect(cycles.run.status).toHaveText('Ran 1 cycle (up to cycle 2).', { timeout: RUN_TIMEOUT_MS });

    await expect(cycles.entries()).toHaveCount(2);
    await expect(cycles.entries().first()).toHaveAccessibleName('Cycle 2');
    await expect(cycles.tool(1)).toContainText('infer_rules');
    await expect(cycles.tool(2)).toContainText('kg_query');
    await expect(cycles.goal(2)).toContainText('Learn about Mars');
    await cycles.showScores(2);
    await expect(cycles.scores(2).getByRole('listitem').filter({ hasText: 'infer_rules' })).toContainText(
      'skipped: the rules have already run',
    );
  });

  test('the run buttons name their shortcuts, and a shortcut typed in a field is only text', async ({ goals }) => {
    await expect(goals.run.runOneButton).toHaveAttribute('aria-keyshortcuts', '. n');
    await expect(goals.run.runUntilDoneButton).toHaveAttribute('aria-keyshortcuts', 'g');
    await expect(goals.run.pauseButton).toHaveAttribute('aria-keyshortcuts', 'Escape');
    await expect(goals.run.planButton).toHaveAttribute('aria-keyshortcuts', 'p');
    await expect(goals.run.reflectButton).toHaveAttribute('aria-keyshortcuts', 'r');
    await expect(goals.run.region).toContainText('Shortcuts');

    await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano crater' });
    await goals.descriptionInput.fill('n');
    await goals.descriptionInput.press('n');
    await expect(goals.descriptionInput).toHaveValue('nn');

    // Out of the field, n runs a cycle: the first one, so the ones typed above ran none.
    await goals.run.runOneButton.focus();
    await goals.run.pressShortcut('n');
    await expect(goals.run.status).toHaveText('Ran 1 cycle (up to cycle 1).', { timeout: RUN_TIMEOUT_MS });
    await expect(goals.cyclesWorked('Learn about Mars')).toContainText('1');
  });

  test('run until done (g) counts the cycles live, and Escape pauses it after the current cycle', async ({
    shell,
    goals,
    cycles,
    psyche,
  }) => {
    // Keywords the starter graph never satisfies, and a psyche that never asks: each goal stays active
    // until it has stalled 15 cycles and is given up, so several of them keep a run going long past the
    // pause (one ended within 17 cycles, before the key press came, once cycles got fast).
    await psyche.open();
    await psyche.importToml(NEVER_ASK);
    await shell.goTo('Goals');
    for (const planet of PLANETS)
      await goals.addGoal({ description: `Learn about ${planet}`, criteria: 'volcano crater' });
    await shell.goTo('Cycles');
    // The screen loads its goals after it shows: until then there is nothing to run.
    await expect(cycles.run.runUntilDoneButton).toBeEnabled();

    await cycles.run.pressShortcut('g');
    await expect(cycles.run.status).toHaveText(/^Running until no goal is active: ([3-9]|\d\d+) cycles done\.$/, {
      timeout: RUN_TIMEOUT_MS,
    });
    await expect(cycles.run.runOneButton).toBeDisabled();
    await cycles.run.pressShortcut('Escape');
    await expect(cycles.run.status).toHaveText(/^Paused after \d+ cycles \(up to cycle \d+\)\.$/);

    const match = /up to cycle (\d+)/.exec((await cycles.run.status.textContent()) ?? '');
    const lastCycle = Number(match?.[1]);
    await expect(cycles.entries().first()).toHaveAccessibleName(`Cycle ${lastCycle.toLocaleString('en')}`);
    await expect(cycles.run.runOneButton).toBeEnabled();
    // Paused, not done: every cycle went to one of the goals, and one of them is still active.
    await shell.goTo('Goals');
    const worked = await Promise.all(
      PLANETS.map(async (planet) =>
        Number(/(\d+)$/.exec((await goals.cyclesWorked(`Learn about ${planet}`).textContent()) ?? '')?.[1]),
      ),
    );
    expect(worked.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(lastCycle);
    const statuses = await Promise.all(PLANETS.map((planet) => goals.status(`Learn about ${planet}`).textContent()));
    expect(statuses.some((status) => status?.includes('Active'))).toBe(true);
  });

  test('with every goal suspended nothing runs, and the controls say why', async ({ goals }) => {
    await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano crater' });
    await expect(goals.run.runButton).toBeEnabled();

    await goals.action('Learn about Mars', 'Suspend').click();
    await expect(goals.status('Learn about Mars')).toContainText('Suspended');
    await expect(goals.goal('Learn about Mars')).toContainText('suspended by the user');
    await expect(goals.run.runButton).toBeDisabled();
    await expect(goals.run.runButton).toHaveAccessibleDescription(/^No goal is active/);
    await expect(goals.run.region).toContainText('No goal is active');
    await goals.run.pressShortcut('n');
    await expect(goals.cyclesWorked('Learn about Mars')).toContainText('0');

    await goals.action('Learn about Mars', 'Resume').click();
    await expect(goals.status('Learn about Mars')).toContainText('Active');
    await goals.run.runCycles(2);
    await expect(goals.run.status).toHaveText('Ran 2 cycles (up to cycle 2).');
    await expect(goals.cyclesWorked('Learn about Mars')).toContainText('2');
  });

  test('criteria the agent cannot read are refused with the problem', async ({ goals }) => {
    await goals.submitGoal({ description: 'Learn something', criteria: 'a b' });

    await expect(goals.addAlert).toContainText('no words longer than 3 letters');
    await expect(goals.goal('Learn something')).toHaveCount(0);

    await goals.submitGoal({ description: '   ', criteria: 'volcano' });
    await expect(goals.addAlert).toContainText('Describe the goal.');
  });

  test('goals, their status and priority survive a reload; cancelling asks first', async ({ page, goals }) => {
    await goals.addGoal({ description: 'Find mammals', criteria: '?x is-a mammal, at least 5' });
    await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano crater', priority: 200 });
    await goals.addGoal({ description: 'Learn about the Moon', criteria: 'crater' });
    await goals.action('Find mammals', 'Suspend').click();
    await expect(goals.status('Find mammals')).toContainText('Suspended');
    await goals.priority('Learn about Mars').fill('42');
    await goals.priority('Learn about Mars').press('Enter');

    await goals.action('Learn about the Moon', 'Cancel').click();
    await goals.action('Learn about the Moon', 'Keep it').click();
    await expect(goals.status('Learn about the Moon')).toContainText('Active');
    await goals.cancelGoal('Learn about the Moon');
    await expect(goals.status('Learn about the Moon')).toContainText('Failed');
    await expect(goals.goal('Learn about the Moon')).toContainText('cancelled by the user');

    await page.reload();
    await expect(goals.status('Find mammals')).toContainText('Suspended', { timeout: 45_000 });
    await expect(goals.status('Learn about Mars')).toContainText('Active');
    await expect(goals.priority('Learn about Mars')).toHaveValue('42');
    await expect(goals.status('Learn about the Moon')).toContainText('Failed');
    await expect(goals.action('Learn about the Moon', 'Resume')).toHaveCount(0);
  });

  test('a stuck goal asks; answered with a note, it stalls on and is split into sub-goals listed under it', async ({
    shell,
    goals,
    approvals,
  }) => {
    await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano, crater and dust storm' });

    // Three cycles without progress: the agent asks, and the run stops with the goal waiting.
    await goals.run.runCycles(12);
    await expect(goals.status('Learn about Mars')).toContainText('Waiting for you');
    await shell.goTo('Approvals');
    await approvals.answer(approvals.question('Learn about Mars'), { note: 'No idea.' });
    await expect(approvals.value(approvals.question('Learn about Mars', 'decided'), 'Status')).toContainText(
      'Answered',
    );

    await shell.goTo('Goals');
    await goals.run.runCycles(6);

    await expect(goals.status('Learn about Mars')).toContainText('Suspended');
    await expect(goals.goal('Learn about Mars')).toContainText('split into 3 sub-goals');
    const subGoals = goals.subGoals('Learn about Mars');
    await expect(subGoals.getByRole('article', { name: 'Learn about Mars: volcano', exact: true })).toBeVisible();
    await expect(subGoals.getByRole('article', { name: 'Learn about Mars: dust storm', exact: true })).toBeVisible();
    await goals.goal('Learn about Mars: crater').getByRole('button', { name: 'Learn about Mars', exact: true }).click();
    await expect(
      goals.goal('Learn about Mars').getByRole('heading', { name: 'Learn about Mars', exact: true }),
    ).toBeFocused();
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 780 } });

  test('the goals and the cycle log with its scores fit without sideways scrolling', async ({
    shell,
    goals,
    cycles,
  }) => {
    await goals.open();
    await goals.addGoal({ description: 'Find mammals', criteria: '?x is-a mammal, at least 5' });
    await goals.run.runOneButton.click();
    await expect(goals.status('Find mammals')).toContainText('Completed', { timeout: RUN_TIMEOUT_MS });
    await goals.showFindings('Find mammals');
    expect(await shell.pageWidth()).toBeLessThanOrEqual(360);

    await shell.goTo('Cycles');
    await cycles.showScores(1);
    expect(await shell.pageWidth()).toBeLessThanOrEqual(360);
  });
});

test('a second tab shows the goals read-only: it cannot add, change or run them, and says why', async ({
  context,
  goals,
}) => {
  await goals.open();
  await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano crater' });

  const second = new GoalsPage(await context.newPage());
  await second.open();
  await expect(second.status('Learn about Mars')).toContainText('Active');
  await expect(second.run.runOneButton).toBeDisabled();
  await expect(second.run.runOneButton).toHaveAccessibleDescription(/open in another tab/);
  await expect(second.addButton).toBeDisabled();
  await expect(second.action('Learn about Mars', 'Suspend')).toBeDisabled();
  await expect(second.run.planButton).toBeDisabled();
  await expect(second.run.reflectButton).toBeDisabled();
  await expect(second.run.reflectButton).toHaveAccessibleDescription(/open in another tab/);
});
