import { describe, expect, it } from 'vitest';
import type { Episode } from '#core/records/episode.ts';
import type { Goal } from '#core/records/goal.ts';
import { freshIndexedDb } from '#core/testing/test-database.ts';
import { AnimaDatabase } from './database.ts';
import type { MirroredRead } from './row-mirror.ts';

const goal = (sessionId: string, status: Goal['status'], findings: Goal['findings'] = []): Goal => ({
  sessionId,
  description: `a goal of ${sessionId}`,
  successCriteria: 'mammal',
  priority: 5,
  status,
  cyclesWorked: 0,
  lastProgressCycle: 0,
  stallThreshold: 5,
  findings,
  toolsUsed: [],
  createdAt: 1,
});

const episode = (sessionId: string, cycle: number): Episode => ({
  sessionId,
  summary: `cycle ${cycle}`,
  learnings: [cycle],
  tools: [],
  timestamp: cycle,
  cycle,
});

/** Reads a mirrored read through the mirror, counting the loads that reached the database. */
function mirrored(db: AnimaDatabase) {
  let loads = 0;
  const counted = <Row>(read: MirroredRead<Row>): MirroredRead<Row> => ({
    ...read,
    load: () => {
      loads++;
      return read.load();
    },
  });
  const openGoals: MirroredRead<Goal> = counted({
    key: 'open-goals:s1',
    table: 'goals',
    matches: (row) => row.sessionId === 's1' && row.status === 'active',
    order: (a, b) => a.id! - b.id!,
    load: () => db.goals.where('[sessionId+status]').equals(['s1', 'active']).toArray(),
  });
  const newestEpisodes: MirroredRead<Episode> = counted({
    key: 'newest-episodes:s1',
    table: 'episodes',
    matches: (row) => row.sessionId === 's1',
    newest: { count: 3, rank: (row) => row.id! },
    order: (a, b) => a.id! - b.id!,
    load: async () => (await db.episodes.where('sessionId').equals('s1').reverse().limit(3).toArray()).reverse(),
  });
  const read = () =>
    db.mirror.readAll<[Goal, Episode]>([openGoals, newestEpisodes], (load) =>
      db.transaction('r', [db.goals, db.episodes], load),
    );
  /** What the database holds for the same reads, past the mirror. */
  const truth = async () => {
    const counted = loads;
    const rows = await db.transaction('r', [db.goals, db.episodes], () =>
      Promise.all([openGoals.load(), newestEpisodes.load()]),
    );
    loads = counted;
    return rows;
  };
  return { read, truth, loads: () => loads };
}

describe('the row mirror', () => {
  it('answers a read again from memory, and follows every kind of write as the database does', async () => {
    const db = new AnimaDatabase('mirror', freshIndexedDb());
    const { read, truth, loads } = mirrored(db);
    const [first] = await db.goals.bulkAdd([goal('s1', 'active'), goal('s1', 'waiting'), goal('s2', 'active')], {
      allKeys: true,
    });
    await db.episodes.bulkAdd([episode('s1', 1), episode('s1', 2), episode('s2', 3)]);
    await read();
    const before = loads();
    const writes: (() => Promise<unknown>)[] = [
      () => db.goals.add(goal('s1', 'active', [[1, 2, 3]])),
      () => db.goals.update(first!, { status: 'completed' }),
      () => db.goals.where('sessionId').equals('s1').modify({ status: 'active' }),
      () => db.goals.put({ ...goal('s1', 'active'), id: 99 }),
      () => db.goals.delete(99),
      () => db.episodes.bulkAdd([episode('s1', 4), episode('s1', 5), episode('s1', 6)]),
      () => db.episodes.put({ ...episode('s1', 4), summary: 'recalled', id: 4 }),
      () => db.episodes.add(episode('s2', 7)),
    ];
    for (const write of writes) {
      await write();
      expect(await read()).toEqual(await truth());
    }
    // Every read after a write was answered from memory.
    expect(loads()).toBe(before);
  });

  it('reads the database again after a delete it cannot follow, and after a cleared table', async () => {
    const db = new AnimaDatabase('mirror', freshIndexedDb());
    const { read, truth } = mirrored(db);
    const ids = (await db.episodes.bulkAdd(
      [1, 2, 3, 4, 5].map((cycle) => episode('s1', cycle)),
      { allKeys: true },
    )) as number[];
    await db.goals.add(goal('s1', 'active'));
    await read();
    // The newest three lose one: the fourth newest takes its place, which only the database knows.
    await db.episodes.delete(ids[4]!);
    expect(await read()).toEqual(await truth());
    expect((await read())[1].map((row) => row.cycle)).toEqual([2, 3, 4]);
    await db.goals.clear();
    expect(await read()).toEqual(await truth());
    expect((await read())[0]).toEqual([]);
  });

  it('keeps what an aborted transaction wrote out of its rows', async () => {
    const db = new AnimaDatabase('mirror', freshIndexedDb());
    const { read, truth } = mirrored(db);
    await db.goals.add(goal('s1', 'active'));
    await read();
    await expect(
      db.transaction('rw', db.goals, async () => {
        await db.goals.add(goal('s1', 'active'));
        throw new Error('stopped');
      }),
    ).rejects.toThrow('stopped');
    expect(await read()).toEqual(await truth());
    expect((await read())[0]).toHaveLength(1);
  });

  it('hands out rows a reader cannot change, and keeps its rows from the writer changing its objects later', async () => {
    const db = new AnimaDatabase('mirror', freshIndexedDb());
    const { read } = mirrored(db);
    await db.episodes.add(episode('s1', 1));
    await read();
    const written = episode('s1', 2);
    await db.episodes.add(written);
    written.summary = 'changed after it was written';
    const [, episodes] = await read();
    expect(episodes.map((row) => row.summary)).toEqual(['cycle 1', 'cycle 2']);
    expect(() => {
      (episodes[0] as { summary: string }).summary = 'changed by a reader';
    }).toThrow(TypeError);
  });

  it('gives a goal back with its findings as written, though it keeps them packed', async () => {
    const db = new AnimaDatabase('mirror', freshIndexedDb());
    const { read, loads } = mirrored(db);
    const findings = Array.from({ length: 50 }, (_, index): [number, number, number] => [index, 1, index + 2]);
    await db.goals.add(goal('s1', 'active', findings));
    // Kept from the database's answer, then from a write.
    await read();
    await db.goals.add(goal('s1', 'active', findings.slice(0, 3)));
    const [goals] = await read();
    expect(loads()).toBe(2);
    expect(goals.map((row) => row.findings)).toEqual([findings, findings.slice(0, 3)]);
  });
});
