import type { AgentApi, GoalView } from '#core/api.ts';
import type { BadgeTone } from './badge-tone.ts';

/** A plan as planList lists it: a goal's attempt, its strategy and its steps with their status. */
export type PlanView = Awaited<ReturnType<AgentApi['planList']>>['plans'][number];
/** One step of a plan: a tool, why, and how it ended. */
export type PlanStepView = PlanView['steps'][number];

/** A plan's status as its badge reads. */
export const PLAN_STATUS_LABELS = {
  active: 'Active',
  completed: 'Completed',
  failed: 'Failed',
  superseded: 'Superseded',
} as const satisfies Record<PlanView['status'], string>;

/** The colour of a plan's status badge. */
export const PLAN_STATUS_TONES = {
  active: 'accent',
  completed: 'success',
  failed: 'danger',
  superseded: 'neutral',
} as const satisfies Record<PlanView['status'], BadgeTone>;

/** A step's status as its badge reads; the step the agent takes next reads "Next". */
export const STEP_STATUS_LABELS = {
  pending: 'Pending',
  completed: 'Completed',
  failed: 'Failed',
  skipped: 'Skipped',
} as const satisfies Record<PlanStepView['status'], string>;

/** The colour of a step's status badge. */
export const STEP_STATUS_TONES = {
  pending: 'neutral',
  completed: 'success',
  failed: 'danger',
  skipped: 'neutral',
} as const satisfies Record<PlanStepView['status'], BadgeTone>;

/** What the Plan panel says of a goal the agent has not planned for. */
export const NO_PLAN_TEXT = 'No plan yet: the agent plans when it first works on this goal.';

/** What the Plan panel says of an active plan whose steps are all done. */
export const ALL_STEPS_DONE_TEXT =
  'All its steps are done: the agent makes a new plan when it next works on this goal.';

/** A goal's plans: the latest (its active plan while the goal is worked on), then the earlier ones, newest first. */
export type GoalPlanHistory<Plan> = { current: Plan; earlier: Plan[] };

/**
 * Each goal's plans, from the session's plans listed oldest first (as planList lists them): a
 * goal's last plan is its current one, the ones before it its history.
 */
export function plansByGoal<Plan extends Pick<PlanView, 'goalId'>>(
  plans: readonly Plan[],
): Map<number, GoalPlanHistory<Plan>> {
  const byGoal = new Map<number, GoalPlanHistory<Plan>>();
  for (const plan of plans) {
    const known = byGoal.get(plan.goalId);
    if (known) byGoal.set(plan.goalId, { current: plan, earlier: [known.current, ...known.earlier] });
    else byGoal.set(plan.goalId, { current: plan, earlier: [] });
  }
  return byGoal;
}

/** The index of the step an active plan takes next (its first pending one), or -1 when it takes none. */
export function nextStepIndex(plan: Pick<PlanView, 'status' | 'steps'>): number {
  if (plan.status !== 'active') return -1;
  return plan.steps.findIndex((step) => step.status === 'pending');
}

/** When a step ended: "in cycle 4", "while planning" (a lookup the planner did itself), or undefined while it waits. */
export function stepEndText(step: Pick<PlanStepView, 'status' | 'cycle'>): string | undefined {
  if (step.cycle !== undefined) return `in cycle ${step.cycle.toLocaleString('en')}`;
  if (step.status === 'completed') return 'while planning';
  return undefined;
}

/** A step's input as one line of JSON, cut short past `limit` characters; undefined when it has none (or none JSON can write). */
export function inputText(input: unknown, limit = 160): string | undefined {
  if (input === undefined || input === null) return undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(input);
  } catch {
    // Not JSON (a cycle, a big integer): the step reads as well without it.
    return undefined;
  }
  if (text === undefined || text === '{}') return undefined;
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** A plan's heading: "Current plan" (or "Latest plan", once it ended) for a goal's last plan, else "Attempt 0". */
export function planTitle(plan: Pick<PlanView, 'attempt' | 'status'>, isLatest: boolean): string {
  if (!isLatest) return `Attempt ${plan.attempt.toLocaleString('en')}`;
  return plan.status === 'active' ? 'Current plan' : 'Latest plan';
}

/** How far a plan got: "attempt 2, made at cycle 7, 1 of 3 steps done" (its attempt left out where the heading names it). */
export function planSummary(plan: Pick<PlanView, 'attempt' | 'cycle' | 'steps'>, isLatest: boolean): string {
  const done = plan.steps.filter((step) => step.status !== 'pending').length;
  const steps = `${done} of ${plan.steps.length} ${plan.steps.length === 1 ? 'step' : 'steps'} done`;
  const made = `made at cycle ${plan.cycle.toLocaleString('en')}, ${steps}`;
  return isLatest ? `attempt ${plan.attempt.toLocaleString('en')}, ${made}` : made;
}

/**
 * The goal the agent works on next: the active goal with the highest priority, then the lowest
 * id (the order the agent's loop gives its attention), or undefined when none is active.
 */
export function goalWorkedOnNext<Goal extends Pick<GoalView, 'id' | 'priority' | 'status'>>(
  goals: readonly Goal[],
): Goal | undefined {
  let next: Goal | undefined;
  for (const goal of goals) {
    if (goal.status !== 'active') continue;
    if (!next || goal.priority > next.priority || (goal.priority === next.priority && goal.id < next.id)) next = goal;
  }
  return next;
}

/** What the Plan button says when it has no plan to show. */
export const NO_NEXT_GOAL_TEXT =
  'No goal is active, so the agent works on none next and there is no plan to show. Add a goal, or resume a suspended one.';

/** What the Plan button says as it opens a plan: "Showing the plan of “Find mammals”, the goal the agent works on next." */
export function showingPlanText(goal: Pick<GoalView, 'description'>): string {
  return `Showing the plan of “${goal.description}”, the goal the agent works on next.`;
}
