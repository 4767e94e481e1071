import { describe, expect, it } from 'vitest';
import { describeProblems, describeSave, emptyFieldProblems, formOf, rangeHint } from './agent-settings-form.ts';

describe('the agent settings form', () => {
  it('holds the saved settings', () => {
    expect(
      formOf({
        planning: false,
        reflectionInterval: 7,
        maxFailedPlans: 2,
        memoryCapacity: 50,
        consolidationThreshold: 0.7,
      }),
    ).toEqual({
      planning: false,
      reflectionInterval: 7,
      maxFailedPlans: 2,
      memoryCapacity: 50,
      consolidationThreshold: 0.7,
    });
  });

  it('finds an emptied number field before asking the agent', () => {
    expect(
      emptyFieldProblems({
        planning: true,
        reflectionInterval: null,
        maxFailedPlans: 3,
        memoryCapacity: 100,
        consolidationThreshold: 0.8,
      }),
    ).toEqual([{ path: 'reflectionInterval', message: 'Enter a whole number from 1 to 1,000.' }]);
    expect(
      emptyFieldProblems({
        planning: true,
        reflectionInterval: 5,
        maxFailedPlans: Number.NaN,
        memoryCapacity: 100,
        consolidationThreshold: 0.8,
      }),
    ).toEqual([{ path: 'maxFailedPlans', message: rangeHint('maxFailedPlans') }]);
    expect(
      emptyFieldProblems({
        planning: true,
        reflectionInterval: 5,
        maxFailedPlans: 3,
        memoryCapacity: 100,
        consolidationThreshold: 0.8,
      }),
    ).toEqual([]);
    expect(
      emptyFieldProblems({
        planning: true,
        reflectionInterval: 5,
        maxFailedPlans: 3,
        memoryCapacity: 100,
        consolidationThreshold: null,
      }),
    ).toEqual([{ path: 'consolidationThreshold', message: 'Enter a number from 0.5 to 0.95.' }]);
  });

  it('puts each refused value next to its field, and names the field in the list', () => {
    const report = describeSave({
      ok: false,
      problems: [
        { path: 'reflectionInterval', message: 'Too small: expected number to be >=1' },
        { message: 'Anima is open in another tab' },
      ],
    });
    expect(report).toEqual({
      tone: 'failure',
      message: 'The agent settings were not changed:',
      problems: ['Reflection interval (cycles): Too small: expected number to be >=1', 'Anima is open in another tab'],
      byField: { reflectionInterval: ['Too small: expected number to be >=1'] },
    });
    expect(describeProblems([{ path: 'maxFailedPlans', message: 'Too big' }]).problems).toEqual([
      'Failed plans before a goal is abandoned: Too big',
    ]);
  });

  it('says what was saved', () => {
    expect(
      describeSave({
        ok: true,
        settings: {
          planning: true,
          reflectionInterval: 5,
          maxFailedPlans: 3,
          memoryCapacity: 100,
          consolidationThreshold: 0.8,
        },
      }),
    ).toEqual({
      tone: 'success',
      message:
        'Saved: planning on, a reflection every 5 cycles, a goal is abandoned after 3 failed plans, working memory holds 100 entries and is consolidated above 80%.',
    });
    expect(
      describeSave({
        ok: true,
        settings: {
          planning: false,
          reflectionInterval: 1,
          maxFailedPlans: 1,
          memoryCapacity: 2000,
          consolidationThreshold: 0.65,
        },
      }).message,
    ).toBe(
      'Saved: planning off, a reflection every cycle, a goal is abandoned after 1 failed plan, working memory holds 2,000 entries and is consolidated above 65%.',
    );
  });
});
