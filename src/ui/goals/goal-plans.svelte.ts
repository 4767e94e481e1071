import { PerGoalList, type PerGoalListHost } from './per-goal-list.svelte.ts';
import { type GoalPlanHistory, type PlanView, plansByGoal } from './plan-messages.ts';

/**
 * The goals' plans, oldest first, grouped as each goal's latest and its earlier ones (newest
 * first); a cycle takes a step or ends a plan and makes the next, a reflection may supersede one.
 */
export class GoalPlans extends PerGoalList<PlanView, Map<number, GoalPlanHistory<PlanView>>> {
  constructor(host: PerGoalListHost) {
    super(
      host,
      async ({ client, sessionId }) => (await client.planList({ sessionId })).plans,
      (plans) => plansByGoal(plans),
    );
  }
}
