import { describe, expect, it } from 'vitest';
import { describeSpentLimit, UsageBudget } from './usage-budget.ts';

describe("a run's usage budget", () => {
  const request = (budget: UsageBudget, promptTokens = 1, completionTokens = 1) =>
    budget.chargeRequest({ promptTokens, completionTokens });
  it.each([
    {
      limits: { requests: 2 },
      shortOf: (budget: UsageBudget) => request(budget),
      last: (budget: UsageBudget) => request(budget),
      spent: { limit: 'requests', used: 2, max: 2 },
    },
    {
      limits: { toolCalls: 3 },
      shortOf: (budget: UsageBudget) => [1, 2].forEach(() => budget.chargeToolCall()),
      last: (budget: UsageBudget) => budget.chargeToolCall(),
      spent: { limit: 'toolCalls', used: 3, max: 3 },
    },
    {
      limits: { inputTokens: 100 },
      shortOf: (budget: UsageBudget) => request(budget, 99),
      last: (budget: UsageBudget) => request(budget, 21),
      spent: { limit: 'inputTokens', used: 120, max: 100 },
    },
    {
      limits: { outputTokens: 10 },
      shortOf: (budget: UsageBudget) => request(budget, 1, 9),
      last: (budget: UsageBudget) => request(budget, 1, 1),
      spent: { limit: 'outputTokens', used: 10, max: 10 },
    },
  ] as const)('is spent at its $spent.limit limit, and not a step before', ({ limits, shortOf, last, spent }) => {
    const budget = new UsageBudget(limits);
    shortOf(budget);
    expect(budget.spent()).toBeUndefined();
    last(budget);
    expect(budget.spent()).toEqual(spent);
  });

  it('is spent when the wall time is up, and not a millisecond before', () => {
    let clock = 1_000;
    const budget = new UsageBudget({ wallSeconds: 30 }, () => clock);
    clock += 29_999;
    expect(budget.spent()).toBeUndefined();
    clock += 1;
    expect(budget.spent()).toEqual({ limit: 'wallSeconds', used: 30, max: 30 });
  });

  it('says how much wall time is left, and nothing without a wall-time limit', () => {
    let clock = 0;
    expect(new UsageBudget({}, () => clock).wallMsLeft()).toBeUndefined();
    const budget = new UsageBudget({ wallSeconds: 2 }, () => clock);
    clock = 500;
    expect(budget.wallMsLeft()).toBe(1_500);
    clock = 5_000;
    expect(budget.wallMsLeft()).toBe(0);
  });

  it('words a spent limit for a bottleneck and the CLI', () => {
    expect(describeSpentLimit({ limit: 'requests', used: 1, max: 1 })).toBe('1 request, the limit is 1');
    expect(describeSpentLimit({ limit: 'wallSeconds', used: 12.5, max: 10 })).toBe(
      '12.5 seconds of wall time, the limit is 10',
    );
  });
});
