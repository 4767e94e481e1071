import { describe, expect, it } from 'vitest';
import {
  type PlanView,
  goalWorkedOnNext,
  inputText,
  nextStepIndex,
  planSummary,
  planTitle,
  plansByGoal,
  showingPlanText,
  stepEndText,
} from './plan-messages.ts';

function plan(
  id: number,
  goalId: number,
  attempt: number,
  status: PlanView['status'],
  steps: PlanView['steps'] = [],
): PlanView {
  return {
    id,
    sessionId: 's',
    goalId,
    attempt,
    needs: ['knowledge'],
    strategy: `explore first (attempt ${attempt})`,
    steps,
    status,
    cycle: attempt * 3 + 1,
    createdAt: 0,
  };
}

const LOOKED_UP = {
  tool: 'kg_query',
  input: { pattern: '?x is-a mammal' },
  rationale: 'knowledge: look up',
  status: 'completed',
  result: 'looked up while planning: 9 answers',
} as const;
const INFERRED = {
  tool: 'infer_rules',
  input: { minConfidence: 0.1 },
  rationale: 'reasoning: derive',
  status: 'completed',
  result: 'derived 145 new facts',
  cycle: 1,
} as const;
const REASON = {
  tool: 'reason',
  input: { mode: 'closure' },
  rationale: 'reasoning: prove',
  status: 'pending',
} as const;
const GAPS = {
  tool: 'gap_analysis',
  input: { symbol: 9 },
  rationale: 'reasoning: find gaps',
  status: 'pending',
} as const;

describe('plansByGoal', () => {
  it("makes a goal's last plan its current one and lists the earlier ones newest first", () => {
    const byGoal = plansByGoal([
      plan(1, 1, 0, 'completed'),
      plan(2, 2, 0, 'active'),
      plan(3, 1, 1, 'failed'),
      plan(4, 1, 2, 'active'),
    ]);
    expect(byGoal.get(1)?.current.id).toBe(4);
    expect(byGoal.get(1)?.earlier.map((earlier) => earlier.id)).toEqual([3, 1]);
    expect(byGoal.get(2)).toMatchObject({ current: { id: 2 }, earlier: [] });
    expect(byGoal.has(3)).toBe(false);
  });
});

describe('the steps of a plan', () => {
  it('marks the first pending step of an active plan as the next one, and none of an ended plan', () => {
    expect(nextStepIndex(plan(1, 1, 0, 'active', [LOOKED_UP, INFERRED, REASON, GAPS]))).toBe(2);
    expect(nextStepIndex(plan(1, 1, 0, 'superseded', [LOOKED_UP, REASON]))).toBe(-1);
    expect(nextStepIndex(plan(1, 1, 0, 'active', [LOOKED_UP, INFERRED]))).toBe(-1);
  });

  it('says when a step ended: in its cycle, while planning for a lookup done by the planner, or not yet', () => {
    expect(stepEndText(INFERRED)).toBe('in cycle 1');
    expect(stepEndText(LOOKED_UP)).toBe('while planning');
    expect(stepEndText(REASON)).toBeUndefined();
    expect(stepEndText({ status: 'skipped', cycle: 1200 })).toBe('in cycle 1,200');
  });

  it('shows a step input as one line of JSON, cut short when long', () => {
    expect(inputText({ pattern: '?x is-a mammal' })).toBe('{"pattern":"?x is-a mammal"}');
    expect(inputText(null)).toBeUndefined();
    expect(inputText({})).toBeUndefined();
    const long = inputText({ text: 'x'.repeat(500) }, 40);
    expect(long).toHaveLength(40);
    expect(long?.endsWith('…')).toBe(true);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(inputText(cyclic)).toBeUndefined();
  });

  it("sums up a plan's attempt, when it was made and how far it got", () => {
    expect(planSummary(plan(1, 1, 2, 'active', [LOOKED_UP, INFERRED, REASON]), true)).toBe(
      'attempt 2, made at cycle 7, 2 of 3 steps done',
    );
    expect(planSummary(plan(1, 1, 0, 'failed', [REASON]), false)).toBe('made at cycle 1, 0 of 1 step done');
  });

  it('heads the latest plan as current while it is active, and earlier ones by their attempt', () => {
    expect(planTitle(plan(1, 1, 2, 'active'), true)).toBe('Current plan');
    expect(planTitle(plan(1, 1, 2, 'completed'), true)).toBe('Latest plan');
    expect(planTitle(plan(1, 1, 1, 'superseded'), false)).toBe('Attempt 1');
  });
});

describe('goalWorkedOnNext', () => {
  const goal = (id: number, priority: number, status: 'active' | 'suspended' | 'completed' = 'active') => ({
    id,
    priority,
    status,
    description: `goal ${id}`,
  });

  it('picks the active goal with the highest priority, then the lowest id, as the agent does', () => {
    expect(goalWorkedOnNext([goal(1, 100), goal(2, 200), goal(3, 200)])?.id).toBe(2);
    expect(goalWorkedOnNext([goal(3, 128), goal(1, 128)])?.id).toBe(1);
    expect(goalWorkedOnNext([goal(1, 255, 'suspended'), goal(2, 255, 'completed'), goal(3, 0)])?.id).toBe(3);
  });

  it('finds none when no goal is active', () => {
    expect(goalWorkedOnNext([goal(1, 100, 'suspended')])).toBeUndefined();
    expect(goalWorkedOnNext([])).toBeUndefined();
  });

  it('names the goal whose plan it shows', () => {
    expect(showingPlanText({ description: 'Find mammals' })).toBe(
      'Showing the plan of “Find mammals”, the goal the agent works on next.',
    );
  });
});
