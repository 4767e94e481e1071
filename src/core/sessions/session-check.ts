import type { Problem } from '#core/result.ts';
import { hasGoalEnded } from '#core/records/goal.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import { parseSnapshot } from './snapshot-check.ts';
import { readSession } from './snapshot.ts';
import type { Snapshot } from './snapshot-format.ts';

/**
 * Checks that a stored session is whole: every row fits its schema, every reference resolves (no
 * triple names a missing symbol or provenance record, no row a missing goal), and the counters
 * agree with the log (the session's cycle is its last cycle record, numbered without gaps; a
 * goal worked as many cycles as the log gives it; plans belong to their goals). What a crash at
 * any moment must never break. An empty list: nothing wrong.
 */
export async function checkSession(db: AnimaDatabase, sessionId: string): Promise<Problem[]> {
  let stored: Snapshot;
  try {
    stored = await readSession(db, sessionId);
  } catch (error) {
    return [{ message: `the session cannot be read whole: ${error instanceof Error ? error.message : String(error)}` }];
  }
  const parsed = parseSnapshot(stored);
  return parsed.ok ? checkCounters(parsed.value) : parsed.error;
}

/** The counters and the states that must agree with the cycle log (references are parseSnapshot's). */
function checkCounters(snapshot: Snapshot): Problem[] {
  const problems: Problem[] = [];
  const { session, cycles, goals, plans, approvals, questions } = snapshot;
  const numbers = cycles.map((record) => record.cycle).sort((left, right) => left - right);
  const last = numbers.at(-1) ?? 0;
  if (last !== session.cycle)
    problems.push({
      path: 'session.cycle',
      message: `the session says cycle ${session.cycle}, its log ends at cycle ${last}`,
    });
  const gap = numbers.findIndex((number, index) => number !== index + 1);
  if (gap >= 0) problems.push({ path: 'cycles', message: `the cycle log skips from ${gap} to ${numbers[gap]}` });
  const worked = new Map<number, number>();
  for (const record of cycles) worked.set(record.goalId, (worked.get(record.goalId) ?? 0) + 1);
  for (const [index, goal] of goals.entries()) {
    const logged = worked.get(goal.id) ?? 0;
    if (goal.cyclesWorked !== logged)
      problems.push({
        path: `goals.${index}.cyclesWorked`,
        message: `goal ${goal.id} counts ${goal.cyclesWorked} cycles worked, the log has ${logged}`,
      });
    if (goal.lastProgressCycle > goal.cyclesWorked)
      problems.push({
        path: `goals.${index}.lastProgressCycle`,
        message: `goal ${goal.id} progressed at its cycle ${goal.lastProgressCycle}, after the ${goal.cyclesWorked} it worked`,
      });
    if (goal.status === 'waiting') {
      const isAwaited =
        approvals.some(
          (approval) =>
            approval.goalId === goal.id && (approval.status === 'pending' || approval.status === 'approved'),
        ) || questions.some((question) => question.goalId === goal.id && question.status === 'pending');
      if (!isAwaited)
        problems.push({
          path: `goals.${index}.status`,
          message: `goal ${goal.id} waits, but no approval or question of it is open`,
        });
    }
  }
  const statusOf = new Map(goals.map((goal) => [goal.id, goal.status]));
  const activePlans = new Set<number>();
  for (const [index, plan] of plans.entries()) {
    if (plan.status !== 'active') continue;
    if (activePlans.has(plan.goalId))
      problems.push({ path: `plans.${index}`, message: `goal ${plan.goalId} has more than one active plan` });
    activePlans.add(plan.goalId);
    const status = statusOf.get(plan.goalId);
    if (status !== undefined && hasGoalEnded(status))
      problems.push({
        path: `plans.${index}.status`,
        message: `plan ${plan.id} is active, but its goal ${plan.goalId} has ${status}`,
      });
  }
  return problems;
}
