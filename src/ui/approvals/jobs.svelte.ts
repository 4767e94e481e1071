import type { AgentApi, JobView } from '#core/api.ts';
import { messageOf } from '../common/error-message.ts';
import type { BadgeTone } from '../goals/badge-tone.ts';

/** What the jobs list needs of the app's agent state. */
export type JobsHost = { readonly client: AgentApi; readonly sessionId: string };

/** Where the list stands. */
export type JobsLoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** How often the list is read again while a job is not done: jobs end apart from the cycles. */
export const JOB_POLL_MS = 1500;

/** A job's state in words, for its badge. */
export const JOB_STATUS_LABELS = {
  queued: 'Waiting to start',
  running: 'Running',
  finished: 'Finished',
  failed: 'Failed',
  taken: 'Taken up',
} as const satisfies Record<JobView['status'], string>;

export const JOB_STATUS_TONES = {
  queued: 'accent',
  running: 'accent',
  finished: 'success',
  failed: 'danger',
  taken: 'neutral',
} as const satisfies Record<JobView['status'], BadgeTone>;

/** What happens next for a job's goal, in words. */
export function jobNextText(job: Pick<JobView, 'status' | 'tool'>): string {
  switch (job.status) {
    case 'queued':
    case 'running':
      return 'Its goal waits for it; a reload starts it again.';
    case 'finished':
      return `${job.tool} takes up its result in the goal's next cycle.`;
    case 'failed':
      return `${job.tool} is told why in the goal's next cycle, and the goal goes on.`;
    case 'taken':
      return 'Its goal took up the result.';
  }
}

const isUndone = (job: JobView) => job.status === 'queued' || job.status === 'running';

/**
 * The background work tools deferred for the session's goals, newest first: read when shown, after
 * each cycle, and every {@link JOB_POLL_MS} while one is not done (a job ends between cycles).
 */
export class BackgroundJobs {
  readonly #host: JobsHost;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #isStopped = false;
  /** Orders answers: one that started before an answer already applied is dropped. */
  #ticket = 0;
  #appliedTicket = 0;

  jobs = $state<JobView[]>([]);
  status = $state<JobsLoadStatus>('idle');
  errorMessage = $state<string | undefined>();
  readonly undoneCount = $derived(this.jobs.filter(isUndone).length);

  constructor(host: JobsHost) {
    this.#host = host;
  }

  /** Reads the list again; while a job is not done, again after a while. Never rejects. */
  async load(): Promise<void> {
    const ticket = ++this.#ticket;
    if (this.status !== 'ready') this.status = 'loading';
    try {
      const { jobs } = await this.#host.client.jobList({ sessionId: this.#host.sessionId });
      if (ticket < this.#appliedTicket || this.#isStopped) return;
      this.#appliedTicket = ticket;
      this.jobs = jobs;
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      if (ticket < this.#appliedTicket || this.#isStopped) return;
      this.#appliedTicket = ticket;
      this.status = 'error';
      this.errorMessage = messageOf(error);
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = this.jobs.some(isUndone) ? setTimeout(() => void this.load(), JOB_POLL_MS) : undefined;
  }

  /** Stops reading the list (the screen is gone). */
  stop(): void {
    this.#isStopped = true;
    clearTimeout(this.#timer);
  }
}
