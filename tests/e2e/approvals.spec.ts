import { startOpenAiServer } from '#core/testing/openai-server.ts';
import { expect, test } from './fixtures.ts';
import { ApprovalsPage } from './page-models/approvals-page.ts';
import { RUN_TIMEOUT_MS } from './page-models/goals-page.ts';

/** A psyche whose only veto holds every kg_query for the user's approval. */
const ASK_BEFORE_QUERYING = `[shadow]
bias_patterns = []

[[shadow.veto_patterns]]
name = "ask_before_querying"
triggers = ["kg_query"]
severity = 0.5
explanation = "Queries wait for your approval."
require_approval = true
`;

/** Keywords the starter graph never satisfies: the goal stays open; its second cycle queries the graph (see agent.spec.ts). */
const GOAL = { description: 'Learn about Mars', criteria: 'volcano crater' };

test.describe('approvals', () => {
  test.beforeEach(async ({ shell, psyche, goals }) => {
    await psyche.open();
    await psyche.importToml(ASK_BEFORE_QUERYING);
    await shell.goTo('Goals');
    await goals.addGoal(GOAL);
    // The run stops by itself once the goal waits: no goal is active any more.
    await goals.run.runUntilDoneButton.click();
    await expect(goals.status(GOAL.description)).toContainText('Waiting for you', { timeout: RUN_TIMEOUT_MS });
  });

  test('the cycle that held the action shows the refusal, what it required and what was observed', async ({
    shell,
    cycles,
  }) => {
    await shell.goTo('Cycles');
    const refusal = cycles.entries().first().getByRole('group', { name: 'Refusal', exact: true });
    await expect(refusal).toContainText('Refused: Blocked by policy (a retry cannot succeed)');
    await expect(refusal).toContainText('Required: your approval, which ask_before_querying asks for');
    await expect(refusal).toContainText('Observed: ask_before_querying matches tool=kg_query');
  });

  test('a held kg_query waits for approval, survives a reload, and runs once approved', async ({
    page,
    shell,
    goals,
    cycles,
    approvals,
  }) => {
    await expect(shell.link('Approvals')).toHaveAccessibleDescription('1 pending approval');
    await shell.goTo('Approvals');
    const pending = approvals.pending('kg_query', GOAL.description);
    await expect(approvals.value(pending, 'Tool')).toContainText('kg_query');
    await expect(approvals.value(pending, 'Pattern')).toContainText('ask_before_querying');
    await expect(pending).toContainText('Queries wait for your approval.');

    await page.reload();
    await expect(approvals.value(pending, 'Status')).toContainText('Pending', { timeout: 45_000 });

    await approvals.approve(pending);
    await expect(approvals.status('Approved: run the agent to carry it out.')).toBeVisible();
    await expect(pending).toHaveCount(0);
    await expect(shell.link('Approvals')).toHaveAccessibleDescription('');

    await shell.goTo('Goals');
    await expect(goals.status(GOAL.description)).toContainText('Active');
    await goals.run.runOneButton.click();
    await goals.run.waitForRunEnd();

    await shell.goTo('Cycles');
    const newest = cycles.entries().first();
    await expect(newest.getByRole('group', { name: 'Tool', exact: true })).toContainText('kg_query');
    await expect(newest.getByRole('group', { name: 'Outcome', exact: true })).not.toContainText('Failed');

    await shell.goTo('Approvals');
    const done = approvals.decided('kg_query', GOAL.description);
    await expect(approvals.value(done, 'Status')).toContainText('Done');
    await expect(approvals.value(done, 'Done in cycle')).toBeVisible();
  });

  test('an action approved with an edited input runs with that input; a bad edit is refused and changes nothing', async ({
    shell,
    goals,
    cycles,
    approvals,
  }) => {
    await shell.goTo('Approvals');
    const pending = approvals.pending('kg_query', GOAL.description);
    await pending.getByRole('button', { name: 'Edit input', exact: true }).click();
    await expect(pending.getByRole('textbox', { name: /^Input to run instead/ })).toHaveValue(/"symbol": \d+/);

    await approvals.approveEdited(pending, '{"symbol": ');
    await expect(pending).toContainText('The edited input is not JSON');
    await approvals.approveEdited(pending, '{"symbol": "Mars"}');
    await expect(approvals.alert()).toContainText('at input.symbol: kg_query would refuse it');
    await expect(approvals.value(pending, 'Status')).toContainText('Pending');

    await approvals.approveEdited(pending, '{"symbol": 1}');
    await expect(approvals.status('Approved with your input: run the agent to carry it out.')).toBeVisible();
    const approved = approvals.decided('kg_query', GOAL.description);
    await expect(approvals.action(approved)).toHaveText('tool=kg_query input={"symbol":1}');
    await expect(approved).toContainText('Edited by you before approving.');

    await shell.goTo('Goals');
    await goals.run.runOneButton.click();
    await goals.run.waitForRunEnd();
    await shell.goTo('Cycles');
    const newest = cycles.entries().first();
    await expect(newest.getByRole('group', { name: 'Tool', exact: true })).toContainText('kg_query');
    await expect(newest).toContainText('carrying out approved action #1');
  });

  test('a denied action is not asked for again: the goal goes on, and the next cycle does something else', async ({
    shell,
    goals,
    cycles,
    approvals,
  }) => {
    await shell.goTo('Approvals');
    const pending = approvals.pending('kg_query', GOAL.description);
    const deniedAction = (await approvals.action(pending).textContent()) ?? '';
    expect(deniedAction).toMatch(/^tool=kg_query input=/);

    await approvals.deny(pending, 'Not now');
    await expect(approvals.status('Denied: the goal goes on without it.')).toBeVisible();
    const denied = approvals.decided('kg_query', GOAL.description);
    await expect(approvals.value(denied, 'Status')).toContainText('Denied');
    await expect(denied).toContainText('Not now');

    await shell.goTo('Goals');
    await expect(goals.status(GOAL.description)).toContainText('Active');
    await goals.run.runOneButton.click();
    await goals.run.waitForRunEnd();

    // Another tool, or kg_query with another input (held again, as a new question).
    await shell.goTo('Cycles');
    const newest = cycles.entries().first();
    await expect(newest.getByRole('group', { name: 'Tool', exact: true })).toBeVisible();
    await shell.goTo('Approvals');
    await expect(approvals.pendingList.getByRole('article').filter({ hasText: deniedAction })).toHaveCount(0);
  });

  test('a second tab shows the pending approval read-only: it cannot approve or deny, and says why', async ({
    context,
  }) => {
    const second = new ApprovalsPage(await context.newPage());
    await second.open();
    const pending = second.pending('kg_query', GOAL.description);
    await expect(pending.getByRole('button', { name: 'Approve', exact: true })).toBeDisabled();
    await expect(pending.getByRole('button', { name: 'Approve', exact: true })).toHaveAccessibleDescription(
      /open in another tab/,
    );
    await expect(pending.getByRole('button', { name: 'Deny', exact: true })).toBeDisabled();
  });
});

