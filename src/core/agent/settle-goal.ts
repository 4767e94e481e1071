import type { AnimaDatabase } from '#core/store/database.ts';
import type { Decision } from './cycle.ts';
import { countShadowEncounter } from '#core/psyche/psyche-store.ts';
import type { ToolOutcome } from '#core/tools/tool.ts';
import { type Goal, hasGoalEnded, MAX_FINDINGS } from '#core/records/goal.ts';
import { advancePlan, type StepRun } from './plan.ts';
import type { Plan } from '#core/records/plan.ts';
import type { ActGate } from './act-gate.ts';
import type { CommitContext } from './commit-context.ts';
import { consolidateEndedGoals } from './cycle-memory.ts';

/**
 * The plan after the cycle: its step takes the cycle's result, a plan the cycle ended or made is
 * stored (a new one counted on its goal), and a failed plan is counted; once `maxFailedPlans`
 * failed, the goal is abandoned, with the reason. A plan ends with its goal. A plan the cycle left
 * as it was read (`activePlans`, the cycle's inputs) is not written again.
 */
export async function settlePlan(
  context: CommitContext,
  decision: Decision,
  gate: ActGate,
  outcome: ToolOutcome,
  updatedGoals: Goal[],
  maxFailedPlans: number,
  activePlans: readonly Plan[],
): Promise<Goal[]> {
  const { db, cycle } = context;
  const steering = decision.plan!;
  const step: Pick<StepRun, 'result' | 'summary'> =
    gate.kind === 'vetoed'
      ? { result: 'skipped', summary: `vetoed by ${gate.veto.pattern.name} (${gate.veto.because})` }
      : gate.kind === 'ask' || outcome.deferred
        ? { result: 'waiting', summary: '' }
        : outcome.question !== undefined
          ? { result: 'completed', summary: `asked: ${outcome.question}` }
          : { result: outcome.ok ? 'completed' : 'failed', summary: outcome.summary };
  let plan: Plan = advancePlan(steering.plan, { ...step, tool: decision.tool.name, input: decision.input, cycle });
  let goal = updatedGoals[0]!;
  if (steering.ended) await db.plans.put(steering.ended);
  if (steering.plan.id === undefined) goal = { ...goal, plansMade: (decision.goal.plansMade ?? 0) + 1 };
  if (plan.status === 'failed') {
    const plansFailed = (goal.plansFailed ?? 0) + 1;
    goal = { ...goal, plansFailed };
    if (plansFailed >= maxFailedPlans && (goal.status === 'active' || goal.status === 'suspended'))
      goal = {
        ...goal,
        status: 'abandoned',
        statusReason: `${plansFailed} of its plans failed (the limit is ${maxFailedPlans}); the last: ${plan.statusReason}`,
      };
  } else if (goal.status === 'completed') plan = { ...plan, status: 'completed', statusReason: 'its goal is met' };
  else if (goal.status === 'failed')
    plan = { ...plan, status: 'failed', statusReason: `its goal failed: ${goal.statusReason ?? ''}` };
  else if (goal.status === 'abandoned')
    plan = { ...plan, status: 'failed', statusReason: `its goal was abandoned: ${goal.statusReason ?? ''}` };
  const read = activePlans.find((candidate) => candidate.id !== undefined && candidate.id === plan.id);
  if (!read || !isUnchanged(plan, read)) await db.plans.put(plan);
  return [goal, ...updatedGoals.slice(1)];
}

/** Whether a plan is still the one read: the cycle changes a plan only by new steps and a new status. */
function isUnchanged(plan: Plan, read: Plan): boolean {
  return (
    plan.strategy === read.strategy &&
    plan.status === read.status &&
    plan.statusReason === read.statusReason &&
    plan.steps.length === read.steps.length &&
    plan.steps.every((step, at) => step === read.steps[at])
  );
}

/**
 * The agent gave up on a goal (seed 000: an abandoned goal is a shadow encounter): a provenance
 * record with the reason, and an encounter counted on the psyche, which grows individuation at
 * the next evolution. Call inside the cycle's transaction.
 */
export async function recordAbandonment(context: CommitContext, goal: Goal): Promise<void> {
  const { db, sessionId, cycle, startedAt } = context;
  await countShadowEncounter(db, sessionId, startedAt);
  await db.provenance.add({
    sessionId,
    kind: 'abandonment',
    sources: [`goal:${goal.id}`],
    confidence: 1,
    cycle,
    detail: `abandoned "${goal.description}": ${goal.statusReason ?? ''}`,
    createdAt: startedAt,
  });
}

