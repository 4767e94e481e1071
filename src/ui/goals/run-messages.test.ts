import { describe, expect, it } from 'vitest';
import { describeRunEnd, runBlockedReason, runningText } from './run-messages.ts';

describe('describeRunEnd', () => {
  it('says how many cycles ran and up to which', () => {
    expect(describeRunEnd({ ok: true, cyclesRun: 10, lastCycle: 12, stoppedBecause: 'max-cycles' }).message).toBe('Ran 10 cycles (up to cycle 12).');
    expect(describeRunEnd({ ok: true, cyclesRun: 1, lastCycle: 1, stoppedBecause: 'max-cycles' }).message).toBe('Ran 1 cycle (up to cycle 1).');
  });

  it('says when the goals are done, and when nothing ran because no goal is active', () => {
    expect(describeRunEnd({ ok: true, cyclesRun: 3, lastCycle: 3, stoppedBecause: 'no-active-goal' }).message).toBe('Ran 3 cycles (up to cycle 3); no goal is active any more.');
    expect(describeRunEnd({ ok: true, cyclesRun: 0, lastCycle: 3, stoppedBecause: 'no-active-goal' }).message).toMatch(/^No goal is active, so no cycle ran/);
  });

  it('says a paused run paused, and a refused run why', () => {
    expect(describeRunEnd({ ok: true, cyclesRun: 2, lastCycle: 5, stoppedBecause: 'cancelled' }).message).toBe('Paused after 2 cycles (up to cycle 5).');
    const refused = describeRunEnd({ ok: false, reason: 'read-only', problems: [{ message: 'held by another tab' }] });
    expect(refused).toMatchObject({ tone: 'failure', problems: ['held by another tab'] });
    expect(refused.message).toContain('another tab');
  });
});

describe('runBlockedReason', () => {
  it('lets a run start only in the writing tab, with an active goal', () => {
    expect(runBlockedReason({ canWrite: true, hasLoadedGoals: true, hasActiveGoal: true })).toBeUndefined();
    expect(runBlockedReason({ canWrite: false, hasLoadedGoals: true, hasActiveGoal: true })).toContain('another tab');
    expect(runBlockedReason({ canWrite: true, hasLoadedGoals: true, hasActiveGoal: false })).toMatch(/^No goal is active/);
  });

  it('points to the Approvals screen when the only open goals wait for approval', () => {
    expect(runBlockedReason({ canWrite: true, hasLoadedGoals: true, hasActiveGoal: false, hasWaitingGoal: true })).toMatch(/^No goal is active: a goal waits for your approval.*Approvals screen/);
  });
});

describe('runningText', () => {
  it('counts the cycles done so far', () => {
    expect(runningText({ kind: 'some', cyclesRun: 3, maxCycles: 10, isPausing: false })).toBe('Running: 3 of 10 cycles done.');
    expect(runningText({ kind: 'until-done', cyclesRun: 1, maxCycles: 1000, isPausing: false })).toBe('Running until no goal is active: 1 cycle done.');
    expect(runningText({ kind: 'one', cyclesRun: 0, maxCycles: 1, isPausing: true })).toBe('Pausing after the current cycle: 0 of 1 cycle done.');
  });
});
