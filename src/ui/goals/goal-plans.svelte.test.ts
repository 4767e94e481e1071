import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { AgentApi } from '#core/api.ts';
import { GoalPlans } from './goal-plans.svelte.ts';
import type { PerGoalListHost } from './per-goal-list.svelte.ts';
import type { PlanView } from './plan-messages.ts';

function plan(
  id: number,
  goalId: number,
  status: PlanView['status'],
  stepStatus: PlanView['steps'][number]['status'] = 'pending',
): PlanView {
  return {
    id,
    sessionId: 's',
    goalId,
    attempt: id - 1,
    needs: ['knowledge'],
    strategy: 'explore first',
    steps: [
      {
        tool: 'infer_rules',
        input: {},
        rationale: 'reasoning: derive',
        status: stepStatus,
        ...(stepStatus === 'pending' ? {} : { cycle: id }),
      },
    ],
    status,
    cycle: id,
    createdAt: 0,
  };
}

/** A fake agent listing the plans it is given, oldest first, as the service does; it records its calls and can fail. */
function fakeHost() {
  const calls: string[] = [];
  const state = { plans: [] as PlanView[], failure: undefined as string | undefined };
  const client = {
    planList: async ({ sessionId, goalId }: { sessionId: string; goalId?: number }) => {
      calls.push(`planList ${sessionId}${goalId === undefined ? '' : ` ${goalId}`}`);
      if (state.failure !== undefined) throw new Error(state.failure);
      return { plans: state.plans };
    },
  } satisfies Partial<AgentApi>;
  const host: PerGoalListHost = { client: client as unknown as AgentApi, sessionId: 's' };
  return { host, calls, state };
}

describe('GoalPlans', () => {
  it('fetches the plans of every goal at once, and gives each goal its current plan and history', async () => {
    const { host, calls, state } = fakeHost();
    state.plans = [plan(1, 1, 'failed', 'failed'), plan(2, 2, 'active'), plan(3, 1, 'active')];
    const plans = new GoalPlans(host);
    await plans.load();
    flushSync();
    expect(calls).toEqual(['planList s']);
    expect(plans.status).toBe('ready');
    expect(plans.byGoal.get(1)?.current.id).toBe(3);
    expect(plans.byGoal.get(1)?.earlier.map((earlier) => earlier.status)).toEqual(['failed']);
    expect(plans.byGoal.get(2)?.earlier).toEqual([]);
    expect(plans.byGoal.get(4)).toBeUndefined();
  });

  it('shows a step as completed after the cycle that took it', async () => {
    const { host, state } = fakeHost();
    state.plans = [plan(1, 1, 'active')];
    const plans = new GoalPlans(host);
    await plans.load();
    state.plans = [plan(1, 1, 'active', 'completed')];
    await plans.load();
    flushSync();
    expect(plans.byGoal.get(1)?.current.steps[0]).toMatchObject({ tool: 'infer_rules', status: 'completed', cycle: 1 });
  });

  it('says why the plans could not be fetched, and keeps those it has', async () => {
    const { host, state } = fakeHost();
    state.plans = [plan(1, 1, 'active')];
    const plans = new GoalPlans(host);
    await plans.load();
    state.failure = 'the database is closed';
    await plans.load();
    flushSync();
    expect(plans.status).toBe('error');
    expect(plans.errorMessage).toContain('the database is closed');
    expect(plans.byGoal.get(1)?.current.id).toBe(1);
  });
});
