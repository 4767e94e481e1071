import { expect, test } from './fixtures.ts';
import { GoalsPage } from './page-models/goals-page.ts';
import { SettingsPage } from './page-models/settings-page.ts';

/** More mammals than the starter graph holds, even with the rules: the goal stays active, plan after plan. */
const GOAL = { description: 'Find mammals', criteria: '?x is-a mammal, at least 50' };

test.describe('planning and reflection', () => {
  test.beforeEach(async ({ goals }) => {
    await goals.open();
  });

  test("a goal's plan shows its steps and their status, follows the cycles, and keeps its earlier plans", async ({
    goals,
  }) => {
    await goals.addGoal(GOAL);
    await goals.showPlan(GOAL.description);
    await expect(goals.plan(GOAL.description)).toContainText(
      'No plan yet: the agent plans when it first works on this goal.',
    );

    await goals.run.runCycles(2);
    const plan = goals.plan(GOAL.description);
    await expect(plan.getByRole('heading', { name: 'Current plan', exact: true })).toBeVisible();
    await expect(plan).toContainText('explore first (attempt 0)');
    // The planner looked the pattern up itself; the rules ran in cycle 1; the next step waits.
    await expect(goals.currentPlanStep(GOAL.description, 'kg_query')).toContainText('Completed');
    await expect(goals.currentPlanStep(GOAL.description, 'kg_query')).toContainText('while planning');
    await expect(goals.currentPlanStep(GOAL.description, 'infer_rules')).toContainText('Completed');
    await expect(goals.currentPlanStep(GOAL.description, 'infer_rules')).toContainText('in cycle 1');
    await expect(goals.currentPlanStep(GOAL.description, 'infer_rules')).toContainText(/derived \d+ new facts/);
    await expect(goals.currentPlanStep(GOAL.description, 'gap_analysis')).toContainText('Next');
    await expect(goals.earlierPlansButton(GOAL.description)).toHaveCount(0);

    // The open panel follows the run: the last step of the first plan is taken, then a new plan is made.
    await goals.run.runCycles(2);
    await expect(plan).toContainText('reason first (attempt 1)');
    await expect(goals.earlierPlansButton(GOAL.description)).toHaveText('Earlier plans (1)');
    await goals.earlierPlansButton(GOAL.description).click();
    const earlier = goals.earlierPlans(GOAL.description);
    await expect(earlier.getByRole('heading', { name: 'Attempt 0', exact: true })).toBeVisible();
    await expect(earlier).toContainText('it ran all its steps; the goal is not met yet, so a new plan is made');
    await expect(
      earlier
        .getByRole('list', { name: 'Steps of attempt 0' })
        .getByRole('listitem')
        .filter({ hasText: 'gap_analysis' }),
    ).toContainText('in cycle 3');
  });

  test('p opens the plan of the goal the agent works on next, from the Cycles screen too', async ({
    shell,
    goals,
    cycles,
  }) => {
    // Enabled once the goals are loaded: it needs them to know which goal comes next.
    await expect(goals.run.planButton).toBeEnabled();
    await goals.run.pressShortcut('p');
    await expect(goals.run.status).toContainText('No goal is active, so the agent works on none next');

    await goals.addGoal({ description: 'Learn about Mars', criteria: 'volcano crater', priority: 100 });
    await goals.addGoal(GOAL);
    await goals.run.runOneButton.click();
    await goals.run.waitForRunEnd();
    await shell.goTo('Cycles');
    // The screen loads its goals after it shows: until then no goal is known to work on next.
    await expect(cycles.run.runUntilDoneButton).toBeEnabled();

    await cycles.run.pressShortcut('p');
    await expect(shell.heading('Goals')).toBeVisible();
    await expect(goals.plan(GOAL.description)).toBeFocused();
    await expect(goals.planButton(GOAL.description)).toHaveAttribute('aria-expanded', 'true');
    await expect(goals.plan('Learn about Mars')).toHaveCount(0);
    await expect(goals.run.status).toHaveText('Showing the plan of “Find mammals”, the goal the agent works on next.');
    await expect(goals.currentPlanStep(GOAL.description, 'infer_rules')).toContainText('Completed');
  });

  test('r reflects now: the reflection is listed with its cycle and adjustments, after those the agent made on its own', async ({
    shell,
    goals,
    cycles,
  }) => {
    await shell.goTo('Cycles');
    await expect(cycles.reflectionsRegion).toContainText(
      'No reflections yet: the agent reflects every 5 cycles, or press Reflect.',
    );
    await shell.goTo('Goals');
    await goals.addGoal(GOAL);
    await goals.run.runCycles(6);
    await shell.goTo('Cycles');
    await expect(cycles.reflection(5)).toBeVisible();
    await expect(cycles.reflectionTrigger(5)).toHaveText(/Every 5 cycles/);

    await cycles.run.pressShortcut('r');
    await expect(cycles.run.status).toHaveText(
      /^Reflected at cycle 6: (nothing to adjust|\d+ adjustments?), psyche (unchanged|changed \(version \d+\))\.$/,
    );
    await expect(cycles.reflections().first()).toHaveAccessibleName('Reflection at cycle 6');
    await expect(cycles.reflectionTrigger(6)).toHaveText(/Asked for/);
    await expect(cycles.reflection(6)).toContainText('Cycle 6');
    // Cycle 6 found nothing new about mammals (the rules stored only facts about Mammal, so no symbol
    // is similar enough to it for analogy, and the rules have nothing left): one cycle without progress is
    // no reason to change the goal's priority.
    await expect(cycles.reflectionTools(6).getByRole('listitem')).toHaveText(['gap_analysis: 1 use, 0 successes (0%)']);
    await expect(cycles.reflection(6)).toContainText('Nothing to adjust.');

    // The interval reflection at cycle 5 boosted the goal, which had advanced.
    await expect(cycles.reflectionAdjustments(5)).toContainText(
      /Boosted goal 1 “Find mammals”: priority 128 → 148 — it advanced/,
    );
    await expect(cycles.reflectionTools(5).getByRole('listitem').filter({ hasText: 'infer_rules' })).toHaveText(
      'infer_rules: 1 use, 1 success (100%)',
    );
    await expect(cycles.reflection(5)).toContainText('Find mammals (goal 1): advanced in 5 cycles worked');
    await shell.goTo('Goals');
    await expect(goals.priority(GOAL.description)).toHaveValue('148');
  });

  test('the agent settings, working memory included, are checked field by field and kept across a reload', async ({
    page,
    settings,
    shell,
    cycles,
  }) => {
    await settings.open();
    await expect(settings.reflectionIntervalInput).toHaveValue('5');
    await expect(settings.planningCheckbox).toBeChecked();

    await settings.reflectionIntervalInput.fill('0');
    await settings.saveAgentButton.click();
    await expect(settings.agentAlert).toContainText('Reflection interval (cycles):');
    await expect(settings.reflectionIntervalInput).toHaveAttribute('aria-invalid', 'true');
    await expect(settings.reflectionIntervalInput).toHaveAccessibleDescription(/reflect every 1 cycle or more/);

    await settings.reflectionIntervalInput.fill('3');
    await settings.maxFailedPlansInput.fill('4');
    await expect(settings.memoryCapacityInput).toHaveValue('100');
    await expect(settings.consolidationThresholdInput).toHaveValue('0.8');
    await settings.memoryCapacityInput.fill('5');
    await settings.saveAgentButton.click();
    await expect(settings.memoryCapacityInput).toHaveAccessibleDescription(/10 entries or more/);
    await settings.memoryCapacityInput.fill('250');
    await settings.consolidationThresholdInput.fill('0.7');
    await settings.planningCheckbox.uncheck();
    await settings.saveAgentButton.click();
    await expect(settings.agentStatus).toHaveText(
      'Saved: planning off, a reflection every 3 cycles, a goal is abandoned after 4 failed plans, working memory holds 250 entries and is consolidated above 70%.',
    );
    await expect(settings.reflectionIntervalInput).not.toHaveAttribute('aria-invalid', 'true');

    await page.reload();
    await expect(settings.reflectionIntervalInput).toHaveValue('3', { timeout: 45_000 });
    await expect(settings.maxFailedPlansInput).toHaveValue('4');
    await expect(settings.memoryCapacityInput).toHaveValue('250');
    await expect(settings.consolidationThresholdInput).toHaveValue('0.7');
    await expect(settings.planningCheckbox).not.toBeChecked();
    await shell.goTo('Cycles');
    await expect(cycles.reflectionsRegion).toContainText(
      'No reflections yet: the agent reflects every 3 cycles, or press Reflect.',
    );
  });
});

