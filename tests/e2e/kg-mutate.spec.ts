import { expect, test } from './fixtures.ts';
import { RUN_TIMEOUT_MS } from './page-models/goals-page.ts';

/**
 * A goal that asks to forget a fact of the starter graph: kg_mutate retracts it, and the default
 * psyche holds a retraction (a dangerous change) for the user's approval.
 */
const GOAL = { description: 'Forget that a whale is a cetacean', criteria: '' };

test('a retraction waits for approval, then the next cycle removes the fact and the goal completes', async ({
  shell,
  goals,
  approvals,
  knowledge,
}) => {
  await goals.open();
  await goals.addGoal(GOAL);
  // The run stops by itself once the goal waits: no goal is active any more.
  await goals.run.runUntilDoneButton.click();
  await expect(goals.status(GOAL.description)).toContainText('Waiting for you', { timeout: RUN_TIMEOUT_MS });
  await goals.run.waitForRunEnd();

  await shell.goTo('Approvals');
  const pending = approvals.pending('kg_mutate', GOAL.description);
  await expect(approvals.value(pending, 'Tool')).toContainText('kg_mutate');
  await expect(approvals.action(pending)).toContainText('Whale');
  await approvals.approve(pending);
  await expect(approvals.status('Approved: run the agent to carry it out.')).toBeVisible();
  await expect(pending).toHaveCount(0);

  await shell.goTo('Goals');
  await expect(goals.status(GOAL.description)).toContainText('Active');
  await goals.run.runUntilDoneButton.click();
  await expect(goals.status(GOAL.description)).toContainText('Completed', { timeout: RUN_TIMEOUT_MS });
  await expect(goals.goal(GOAL.description)).toContainText('retract Whale is-a Cetacean');

  await shell.goTo('Approvals');
  await expect(approvals.value(approvals.decided('kg_mutate', GOAL.description), 'Status')).toContainText('Done');

  await shell.goTo('Knowledge');
  await knowledge.openSymbol('Whale');
  await expect(knowledge.factRow(knowledge.outgoingTable, 'Whale', 'lives-in', 'Ocean')).toHaveCount(1);
  await expect(knowledge.factRow(knowledge.outgoingTable, 'Whale', 'subClassOf', 'Cetacean')).toHaveCount(0);
});

test('a denied retraction fails the goal at the next cycle, saying why, and the fact stays', async ({
  shell,
  goals,
  approvals,
  knowledge,
}) => {
  await goals.open();
  await goals.addGoal(GOAL);
  await goals.run.runUntilDoneButton.click();
  await expect(goals.status(GOAL.description)).toContainText('Waiting for you', { timeout: RUN_TIMEOUT_MS });
  await goals.run.waitForRunEnd();

  await shell.goTo('Approvals');
  await approvals.deny(approvals.pending('kg_mutate', GOAL.description), 'Whales stay cetaceans');

  await expect(approvals.status('Denied: the goal goes on without it.')).toBeVisible();

  // No other tool can make the change: the next cycle fails the goal and says why.
  await shell.goTo('Goals');
  await goals.run.runUntilDoneButton.click();
  await expect(goals.status(GOAL.description)).toContainText('Failed', { timeout: RUN_TIMEOUT_MS });
  await expect(goals.goal(GOAL.description)).toContainText('you denied retract Whale is-a Cetacean');

  await shell.goTo('Knowledge');
  await knowledge.openSymbol('Whale');
  await expect(knowledge.factRow(knowledge.outgoingTable, 'Whale', 'subClassOf', 'Cetacean')).toHaveCount(1);
});
