import { describe, expect, it } from 'vitest';
import {
  type RunResult,
  addModelUse,
  describeRunEnd,
  runBlockedReason,
  runningText,
  spentLimitText,
} from './run-messages.ts';

/** What a run without a model used. */
const NO_MODEL = { provider: 'none', requests: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0 };

function ended(
  result: Omit<Extract<RunResult, { ok: true }>, 'ok' | 'usage'> & {
    usage?: Extract<RunResult, { ok: true }>['usage'];
  },
): RunResult {
  return { ok: true, usage: NO_MODEL, ...result };
}

describe('describeRunEnd', () => {
  it('says how many cycles ran and up to which', () => {
    expect(describeRunEnd(ended({ cyclesRun: 10, lastCycle: 12, stoppedBecause: 'max-cycles' })).message).toBe(
      'Ran 10 cycles (up to cycle 12).',
    );
    expect(describeRunEnd(ended({ cyclesRun: 1, lastCycle: 1, stoppedBecause: 'max-cycles' })).message).toBe(
      'Ran 1 cycle (up to cycle 1).',
    );
  });

  it('says when the goals are done, and when nothing ran because no goal is active', () => {
    expect(describeRunEnd(ended({ cyclesRun: 3, lastCycle: 3, stoppedBecause: 'no-active-goal' })).message).toBe(
      'Ran 3 cycles (up to cycle 3); no goal is active any more.',
    );
    expect(describeRunEnd(ended({ cyclesRun: 0, lastCycle: 3, stoppedBecause: 'no-active-goal' })).message).toMatch(
      /^No goal is active, so no cycle ran/,
    );
  });

  it('alerts that storage is full, naming the last stored cycle and saying the unfinished one was not kept', () => {
    const report = describeRunEnd(ended({ cyclesRun: 2, lastCycle: 7, stoppedBecause: 'storage-full' }));
    expect(report).toMatchObject({ tone: 'failure', problems: [] });
    expect(report.message).toBe(
      'Storage is full: the run paused after cycle 7. Nothing from the unfinished cycle was kept. Free space (delete a model or a session) or allow more storage, then run again.',
    );
  });

  it('says a paused run paused, and a refused run why', () => {
    expect(describeRunEnd(ended({ cyclesRun: 2, lastCycle: 5, stoppedBecause: 'cancelled' })).message).toBe(
      'Paused after 2 cycles (up to cycle 5).',
    );
    const refused = describeRunEnd({ ok: false, reason: 'read-only', problems: [{ message: 'held by another tab' }] });
    expect(refused).toMatchObject({ tone: 'failure', problems: ['held by another tab'] });
    expect(refused.message).toContain('another tab');
  });
});

describe('describeRunEnd with a language model', () => {
  const usage = {
    provider: 'openai-compatible',
    model: 'llama-3',
    requests: 4,
    toolCalls: 2,
    inputTokens: 1200,
    outputTokens: 300,
  };

  it('says the run stopped because its budget is spent, and which limit, in words', () => {
    const report = describeRunEnd(
      ended({
        cyclesRun: 2,
        lastCycle: 7,
        stoppedBecause: 'budget',
        budgetSpent: { limit: 'requests', used: 5, max: 5 },
        usage,
      }),
    );
    expect(report.message).toBe(
      "Ran 2 cycles (up to cycle 7). Stopped: the run's budget is spent (5 model requests of 5).",
    );
    expect(report.tone).toBe('notice');
    expect(
      describeRunEnd(
        ended({
          cyclesRun: 0,
          lastCycle: 7,
          stoppedBecause: 'budget',
          budgetSpent: { limit: 'requests', used: 1, max: 1 },
          usage,
        }),
      ).message,
    ).toBe("Stopped: the run's budget is spent (1 model request of 1).");
    expect(spentLimitText({ limit: 'wallSeconds', used: 61.2, max: 60 })).toBe('61.2 seconds of 60');
    expect(spentLimitText({ limit: 'inputTokens', used: 12000, max: 10000 })).toBe('12,000 input tokens of 10,000');
  });

  it('adds what the bound model used, and nothing when the run bound none', () => {
    expect(describeRunEnd(ended({ cyclesRun: 1, lastCycle: 1, stoppedBecause: 'max-cycles', usage })).details).toEqual([
      'llama-3 (OpenAI-compatible): 4 requests, 1,200 tokens in, 300 out',
    ]);
    expect(describeRunEnd(ended({ cyclesRun: 1, lastCycle: 1, stoppedBecause: 'max-cycles' })).details).toBeUndefined();
  });

  it('says when the chosen model could not be used and the run went on without it', () => {
    const report = describeRunEnd(
      ended({
        cyclesRun: 3,
        lastCycle: 3,
        stoppedBecause: 'no-active-goal',
        usage: { ...NO_MODEL, fellBack: { kind: 'not-here', because: 'WebLLM runs only in the browser, on WebGPU' } },
      }),
    );
    expect(report.message).toBe(
      'Ran 3 cycles (up to cycle 3); no goal is active any more. The model could not be used (WebLLM runs only in the browser, on WebGPU); the run went on with the symbolic engine alone.',
    );
    expect(report.details).toBeUndefined();
  });

  it('says when the model was loaded again before the run, and why', () => {
    const report = describeRunEnd(
      ended({
        cyclesRun: 1,
        lastCycle: 4,
        stoppedBecause: 'max-cycles',
        usage: { ...usage, reloaded: 'the model had been unloaded since it was last used, so it was loaded again' },
      }),
    );
    expect(report.message).toBe(
      'Ran 1 cycle (up to cycle 4). Before the run, the model had been unloaded since it was last used, so it was loaded again.',
    );
  });
});

