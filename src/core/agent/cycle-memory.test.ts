import { describe, expect, it } from 'vitest';
import { AnimaDatabase } from '#core/store/database.ts';
import { freshIndexedDb } from '#core/testing/test-database.ts';
import { DEFAULT_AGENT_SETTINGS } from '#core/records/agent-settings.ts';
import type { MemoryEntry } from '#core/records/memory-entry.ts';
import type { CycleRecord } from '#core/records/cycle.ts';
import type { ToolOutcome } from '#core/tools/tool.ts';
import type { Decision } from './cycle.ts';
import { rememberCycle } from './cycle-memory.ts';

const sessionId = 's';

/** A decision on goal 1 by kg_query, consulting these entries and episodes (the rest of it is not read here). */
function decisionConsulting(entryIds: number[], episodeIds: number[]): Decision {
  return {
    goal: { id: 1 },
    tool: { name: 'kg_query' },
    state: { goalSymbols: [7] },
    consulted: { entryIds, episodeIds },
  } as unknown as Decision;
}

const record = { observe: 'looked', decide: 'kg_query', act: 'asked', outcome: 'advanced' } as CycleRecord;
const outcome = { ok: true, summary: '', facts: [], symbols: [] } as ToolOutcome;

function entryOf(cycle: number, content: string): MemoryEntry {
  return {
    sessionId,
    content,
    symbols: [7],
    kind: 'observation',
    timestamp: cycle,
    relevance: 0.3,
    sourceCycle: cycle,
    referenceCount: 0,
    goalId: 1,
  };
}

async function remember(
  db: AnimaDatabase,
  decision: Decision,
  memory: MemoryEntry[],
  settings = DEFAULT_AGENT_SETTINGS,
  endedGoals: Parameters<typeof rememberCycle>[6] = [],
) {
  const episodes = await db.episodes.toArray();
  await db.transaction('rw', [db.workingMemory, db.episodes, db.provenance], () =>
    rememberCycle(
      { db, sessionId, cycle: 5, startedAt: 5 },
      decision,
      record,
      outcome,
      { memory, episodes },
      settings,
      endedGoals,
    ),
  );
}

