import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { AgentApi } from '#core/api.ts';
import { MemoryView, type MemoryEntryView, type MemoryHost, type MemorySnapshot } from './memory-view.svelte.ts';

type Deferred = { resolve: () => void };

function entry(id: number, relevance = 0.8): MemoryEntryView {
  return { id, kind: 'action', content: `entry ${id}`, symbols: [], relevance, sourceCycle: id, tool: 'kg_query' };
}

/**
 * A fake agent with a working memory of scripted entries: consolidation turns the entries of
 * relevance 0.6 or more into one episode, as the service does. It records the calls it gets,
 * and can hold list answers back until released.
 */
function fakeHost(options: {
  entries: MemoryEntryView[];
  canWrite?: boolean;
  isHoldingLists?: boolean;
  readOnlyConsolidation?: boolean;
}) {
  const calls: string[] = [];
  const held: Deferred[] = [];
  let entries = options.entries;
  let episodes: MemorySnapshot['episodes'] = [];
  const client = {
    memoryList: async () => {
      calls.push('memoryList');
      if (options.isHoldingLists) await new Promise<void>((resolve) => held.push({ resolve }));
      return { capacity: 100, pressure: entries.length / 100, entries, episodes, episodeTotal: episodes.length };
    },
    memoryConsolidate: async () => {
      calls.push('memoryConsolidate');
      if (options.readOnlyConsolidation)
        return { ok: false as const, reason: 'read-only' as const, problems: [{ message: 'open in another tab' }] };
      const worth = entries.filter((known) => known.relevance >= 0.6);
      entries = entries.filter((known) => known.relevance < 0.6);
      if (worth.length > 0)
        episodes = [
          {
            id: episodes.length + 1,
            goalId: 1,
            summary: worth.map((known) => known.content).join(' | '),
            learnings: [],
            tools: ['kg_query'],
            cycle: 2,
          },
          ...episodes,
        ];
      return { ok: true as const, episodesAdded: worth.length > 0 ? 1 : 0, entriesLeft: entries.length };
    },
    memoryRecall: async ({ text }: { text?: string }) => {
      calls.push(`memoryRecall ${text}`);
      return {
        episodes: episodes
          .filter((episode) => episode.summary.includes(text ?? ''))
          .map((episode) => ({ ...episode, score: 0.5 })),
      };
    },
  } satisfies Partial<AgentApi>;
  const host: MemoryHost = {
    client: client as unknown as AgentApi,
    sessionId: 's',
    canWrite: options.canWrite ?? true,
  };
  return { host, calls, held };
}

describe('MemoryView', () => {
  it('lists working memory, consolidates it into an episode, reports what it did and lists again', async () => {
    const { host, calls } = fakeHost({ entries: [entry(3, 0.3), entry(2), entry(1)] });
    const memory = new MemoryView(host);
    await memory.load();
    flushSync();
    expect(memory.status).toBe('ready');
    expect(memory.entryCount).toBe(3);
    expect(memory.consolidateBlockedReason).toBeUndefined();

    await memory.consolidate();
    flushSync();
    expect(memory.consolidation).toEqual({
      status: 'ended',
      message: '1 episode added; 1 entry left in working memory.',
    });
    expect(memory.snapshot?.episodes).toHaveLength(1);
    expect(memory.entryCount).toBe(1);
    expect(calls).toEqual(['memoryList', 'memoryConsolidate', 'memoryList']);
  });

  it('does not consolidate in a read-only tab, nor an empty working memory, and says why', async () => {
    const readOnly = fakeHost({ entries: [entry(1)], canWrite: false });
    const readOnlyView = new MemoryView(readOnly.host);
    await readOnlyView.load();
    expect(readOnlyView.consolidateBlockedReason).toMatch(/open in another tab/);
    await readOnlyView.consolidate();
    expect(readOnly.calls).toEqual(['memoryList']);

    const empty = fakeHost({ entries: [] });
    const emptyView = new MemoryView(empty.host);
    await emptyView.load();
    expect(emptyView.consolidateBlockedReason).toMatch(/empty/);
  });

  it('shows the problems when the agent refuses to consolidate', async () => {
    const { host } = fakeHost({ entries: [entry(1)], readOnlyConsolidation: true });
    const memory = new MemoryView(host);
    await memory.load();
    await memory.consolidate();
    expect(memory.consolidation).toEqual({
      status: 'failed',
      message: 'Working memory was not consolidated:',
      problems: ['open in another tab'],
    });
  });

  it('fetches once more after the fetch in flight when asked again, however often', async () => {
    const { host, calls, held } = fakeHost({ entries: [entry(1)], isHoldingLists: true });
    const memory = new MemoryView(host);
    const first = memory.load();
    const second = memory.load();
    const third = memory.load();
    expect(second).toBe(third);
    await Promise.resolve();
    expect(calls).toEqual(['memoryList']);

    held.shift()?.resolve();
    await first;
    await Promise.resolve();
    expect(calls).toEqual(['memoryList', 'memoryList']);
    held.shift()?.resolve();
    await second;
    expect(calls).toEqual(['memoryList', 'memoryList']);
    expect(memory.status).toBe('ready');
  });

  it('recalls episodes by text, and finds none for a text no episode holds', async () => {
    const { host, calls } = fakeHost({ entries: [entry(1)] });
    const memory = new MemoryView(host);
    await memory.load();
    await memory.consolidate();

    await memory.recallText('  entry 1 ');
    expect(memory.recall.status === 'ended' && memory.recall.episodes.map((episode) => episode.summary)).toEqual([
      'entry 1',
    ]);
    await memory.recallText('Venus');
    expect(memory.recall).toEqual({ status: 'ended', text: 'Venus', episodes: [] });
    await memory.recallText('   ');
    expect(calls.filter((call) => call.startsWith('memoryRecall'))).toEqual([
      'memoryRecall entry 1',
      'memoryRecall Venus',
    ]);
  });

  it('reports a list that cannot be fetched', async () => {
    const host: MemoryHost = {
      client: { memoryList: async () => Promise.reject(new Error('no database')) } as unknown as AgentApi,
      sessionId: 's',
      canWrite: true,
    };
    const memory = new MemoryView(host);
    await memory.load();
    expect(memory.status).toBe('error');
    expect(memory.errorMessage).toBe('no database');
  });
});