/**
 * A parent waits (suspended) for the sub-goals it was split into. Once a child ends and all its
 * siblings have ended too, the parent resumes when they all completed, taking in what they found;
 * when any failed or was abandoned, the parent is abandoned: it was split because it stalled, so
 * resuming it would only stall (and split) again.
 */
export async function settleParent(context: CommitContext, child: Goal): Promise<Goal | undefined> {
  if (child.parentId === undefined || !hasGoalEnded(child.status)) return undefined;
  // Read here, not with the cycle's inputs: those hold only the goals still open, and ended siblings count too.
  const [parent, siblings] = await Promise.all([
    context.db.goals.get(child.parentId),
    context.db.goals.where('parentId').equals(child.parentId).toArray(),
  ]);
  const children = [...siblings.filter((goal) => goal.id !== child.id), child];
  if (!parent || parent.status !== 'suspended' || !children.every((sibling) => hasGoalEnded(sibling.status)))
    return undefined;
  const unmet = children.filter((sibling) => sibling.status !== 'completed');
  if (unmet.length > 0) {
    const statusReason = `its sub-goals did not all complete: ${unmet.map((sibling) => `#${sibling.id} ${sibling.status} (${sibling.statusReason ?? 'no reason given'})`).join('; ')}`;
    const abandoned: Goal = { ...parent, status: 'abandoned', statusReason };
    await recordAbandonment(context, abandoned);
    await endActivePlans(context.db, parent, `its goal was abandoned: ${statusReason}`);
    return abandoned;
  }
  // The parent takes in what its children found: its own criteria are judged on all of it.
  const known = new Set(parent.findings.map((fact) => fact.join(' ')));
  const inherited = children
    .flatMap((sibling) => sibling.findings)
    .filter((fact) => {
      const key = fact.join(' ');
      if (known.has(key)) return false;
      known.add(key);
      return true;
    });
  return {
    ...parent,
    status: 'active',
    statusReason: 'its sub-goals are complete',
    lastProgressCycle: parent.cyclesWorked,
    findings: [...parent.findings, ...inherited].slice(0, MAX_FINDINGS),
  };
}

/** Ends a goal's active plans (its goal ended, or was cancelled), with why; call inside a transaction over plans. */
export async function endActivePlans(
  db: AnimaDatabase,
  goal: Pick<Goal, 'id' | 'sessionId'>,
  reason: string,
): Promise<void> {
  await db.plans
    .where('[sessionId+status]')
    .equals([goal.sessionId, 'active'])
    .filter((plan) => plan.goalId === goal.id)
    .modify({ status: 'superseded', statusReason: reason });
}

/**
 * What a goal cancelled by the user leaves behind, once it is stored as failed: its approvals and
 * questions have nobody left to answer them, its plan ends, a parent waiting for its sub-goals
 * learns that this one ended, and the working memory of what ended becomes episodes. Call inside
 * a transaction over goals, approvals, questions, plans, provenance, psyches, workingMemory and episodes.
 */
export async function settleCancellation(context: CommitContext, cancelled: Goal): Promise<void> {
  const { db, sessionId } = context;
  await endActivePlans(db, cancelled, 'its goal was cancelled by the user');
  await db.approvals
    .where('sessionId')
    .equals(sessionId)
    .filter(
      (approval) =>
        approval.goalId === cancelled.id && (approval.status === 'pending' || approval.status === 'approved'),
    )
    .modify({ status: 'invalidated', reason: 'its goal was cancelled', decidedAt: context.startedAt });
  await db.questions
    .where('sessionId')
    .equals(sessionId)
    .filter((question) => question.goalId === cancelled.id && question.status === 'pending')
    .modify({ status: 'withdrawn', reason: 'its goal was cancelled' });
  const parent = await settleParent(context, cancelled);
  if (parent) await db.goals.put(parent);
  const ended = [cancelled, ...(parent && hasGoalEnded(parent.status) ? [parent] : [])];
  const endedIds = new Set(ended.map((goal) => goal.id));
  const entries = await db.workingMemory
    .where('sessionId')
    .equals(sessionId)
    .filter((entry) => entry.goalId !== undefined && endedIds.has(entry.goalId))
    .toArray();
  const { storing } = consolidateEndedGoals(db, context, ended, entries);
  if (storing) await storing;
}
