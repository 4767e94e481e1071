import { describe, expect, it } from 'vitest';
import { describeInference } from './inference-messages.ts';

describe('describeInference', () => {
  it('says how many facts are new, how many were raised, and in how many rounds', () => {
    const report = describeInference({
      derived: 1234,
      raised: 5,
      iterations: 4,
      hasConverged: true,
      isTruncated: false,
    });
    expect(report).toEqual({ summary: 'Derived 1,234 new facts, 5 raised in confidence, in 4 rounds.', notes: [] });
  });

  it('uses the singular for one fact and one round', () => {
    expect(
      describeInference({ derived: 1, raised: 0, iterations: 1, hasConverged: true, isTruncated: false }).summary,
    ).toBe('Derived 1 new fact, 0 raised in confidence, in 1 round.');
  });

  it('says when the rules stopped before running out of facts to derive', () => {
    expect(
      describeInference({ derived: 10, raised: 0, iterations: 10, hasConverged: false, isTruncated: false }).notes,
    ).toEqual(['The rules were still finding facts after 10 rounds; run inference again to go further.']);
    expect(
      describeInference({ derived: 10, raised: 0, iterations: 3, hasConverged: false, isTruncated: true }).notes,
    ).toEqual(['The rules stopped at the limit on derived facts; run inference again to derive more.']);
  });
});
