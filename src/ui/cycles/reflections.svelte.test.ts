import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { AgentApi } from '#core/api.ts';
import type { AgentSettingsView, ReflectionView } from './reflection-messages.ts';
import { AgentReflections, type ReflectionsHost } from './reflections.svelte.ts';

function reflection(id: number, cycle: number, trigger: ReflectionView['trigger'] = 'interval'): ReflectionView {
  return {
    id,
    sessionId: 's',
    cycle,
    trigger,
    sinceCycle: 0,
    toolStats: [],
    goals: [],
    memoryPressure: 0,
    adjustments: [],
    psycheChanges: [],
    createdAt: 0,
  };
}

/**
 * A fake agent: it lists the reflections it holds newest first, reflects by adding one at its
 * current cycle, records its calls, and can refuse (read-only) or fail.
 */
function fakeHost() {
  const calls: string[] = [];
  const state = {
    reflections: [] as ReflectionView[],
    settings: { planning: true, reflectionInterval: 5, maxFailedPlans: 3 } as AgentSettingsView,
    cycle: 7,
    isReadOnly: false,
    failure: undefined as string | undefined,
  };
  const client = {
    reflectionList: async ({ limit }: { sessionId: string; limit?: number }) => {
      calls.push(`reflectionList ${limit}`);
      if (state.failure !== undefined) throw new Error(state.failure);
      return { reflections: state.reflections };
    },
    agentSettingsGet: async () => {
      calls.push('agentSettingsGet');
      return state.settings;
    },
    reflect: async () => {
      calls.push('reflect');
      if (state.failure !== undefined) throw new Error(state.failure);
      if (state.isReadOnly)
        return {
          ok: false as const,
          reason: 'read-only' as const,
          problems: [{ message: 'another tab holds the session' }],
        };
      const made = {
        ...reflection(state.reflections.length + 1, state.cycle, 'request'),
        adjustments: [{ kind: 'replan' as const, goalId: 1, reason: 'stuck' }],
      };
      state.reflections = [made, ...state.reflections];
      return { ok: true as const, reflection: made };
    },
  } satisfies Partial<AgentApi>;
  const host: ReflectionsHost = { client: client as unknown as AgentApi, sessionId: 's' };
  return { host, calls, state };
}

describe('AgentReflections', () => {
  it('lists the reflections newest first with the interval they run at', async () => {
    const { host, state } = fakeHost();
    state.reflections = [reflection(2, 10), reflection(1, 5)];
    const reflections = new AgentReflections(host);
    await reflections.load();
    flushSync();
    expect(reflections.status).toBe('ready');
    expect(reflections.reflections.map((entry) => entry.cycle)).toEqual([10, 5]);
    expect(reflections.settings?.reflectionInterval).toBe(5);
  });

  it('shows a reflection asked for at once, says what it did, and tells the views of plans to fetch again', async () => {
    const { host, state } = fakeHost();
    state.reflections = [reflection(1, 5)];
    const reflections = new AgentReflections(host);
    await reflections.load();
    const report = await reflections.reflect();
    flushSync();
    expect(report).toEqual({
      tone: 'notice',
      message: 'Reflected at cycle 7: 1 adjustment, psyche unchanged.',
      problems: [],
    });
    expect(reflections.reflections.map((entry) => [entry.cycle, entry.trigger])).toEqual([
      [7, 'request'],
      [5, 'interval'],
    ]);
    expect(reflections.revision).toBe(1);
    expect(reflections.isReflecting).toBe(false);
  });

  it('asks once while a reflection is under way', async () => {
    const { host, calls } = fakeHost();
    const reflections = new AgentReflections(host);
    const first = reflections.reflect();
    expect(reflections.isReflecting).toBe(true);
    expect(await reflections.reflect()).toBeUndefined();
    await first;
    expect(calls.filter((call) => call === 'reflect')).toHaveLength(1);
  });

  it('says why a read-only tab cannot reflect, and changes nothing', async () => {
    const { host, state } = fakeHost();
    state.isReadOnly = true;
    const reflections = new AgentReflections(host);
    const report = await reflections.reflect();
    expect(report?.tone).toBe('failure');
    expect(report?.message).toMatch(/open in another tab/);
    expect(reflections.reflections).toEqual([]);
    expect(reflections.revision).toBe(0);
  });

  it('says why the agent could not reflect or list its reflections, keeping those it has', async () => {
    const { host, state } = fakeHost();
    state.reflections = [reflection(1, 5)];
    const reflections = new AgentReflections(host);
    await reflections.load();
    state.failure = 'the database is closed';
    expect((await reflections.reflect())?.message).toBe('The agent could not reflect: the database is closed');
    await reflections.load();
    flushSync();
    expect(reflections.status).toBe('error');
    expect(reflections.errorMessage).toContain('the database is closed');
    expect(reflections.reflections).toHaveLength(1);
  });

  it('keeps settings saved elsewhere', async () => {
    const { host } = fakeHost();
    const reflections = new AgentReflections(host);
    await reflections.load();
    expect(reflections.settings?.planning).toBe(true);
    reflections.putSettings({
      planning: false,
      reflectionInterval: 9,
      maxFailedPlans: 4,
      memoryCapacity: 100,
      consolidationThreshold: 0.8,
    });
    expect(reflections.settings).toEqual({
      planning: false,
      reflectionInterval: 9,
      maxFailedPlans: 4,
      memoryCapacity: 100,
      consolidationThreshold: 0.8,
    });
  });
});