describe('runBlockedReason', () => {
  it('lets a run start only in the writing tab, with an active goal', () => {
    expect(runBlockedReason({ canWrite: true, hasLoadedGoals: true, hasActiveGoal: true })).toBeUndefined();
    expect(runBlockedReason({ canWrite: false, hasLoadedGoals: true, hasActiveGoal: true })).toContain('another tab');
    expect(runBlockedReason({ canWrite: true, hasLoadedGoals: true, hasActiveGoal: false })).toMatch(
      /^No goal is active/,
    );
  });

  it('points to the Approvals screen when the only open goals wait for approval', () => {
    const blocked = (approvals: number, questions: number) =>
      runBlockedReason({
        canWrite: true,
        hasLoadedGoals: true,
        hasActiveGoal: false,
        hasWaitingGoal: true,
        waiting: { approvals, questions },
      });
    expect(blocked(1, 0)).toMatch(/^No goal is active: a goal waits for your approval.*Approvals screen/);
    expect(blocked(0, 1)).toMatch(/^No goal is active: a goal waits for your answer to its question.*Approvals screen/);
    expect(blocked(0, 1)).not.toContain('approval.');
    expect(blocked(2, 1)).toMatch(/wait for your approval and for your answer/);
  });
});

describe('runningText', () => {
  it('counts the cycles done so far', () => {
    expect(runningText({ kind: 'some', cyclesRun: 3, maxCycles: 10, isPausing: false })).toBe(
      'Running: 3 of 10 cycles done.',
    );
    expect(runningText({ kind: 'until-done', cyclesRun: 1, maxCycles: 1000, isPausing: false })).toBe(
      'Running until no goal is active: 1 cycle done.',
    );
    expect(runningText({ kind: 'one', cyclesRun: 0, maxCycles: 1, isPausing: true })).toBe(
      'Pausing after the current cycle: 0 of 1 cycle done.',
    );
  });

  it("adds the model's requests and tokens, summed from the cycles that asked it", () => {
    let modelUse = addModelUse(undefined, undefined);
    expect(modelUse).toBeUndefined();
    modelUse = addModelUse(modelUse, { requests: 1, promptTokens: 900, completionTokens: 100 });
    modelUse = addModelUse(modelUse, undefined);
    modelUse = addModelUse(modelUse, { requests: 2, promptTokens: 300, completionTokens: 200 });
    expect(runningText({ kind: 'until-done', cyclesRun: 3, maxCycles: 1000, isPausing: false, modelUse })).toBe(
      'Running until no goal is active: 3 cycles done. Model: 3 requests, 1,200 tokens in, 300 out.',
    );
  });

  it("measures the model's use against the run's limits where they are set", () => {
    const modelUse = { requests: 3, inputTokens: 1200, outputTokens: 300 };
    expect(
      runningText(
        { kind: 'some', cyclesRun: 3, maxCycles: 10, isPausing: false, modelUse },
        { requests: 20, inputTokens: 8000 },
      ),
    ).toBe('Running: 3 of 10 cycles done. Model: 3 of 20 requests, 1,200 of 8,000 tokens in, 300 out.');
    expect(
      runningText({ kind: 'some', cyclesRun: 3, maxCycles: 10, isPausing: false, modelUse }, { outputTokens: 500 }),
    ).toBe('Running: 3 of 10 cycles done. Model: 3 requests, 1,200 tokens in, 300 of 500 out.');
  });
});
