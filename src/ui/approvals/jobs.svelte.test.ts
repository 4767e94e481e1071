import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentApi, JobView } from '#core/api.ts';
import { BackgroundJobs, JOB_POLL_MS, jobNextText } from './jobs.svelte.ts';

function job(id: number, status: JobView['status'], more: Partial<JobView> = {}): JobView {
  return {
    id,
    goalId: 1,
    goal: 'Find canines',
    tool: 'memory_recall',
    kind: 'embed-episodes',
    what: 'embedding 37 more episode summaries',
    status,
    attempts: status === 'queued' ? 0 : 1,
    createdAt: 1,
    ...more,
  };
}

/** A fake agent whose job list is what the test sets, counting the reads. */
function fakeHost(lists: JobView[][]) {
  let reads = 0;
  const client = {
    jobList: async () => ({ jobs: lists[Math.min(reads++, lists.length - 1)]! }),
  } as unknown as AgentApi;
  return { host: { client, sessionId: 's' }, reads: () => reads };
}

afterEach(() => vi.useRealTimers());

describe('the background jobs list', () => {
  it('reads the list again while a job is not done, and stops once every job has ended', async () => {
    vi.useFakeTimers();
    const { host, reads } = fakeHost([
      [job(1, 'running')],
      [job(1, 'running')],
      [job(1, 'finished', { finishedAt: 2 })],
    ]);
    const jobs = new BackgroundJobs(host);
    await jobs.load();
    expect(jobs).toMatchObject({ status: 'ready', undoneCount: 1 });
    await vi.advanceTimersByTimeAsync(JOB_POLL_MS);
    expect(reads()).toBe(2);
    await vi.advanceTimersByTimeAsync(JOB_POLL_MS);
    expect(reads()).toBe(3);
    expect(jobs.jobs[0]).toMatchObject({ status: 'finished' });
    expect(jobs.undoneCount).toBe(0);
    await vi.advanceTimersByTimeAsync(JOB_POLL_MS * 5);
    expect(reads()).toBe(3);
  });

  it('stops reading when the screen is gone', async () => {
    vi.useFakeTimers();
    const { host, reads } = fakeHost([[job(1, 'queued')]]);
    const jobs = new BackgroundJobs(host);
    await jobs.load();
    jobs.stop();
    await vi.advanceTimersByTimeAsync(JOB_POLL_MS * 5);
    expect(reads()).toBe(1);
  });

  it('says why the list could not be read', async () => {
    const client = {
      jobList: async () => {
        throw new Error('the worker stopped');
      },
    } as unknown as AgentApi;
    const jobs = new BackgroundJobs({ client, sessionId: 's' });
    await jobs.load();
    expect(jobs).toMatchObject({ status: 'error', errorMessage: expect.stringContaining('the worker stopped') });
  });

  it("says what happens next for the job's goal", () => {
    expect(jobNextText(job(1, 'running'))).toBe('Its goal waits for it; a reload starts it again.');
    expect(jobNextText(job(1, 'finished'))).toBe("memory_recall takes up its result in the goal's next cycle.");
    expect(jobNextText(job(1, 'failed'))).toBe(
      "memory_recall is told why in the goal's next cycle, and the goal goes on.",
    );
    expect(jobNextText(job(1, 'taken'))).toBe('Its goal took up the result.');
  });
});
