import { describe, expect, it } from 'vitest';
import { noteSummary, notesByGoal } from './note-messages.ts';

describe('noteSummary', () => {
  it('says the cycle that wrote the note and how many findings it holds', () => {
    expect(noteSummary({ cycle: 4, findingsNoted: 5 })).toBe('Written at cycle 4, 5 findings');
    expect(noteSummary({ cycle: 1, findingsNoted: 1 })).toBe('Written at cycle 1, 1 finding');
    expect(noteSummary({ cycle: 0, findingsNoted: 0 })).toBe('Written at cycle 0, 0 findings');
  });
});

describe('notesByGoal', () => {
  it('finds each goal its note, the newest when a goal has two', () => {
    const byGoal = notesByGoal([
      { goalId: 2, name: 'newest' },
      { goalId: 1, name: 'only' },
      { goalId: 2, name: 'older' },
    ]);
    expect(byGoal.get(1)?.name).toBe('only');
    expect(byGoal.get(2)?.name).toBe('newest');
    expect(byGoal.has(3)).toBe(false);
  });
});
