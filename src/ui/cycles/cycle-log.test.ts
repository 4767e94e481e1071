import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import { mergeCycles, rejectionText } from './cycle-log.ts';

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