describe("a cycle's memory work", () => {
  it('counts a recall on each consulted episode once per use, and a use on each consulted entry', async () => {
    const db = new AnimaDatabase('memory', freshIndexedDb());
    const episode = { sessionId, summary: 'goal 1', learnings: [], tools: [], timestamp: 1, cycle: 1 };
    const [first, second, untouched] = (await db.episodes.bulkAdd([{ ...episode, recalls: 2 }, episode, episode], {
      allKeys: true,
    })) as number[];
    const stored = (await db.workingMemory.add(entryOf(4, 'held'))) as number;
    const memory = await db.workingMemory.toArray();
    await remember(db, decisionConsulting([stored], [first!, second!, first!]), memory);
    expect((await db.episodes.bulkGet([first!, second!, untouched!])).map((row) => row?.recalls)).toEqual([
      4,
      1,
      undefined,
    ]);
    expect((await db.workingMemory.get(stored))!.referenceCount).toBe(1);
    // The cycle's observation, decision and action join what was held.
    expect((await db.workingMemory.toArray()).map((entry) => entry.kind)).toEqual([
      'observation',
      'observation',
      'decision',
      'action',
    ]);
  });

  it('consolidates by itself past the pressure, counting the entries this cycle added', async () => {
    const db = new AnimaDatabase('memory', freshIndexedDb());
    const settings = { ...DEFAULT_AGENT_SETTINGS, memoryCapacity: 10, consolidationThreshold: 0.6 };
    // 5 held and the cycle's 3 make 8 of 10: past 80%, halfway between the threshold and full.
    await db.workingMemory.bulkAdd([1, 2, 3, 4, 4].map((cycle, index) => entryOf(cycle, `entry ${index}`)));
    await remember(db, decisionConsulting([], []), await db.workingMemory.toArray(), settings);
    const [made] = await db.episodes.toArray();
    expect(made!.summary).toMatch(/^goal 1, cycles 1-4/);
    const left = await db.workingMemory.toArray();
    expect(left.map((entry) => entry.sourceCycle)).toEqual([5, 5, 5]);
    expect((await db.provenance.where('kind').equals('consolidation').first())!.sources).toEqual(
      [1, 2, 3, 4, 5].map((id) => `memory:${id}`),
    );
  });

  it('evicts the entries holding memory least, consulted or not, before the rest are consolidated', async () => {
    const db = new AnimaDatabase('memory', freshIndexedDb());
    const settings = { ...DEFAULT_AGENT_SETTINGS, memoryCapacity: 3 };
    const [first, second, third] = (await db.workingMemory.bulkAdd(
      [1, 2, 4].map((cycle, index) => entryOf(cycle, `entry ${index}`)),
      { allKeys: true },
    )) as number[];
    // A use raises an entry's hold, but the oldest consulted one still holds less than the new entries.
    await remember(db, decisionConsulting([first!, third!], []), await db.workingMemory.toArray(), settings);
    const evictions = await db.provenance.where('kind').equals('eviction').toArray();
    expect(evictions.map((eviction) => eviction.sources)).toEqual([
      [`memory:${second}`, 'memory:new:observation', `memory:${first}`],
    ]);
    // Memory is full then: what is left of earlier cycles becomes an episode, the cycle's own entries stay.
    const consolidations = await db.provenance.where('kind').equals('consolidation').toArray();
    expect(consolidations.map((consolidation) => consolidation.sources)).toEqual([[`memory:${third}`]]);
    expect((await db.workingMemory.toArray()).map((entry) => [entry.kind, entry.sourceCycle])).toEqual([
      ['decision', 5],
      ['action', 5],
    ]);
  });

  it("makes a goal that ended in the cycle an episode of all its entries, this cycle's too, and keeps the others'", async () => {
    const db = new AnimaDatabase('memory', freshIndexedDb());
    const otherGoals = { ...entryOf(3, 'about goal 2'), goalId: 2 };
    await db.workingMemory.bulkAdd([entryOf(2, 'looked at goal 1'), otherGoals, entryOf(4, 'looked again')]);
    await remember(db, decisionConsulting([], []), await db.workingMemory.toArray(), DEFAULT_AGENT_SETTINGS, [
      { id: 1, status: 'completed' },
    ]);
    const episodes = await db.episodes.toArray();
    expect(episodes).toHaveLength(1);
    expect(episodes[0]).toMatchObject({ goalId: 1, cycle: 5 });
    // What the cycle did, the action that ended the goal, is what the episode is most about.
    expect(episodes[0]!.summary).toMatch(/^goal 1, cycles 2-5: tried kg_query on #7: 1 worked, 0 did not \| asked$/);
    expect(episodes[0]!.learnings).toEqual([7]);
    expect((await db.workingMemory.toArray()).map((entry) => entry.content)).toEqual(['about goal 2']);
    const [consolidation] = await db.provenance.where('kind').equals('consolidation').toArray();
    expect(consolidation!.detail).toMatch(/^goal 1 completed: 5 entries became episodes 1$/);
  });

  it("evicts nothing for the entries of a goal that ended: they go to its episode, and the others' stay", async () => {
    const db = new AnimaDatabase('memory', freshIndexedDb());
    const settings = { ...DEFAULT_AGENT_SETTINGS, memoryCapacity: 10, consolidationThreshold: 0.95 };
    const others = [0, 1, 2, 3, 4, 5, 6].map((index) => ({ ...entryOf(4, `goal 2 #${index}`), goalId: 2 }));
    await db.workingMemory.bulkAdd([...others, entryOf(3, 'goal 1 #0'), entryOf(4, 'goal 1 #1')]);
    // 9 of 10 held: the cycle's 3 entries would evict 2 of goal 2's, were they not its ended goal's.
    await remember(db, decisionConsulting([], []), await db.workingMemory.toArray(), settings, [
      { id: 1, status: 'completed' },
    ]);
    expect(await db.provenance.where('kind').equals('eviction').count()).toBe(0);
    expect((await db.workingMemory.toArray()).map((entry) => entry.content)).toEqual(
      others.map((entry) => entry.content),
    );
    const [consolidation] = await db.provenance.where('kind').equals('consolidation').toArray();
    expect(consolidation!.sources).toEqual([
      'memory:8',
      'memory:9',
      'memory:new:observation',
      'memory:new:decision',
      'memory:new:action',
    ]);
    expect(await db.episodes.toArray()).toMatchObject([
      { goalId: 1, summary: expect.stringMatching(/^goal 1, cycles 3-5/) },
    ]);
  });

  it('stays below the pressure without consolidating', async () => {
    const db = new AnimaDatabase('memory', freshIndexedDb());
    const settings = { ...DEFAULT_AGENT_SETTINGS, memoryCapacity: 10, consolidationThreshold: 0.6 };
    // 4 held and the cycle's 3 make 7 of 10: below 80%.
    await db.workingMemory.bulkAdd([1, 2, 3, 4].map((cycle, index) => entryOf(cycle, `entry ${index}`)));
    await remember(db, decisionConsulting([], []), await db.workingMemory.toArray(), settings);
    expect(await db.episodes.count()).toBe(0);
    expect(await db.workingMemory.count()).toBe(7);
  });
});