test('a second tab can neither reflect nor change the agent settings, and says why', async ({ context, goals }) => {
  await goals.open();
  await goals.addGoal(GOAL);

  const second = new GoalsPage(await context.newPage());
  await second.open();
  await expect(second.run.reflectButton).toBeDisabled();
  await expect(second.run.planButton).toBeDisabled();
  // Reading a plan needs no write access.
  await second.showPlan(GOAL.description);
  await expect(second.plan(GOAL.description)).toContainText('No plan yet');

  const secondSettings = new SettingsPage(second.page);
  await secondSettings.open();
  await expect(secondSettings.reflectionIntervalInput).toHaveValue('5');
  await expect(secondSettings.reflectionIntervalInput).toBeDisabled();
  await expect(secondSettings.saveAgentButton).toBeDisabled();
  await expect(secondSettings.saveAgentButton).toHaveAccessibleDescription(/open in another tab/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 780 } });

  test('the plans and the reflections fit without sideways scrolling', async ({ shell, goals, cycles }) => {
    await goals.open();
    await goals.addGoal(GOAL);
    await goals.run.runCycles(5);
    await goals.showPlan(GOAL.description);
    await goals.earlierPlansButton(GOAL.description).click();
    await expect(goals.earlierPlans(GOAL.description)).toBeVisible();
    expect(await shell.pageWidth()).toBeLessThanOrEqual(360);

    await shell.goTo('Cycles');
    await expect(cycles.reflection(5)).toBeVisible();
    expect(await shell.pageWidth()).toBeLessThanOrEqual(360);
  });
});
