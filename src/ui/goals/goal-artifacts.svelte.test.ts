import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { AgentApi, ArtifactView } from '#core/api.ts';
import { GoalArtifacts } from './goal-artifacts.svelte.ts';
import type { PerGoalListHost } from './per-goal-list.svelte.ts';

function note(goalId: number, cycle: number, size: number): ArtifactView {
  return {
    id: goalId,
    goalId,
    tool: 'file_io',
    cycle,
    name: `goal-${goalId}-notes.md`,
    kind: 'text',
    mediaType: 'text/markdown',
    size,
    createdAt: 0,
    updatedAt: cycle,
  };
}

/**
 * A fake agent listing the artifacts it is given, newest first, as the service does. It records
 * its calls, can fail, and can hold list answers back until released.
 */
function fakeHost(options: { isHoldingLists?: boolean } = {}) {
  const calls: string[] = [];
  const held: (() => void)[] = [];
  const state = { artifacts: [] as ArtifactView[], failure: undefined as string | undefined };
  const client = {
    artifactList: async ({ sessionId }: { sessionId: string }) => {
      calls.push(`artifactList ${sessionId}`);
      if (options.isHoldingLists) await new Promise<void>((resolve) => held.push(resolve));
      if (state.failure !== undefined) throw new Error(state.failure);
      return { artifacts: state.artifacts };
    },
  } satisfies Partial<AgentApi>;
  const host: PerGoalListHost = { client: client as unknown as AgentApi, sessionId: 's' };
  return { host, calls, held, state };
}

describe('GoalArtifacts', () => {
  it('finds each goal its artifacts, newest first, and none for a goal that has none', async () => {
    const { host, state } = fakeHost();
    const image: ArtifactView = { ...note(1, 6, 900), id: 7, name: 'chart.png', kind: 'image', mediaType: 'image/png' };
    state.artifacts = [image, note(3, 5, 200), note(1, 4, 500)];
    const artifacts = new GoalArtifacts(host);
    await artifacts.load();
    flushSync();
    expect(artifacts.status).toBe('ready');
    expect(artifacts.byGoal.get(1)?.map((artifact) => artifact.name)).toEqual(['chart.png', 'goal-1-notes.md']);
    expect(artifacts.byGoal.get(3)?.[0]?.name).toBe('goal-3-notes.md');
    expect(artifacts.byGoal.get(2)).toBeUndefined();
  });

  it('shows a note as rewritten after the next fetch', async () => {
    const { host, state } = fakeHost();
    state.artifacts = [note(1, 2, 100)];
    const artifacts = new GoalArtifacts(host);
    await artifacts.load();
    state.artifacts = [note(1, 3, 400)];
    await artifacts.load();
    flushSync();
    expect(artifacts.byGoal.get(1)).toEqual([expect.objectContaining({ cycle: 3, size: 400 })]);
  });

  it('fetches once for a burst of cycles: one in flight, and one more after it', async () => {
    const { host, calls, held } = fakeHost({ isHoldingLists: true });
    const artifacts = new GoalArtifacts(host);
    const loads = [artifacts.load(), artifacts.load(), artifacts.load()];
    expect(calls).toEqual(['artifactList s']);
    held.shift()?.();
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls).toEqual(['artifactList s', 'artifactList s']);
    held.shift()?.();
    await Promise.all(loads);
    expect(artifacts.status).toBe('ready');
  });

  it('says why the artifacts could not be fetched, and keeps those it has', async () => {
    const { host, state } = fakeHost();
    state.artifacts = [note(1, 2, 100)];
    const artifacts = new GoalArtifacts(host);
    await artifacts.load();
    state.failure = 'the database is closed';
    await artifacts.load();
    flushSync();
    expect(artifacts.status).toBe('error');
    expect(artifacts.errorMessage).toContain('the database is closed');
    expect(artifacts.byGoal.get(1)?.[0]?.cycle).toBe(2);
  });
});
