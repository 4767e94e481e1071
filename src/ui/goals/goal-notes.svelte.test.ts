import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { AgentApi, ScratchNoteView } from '#core/api.ts';
import { GoalNotes } from './goal-notes.svelte.ts';
import type { PerGoalListHost } from './per-goal-list.svelte.ts';

function note(goalId: number, cycle: number, findingsNoted: number): ScratchNoteView {
  const name = `goal-${goalId}-notes.md`;
  return {
    id: goalId,
    goalId,
    name,
    mediaType: 'text/markdown',
    text: `# Notes\n\n${findingsNoted} findings\n`,
    findingsNoted,
    cycle,
    createdAt: 0,
    updatedAt: cycle,
  };
}

/**
 * A fake agent listing the notes it is given, newest first, as the service does. It records its
 * calls, can fail, and can hold list answers back until released.
 */
function fakeHost(options: { isHoldingLists?: boolean } = {}) {
  const calls: string[] = [];
  const held: (() => void)[] = [];
  const state = { notes: [] as ScratchNoteView[], failure: undefined as string | undefined };
  const client = {
    noteList: async ({ sessionId }: { sessionId: string }) => {
      calls.push(`noteList ${sessionId}`);
      if (options.isHoldingLists) await new Promise<void>((resolve) => held.push(resolve));
      if (state.failure !== undefined) throw new Error(state.failure);
      return { notes: state.notes };
    },
  } satisfies Partial<AgentApi>;
  const host: PerGoalListHost = { client: client as unknown as AgentApi, sessionId: 's' };
  return { host, calls, held, state };
}

describe('GoalNotes', () => {
  it('finds each goal its note, and none for a goal that asked for none', async () => {
    const { host, state } = fakeHost();
    state.notes = [note(3, 5, 2), note(1, 4, 5)];
    const notes = new GoalNotes(host);
    await notes.load();
    flushSync();
    expect(notes.status).toBe('ready');
    expect(notes.byGoal.get(1)?.findingsNoted).toBe(5);
    expect(notes.byGoal.get(3)?.name).toBe('goal-3-notes.md');
    expect(notes.byGoal.get(2)).toBeUndefined();
  });

  it('shows a note as rewritten after the next fetch', async () => {
    const { host, state } = fakeHost();
    state.notes = [note(1, 2, 1)];
    const notes = new GoalNotes(host);
    await notes.load();
    state.notes = [note(1, 3, 4)];
    await notes.load();
    flushSync();
    expect(notes.byGoal.get(1)).toMatchObject({ cycle: 3, findingsNoted: 4 });
  });

  it('fetches once for a burst of cycles: one in flight, and one more after it', async () => {
    const { host, calls, held } = fakeHost({ isHoldingLists: true });
    const notes = new GoalNotes(host);
    const loads = [notes.load(), notes.load(), notes.load()];
    expect(calls).toEqual(['noteList s']);
    held.shift()?.();
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual(['noteList s', 'noteList s']);
    held.shift()?.();
    await Promise.all(loads);
    expect(notes.status).toBe('ready');
  });

  it('says why the notes could not be fetched, and keeps those it has', async () => {
    const { host, state } = fakeHost();
    state.notes = [note(1, 2, 1)];
    const notes = new GoalNotes(host);
    await notes.load();
    state.failure = 'the database is closed';
    await notes.load();
    flushSync();
    expect(notes.status).toBe('error');
    expect(notes.errorMessage).toContain('the database is closed');
    expect(notes.byGoal.get(1)?.cycle).toBe(2);
  });
});
