import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import { childRunText, mergeCycles, rejectionText } from './cycle-log.ts';

function record(cycle: number, tool = 'kg_query'): CycleRecord {
  return {
    sessionId: 's',
    cycle,
    goalId: 1,
    startedAt: cycle,
    observe: '',
    orient: '',
    decide: '',
    act: '',
    candidates: [],
    tool,
    input: {},
    outcome: 'no-change',
  };
}

describe('mergeCycles', () => {
  it('puts the newest cycle first, whichever order they arrive in', () => {
    const log = mergeCycles([record(2), record(1)], [record(3)]);
    expect(log.map((entry) => entry.cycle)).toEqual([3, 2, 1]);
    expect(mergeCycles([record(3)], [record(1), record(2)]).map((entry) => entry.cycle)).toEqual([3, 2, 1]);
  });

  it('lists a cycle once, even when the stored log and a run both report it', () => {
    const log = mergeCycles([record(2, 'infer_rules'), record(1)], [record(2, 'kg_query')]);
    expect(log.map((entry) => [entry.cycle, entry.tool])).toEqual([
      [2, 'kg_query'],
      [1, 'kg_query'],
    ]);
  });

  it('keeps only the newest cycles past the limit', () => {
    expect(mergeCycles([], [record(1), record(2), record(3)], 2).map((entry) => entry.cycle)).toEqual([3, 2]);
  });
});

describe('a refused action in the log', () => {
  it('names its class and whether a retry could help, beside what was required and observed', () => {
    expect(
      rejectionText({
        class: 'precondition_miss',
        required: 'document 4 among the session documents',
        observed: '2 documents, none with that id',
        retryable: true,
      }),
    ).toEqual({
      heading: 'Precondition missed (a retry may succeed)',
      required: 'document 4 among the session documents',
      observed: '2 documents, none with that id',
    });
    expect(
      rejectionText({ class: 'policy_block', required: 'an action the shadow allows', observed: 'x', retryable: false })
        .heading,
    ).toBe('Blocked by policy (a retry cannot succeed)');
  });
});

describe('a child run in the log', () => {
  it('shows its posture, purpose, result and what it used', () => {
    expect(
      childRunText({
        posture: 'reviewer',
        purpose: 'review the reading',
        provider: 'webllm',
        model: 'SmolLM2',
        settings: { temperature: 0 },
        usage: { requests: 1, promptTokens: 1200, completionTokens: 9, toolCalls: 0, wallMs: 1530 },
        result: { verdict: 'accept', problems: [] },
        summary: 'accepted',
      }),
    ).toEqual({
      heading: 'Reviewer: review the reading',
      outcome: 'Result: accepted',
      usage: '1 request (1,200 prompt + 9 completion tokens), 0 tool calls, 1.5 s, on SmolLM2',
    });
  });

  it('shows the bottleneck a child stopped at instead of a result', () => {
    const text = childRunText({
      posture: 'red-team',
      purpose: 'look for breach paths',
      provider: 'webllm',
      model: 'SmolLM2',
      settings: {},
      usage: { requests: 0, promptTokens: 0, completionTokens: 0, toolCalls: 0, wallMs: 0 },
      summary: 'stopped',
      bottleneck: { kind: 'budget_exhausted', detail: "the run's budget is spent: 1 request, the limit is 1" },
    });
    expect(text.heading).toBe('Red team: look for breach paths');
    expect(text.outcome).toBe("Stopped: budget exhausted — the run's budget is spent: 1 request, the limit is 1");
  });
});
