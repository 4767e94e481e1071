import { describe, expect, it } from 'vitest';
import { isOpenGoal, isValidPriority } from './goal-messages.ts';

describe('isValidPriority', () => {
  it('accepts whole numbers from 0 to 255', () => {
    expect([0, 128, 255].every(isValidPriority)).toBe(true);
  });

  it('refuses numbers out of range, fractions and empty fields', () => {
    expect([-1, 256, 12.5, Number.NaN, null, undefined].some(isValidPriority)).toBe(false);
  });
});

describe('isOpenGoal', () => {
  it('lets active, suspended and waiting goals change status, not ended ones', () => {
    expect(isOpenGoal({ status: 'active' })).toBe(true);
    expect(isOpenGoal({ status: 'suspended' })).toBe(true);
    expect(isOpenGoal({ status: 'waiting' })).toBe(true);
    expect(isOpenGoal({ status: 'completed' })).toBe(false);
    expect(isOpenGoal({ status: 'failed' })).toBe(false);
  });
});
