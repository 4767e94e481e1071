import { describe, expect, it } from 'vitest';
import {
  type ReflectionView,
  adjustmentText,
  cyclesLookedAtText,
  describeReflect,
  goalLookText,
  memoryPressureText,
  noReflectionsText,
  psycheStateText,
  reflectionSummary,
  successRateText,
  toolStatText,
  triggerText,
} from './reflection-messages.ts';

function reflection(overrides: Partial<ReflectionView> = {}): ReflectionView {
  return {
    id: 1,
    sessionId: 's',
    cycle: 12,
    trigger: 'interval',
    sinceCycle: 10,
    toolStats: [],
    goals: [],
    memoryPressure: 0.21,
    adjustments: [],
    psycheChanges: [],
    createdAt: 0,
    ...overrides,
  };
}

describe('a reflection in words', () => {
  it('says why it ran: asked for, or every N cycles when the interval fits its cycle', () => {
    expect(triggerText({ trigger: 'request', cycle: 7 }, 5)).toBe('Asked for');
    expect(triggerText({ trigger: 'interval', cycle: 10 }, 5)).toBe('Every 5 cycles');
    expect(triggerText({ trigger: 'interval', cycle: 4 }, 1)).toBe('Every cycle');
    // Run under an interval changed since: the current one would be wrong.
    expect(triggerText({ trigger: 'interval', cycle: 12 }, 5)).toBe('On schedule');
    expect(triggerText({ trigger: 'interval', cycle: 12 }, undefined)).toBe('On schedule');
  });

  it('names the cycles it looked back at', () => {
    expect(cyclesLookedAtText({ sinceCycle: 5, cycle: 10 })).toBe('Cycles 6 to 10');
    expect(cyclesLookedAtText({ sinceCycle: 9, cycle: 10 })).toBe('Cycle 10');
    expect(cyclesLookedAtText({ sinceCycle: 10, cycle: 10 })).toBe('No cycles since the last reflection');
  });

  it("gives each tool's success rate as a percentage", () => {
    expect(successRateText({ uses: 3, successes: 2 })).toBe('67%');
    expect(successRateText({ uses: 1, successes: 0 })).toBe('0%');
    expect(successRateText({ uses: 0, successes: 0 })).toBe('–');
    expect(toolStatText({ uses: 2, successes: 1 })).toBe('2 uses, 1 success (50%)');
    expect(toolStatText({ uses: 1, successes: 0 })).toBe('1 use, 0 successes (0%)');
    expect(memoryPressureText(0.214)).toBe('21%');
  });

  it('says how each goal fared: advanced, or stagnant for so many cycles', () => {
    expect(
      goalLookText({
        goalId: 1,
        description: 'Find mammals',
        cyclesSinceLastReflection: 5,
        progressed: true,
        stagnantFor: 3,
      }),
    ).toBe('advanced in 5 cycles worked');
    expect(
      goalLookText({
        goalId: 1,
        description: 'Find mammals',
        cyclesSinceLastReflection: 1,
        progressed: false,
        stagnantFor: 6,
      }),
    ).toBe('no progress in 1 cycle worked; stagnant for 6 cycles');
  });

  it('tells each adjustment with the goal it changed, the priority before and after, and why', () => {
    const descriptionOf = (goalId: number) => (goalId === 1 ? 'Find mammals' : undefined);
    expect(
      adjustmentText(
        {
          kind: 'boost',
          goalId: 1,
          from: 200,
          to: 220,
          reason: 'it advanced in 3 cycles since the last reflection: keep its momentum',
        },
        descriptionOf,
      ),
    ).toBe(
      'Boosted goal 1 “Find mammals”: priority 200 → 220 — it advanced in 3 cycles since the last reflection: keep its momentum',
    );
    expect(adjustmentText({ kind: 'demote', goalId: 2, from: 100, to: 70, reason: 'no progress' }, descriptionOf)).toBe(
      'Demoted goal 2: priority 100 → 70 — no progress',
    );
    expect(adjustmentText({ kind: 'replan', goalId: 1, reason: 'its plan is not working' }, descriptionOf)).toBe(
      'Re-planned goal 1 “Find mammals” — its plan is not working',
    );
    expect(adjustmentText({ kind: 'suggest-decomposition', goalId: 1, reason: 'split it' })).toBe(
      'Suggests splitting goal 1 — split it',
    );
    expect(adjustmentText({ kind: 'consolidate', reason: 'working memory is 75% full' })).toBe(
      'Consolidated working memory — working memory is 75% full',
    );
  });

  it('says whether the psyche changed, and to which version', () => {
    expect(psycheStateText(reflection())).toBe('unchanged');
    expect(psycheStateText(reflection({ psycheChanges: ['sage 0.70 -> 0.72'], psycheVersion: 3 }))).toBe(
      'changed (version 3)',
    );
    expect(reflectionSummary(reflection({ adjustments: [{ kind: 'replan', goalId: 1, reason: 'r' }] }))).toBe(
      '1 adjustment, psyche unchanged',
    );
    expect(reflectionSummary(reflection({ psycheChanges: ['x'], psycheVersion: 2 }))).toBe(
      'nothing to adjust, psyche changed (version 2)',
    );
  });
});

describe('describeReflect', () => {
  it('says at which cycle the agent reflected and what it did', () => {
    const adjustments: ReflectionView['adjustments'] = [
      { kind: 'demote', goalId: 1, from: 148, to: 118, reason: 'r' },
      { kind: 'replan', goalId: 1, reason: 'r' },
    ];
    expect(describeReflect({ ok: true, reflection: reflection({ adjustments }) })).toEqual({
      tone: 'notice',
      message: 'Reflected at cycle 12: 2 adjustments, psyche unchanged.',
      problems: [],
    });
  });

  it('says why a read-only tab cannot reflect', () => {
    const report = describeReflect({
      ok: false,
      reason: 'read-only',
      problems: [{ message: 'another tab holds the session' }],
    });
    expect(report.tone).toBe('failure');
    expect(report.message).toMatch(/open in another tab/);
    expect(report.problems).toEqual(['another tab holds the session']);
  });
});

describe('noReflectionsText', () => {
  it('says how often the agent reflects', () => {
    expect(noReflectionsText(5)).toBe('No reflections yet: the agent reflects every 5 cycles, or press Reflect.');
    expect(noReflectionsText(1)).toBe('No reflections yet: the agent reflects every cycle, or press Reflect.');
    expect(noReflectionsText(undefined)).toBe(
      'No reflections yet: the agent reflects every few cycles, or press Reflect.',
    );
  });
});