test('a stuck goal asks a question; a bad fact line is refused, a good answer adds facts and the goal completes', async ({
  shell,
  goals,
  approvals,
}) => {
  await goals.open();
  await goals.addGoal(GOAL);
  await goals.run.runUntilDoneButton.click();
  await expect(goals.status(GOAL.description)).toContainText('Waiting for you', { timeout: RUN_TIMEOUT_MS });
  await expect(shell.link('Approvals')).toHaveAccessibleDescription('1 question');

  await shell.goTo('Approvals');
  const question = approvals.question(GOAL.description);
  await expect(question).toContainText(
    'For "Learn about Mars" I found nothing yet about "volcano", "crater". What do you know?',
  );
  await approvals.answer(question, { facts: 'Mars, has-feature' });
  await expect(approvals.alert()).toContainText('line 1, at facts: expected 3 or 4 fields');
  await expect(question).toBeVisible();

  // Every word the goal asked for, a volcano and a crater: one alone would not complete it.
  await approvals.answer(question, {
    facts: 'Mars, has-feature, OlympusMons\nOlympusMons, is-a, Volcano\nMars, has-feature, Crater',
    note: 'The largest volcano of the solar system.',
  });
  await expect(
    approvals.status('Answered: 3 facts added to the graph. Run the agent to let the goal go on.'),
  ).toBeVisible();
  const answered = approvals.question(GOAL.description, 'decided');
  await expect(approvals.value(answered, 'Facts added')).toContainText('3');
  await expect(shell.link('Approvals')).toHaveAccessibleDescription('');

  await shell.goTo('Goals');
  await expect(goals.status(GOAL.description)).toContainText('Active');
  await goals.run.runUntilDoneButton.click();
  await expect(goals.status(GOAL.description)).toContainText('Completed', { timeout: RUN_TIMEOUT_MS });
});

test('with a model bound, a red team looks at the held action: its finding shows with the approval and in the cycle log', async ({
  shell,
  psyche,
  settings,
  goals,
  cycles,
  approvals,
}) => {
  const finding = {
    breachPaths: [{ path: 'the lookup could reveal what the user keeps private', severity: 'medium' }],
  };
  const reply = { text: JSON.stringify({ kind: 'result', result: finding }), promptTokens: 200, completionTokens: 30 };
  const server = await startOpenAiServer([reply, reply]);
  try {
    await psyche.open();
    await psyche.importToml(ASK_BEFORE_QUERYING);
    await goals.open();
    await goals.run.settingsLink.click();
    await settings.languageModel.saveEndpoint({ baseUrl: server.baseUrl, model: 'tiny-test' });
    await shell.goTo('Goals');
    await goals.addGoal(GOAL);
    await goals.run.runUntilDoneButton.click();
    await expect(goals.status(GOAL.description)).toContainText('Waiting for you', { timeout: RUN_TIMEOUT_MS });

    await shell.goTo('Approvals');
    const pending = approvals.pending('kg_query', GOAL.description);
    await expect(pending.getByRole('list', { name: 'Red team', exact: true })).toHaveText(
      'Medium: the lookup could reveal what the user keeps private',
    );

    await shell.goTo('Cycles');
    const children = cycles.entries().first().getByRole('list', { name: 'Child runs', exact: true });
    await expect(children).toContainText('Red team: look for breach paths in kg_query before it waits for approval');
    await expect(children).toContainText('Result: medium: the lookup could reveal what the user keeps private');
    await expect(children).toContainText('1 request (200 prompt + 30 completion tokens), 0 tool calls');
  } finally {
    await server.close();
  }
});
