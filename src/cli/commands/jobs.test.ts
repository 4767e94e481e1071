import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSnapshotAt, writeSnapshotFile } from '../snapshot-file.ts';
import { anima } from '../testing/run-anima.ts';

describe('anima jobs', () => {
  it('lists the background jobs a snapshot keeps, newest first: state, goal, what, times, and why one failed', async () => {
    const snapshot = join(await mkdtemp(join(tmpdir(), 'anima-jobs-')), 'session.json');
    await anima(
      'run',
      '--goal',
      'Find canines',
      '--criteria',
      '?x is-a canine',
      '--max-cycles',
      '1',
      '--snapshot',
      snapshot,
    );
    expect(await anima('jobs', '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: '',
      error: 'anima: no background job was deferred in this session\n',
    });
    // Two jobs memory_recall deferred, as a session that ran them keeps them: one taken, one failed.
    const { snapshot: stored } = await readSnapshotAt(snapshot);
    const job = {
      goalId: stored.goals[0]!.id,
      tool: 'memory_recall',
      input: {},
      kind: 'embed-episodes',
      work: {},
      createdAt: Date.UTC(2026, 10, 26, 9, 0),
    };
    stored.jobs = [
      {
        ...job,
        id: 1,
        cycle: 2,
        what: 'embedding 40 more episode summaries',
        status: 'taken',
        attempts: 1,
        startedAt: Date.UTC(2026, 10, 26, 9, 1),
        finishedAt: Date.UTC(2026, 10, 26, 9, 2),
        takenInCycle: 3,
      },
      {
        ...job,
        id: 2,
        cycle: 5,
        what: 'embedding 12 more episode summaries',
        status: 'failed',
        attempts: 2,
        error: 'the embeddings endpoint answered HTTP 401: bad key Bearer [redacted]',
        startedAt: Date.UTC(2026, 10, 26, 9, 10),
        finishedAt: Date.UTC(2026, 10, 26, 9, 11),
      },
    ];
    await writeSnapshotFile(stored, snapshot, []);

    expect((await anima('jobs', '--snapshot', snapshot)).out).toBe(
      '#2\tfailed\tgoal 1 "Find canines"\tmemory_recall: embedding 12 more episode summaries (embed-episodes)\tdeferred 2026-11-26T09:00:00.000Z, started 2026-11-26T09:10:00.000Z (attempt 2), ended 2026-11-26T09:11:00.000Z\n' +
        '\tfailed: the embeddings endpoint answered HTTP 401: bad key Bearer [redacted]\n' +
        '#1\ttaken\tgoal 1 "Find canines"\tmemory_recall: embedding 40 more episode summaries (embed-episodes)\tdeferred 2026-11-26T09:00:00.000Z, started 2026-11-26T09:01:00.000Z (attempt 1), ended 2026-11-26T09:02:00.000Z\n',
    );
    const listed = JSON.parse((await anima('jobs', '--json', '--snapshot', snapshot)).out) as unknown[];
    expect(listed).toEqual([
      expect.objectContaining({
        id: 2,
        goal: 'Find canines',
        status: 'failed',
        attempts: 2,
        error: expect.any(String),
      }),
      expect.objectContaining({ id: 1, goal: 'Find canines', status: 'taken', kind: 'embed-episodes' }),
    ]);
  });
});
