import type { AgentServiceImplementation } from '#core/api.ts';
import type { EmbeddingAccess } from '#core/llm/embedding-cache.ts';
import type { InferenceSettings } from '#core/llm/inference-settings.ts';
import { EMBED_EPISODES_JOB, embedEpisodeSummaries } from '#core/memory/embedded-recall.ts';
import type { Job } from '#core/records/job.ts';
import { bindSessionEmbedder } from './embedder-service.ts';
import type { ServiceContext } from './service-context.ts';

/** What a job's work can reach: the database, the session's embedder (bound for the job), and a signal. */
type JobReach = {
  context: ServiceContext;
  sessionId: string;
  embeddings: () => Promise<EmbeddingAccess>;
  signal: AbortSignal;
};

/** The background work tools can defer, by kind: each returns its result as plain data, or throws why it failed, in words. */
const JOB_KINDS: Record<string, (work: unknown, reach: JobReach) => Promise<unknown>> = {
  [EMBED_EPISODES_JOB]: async (_work, { context, sessionId, embeddings, signal }) => {
    const episodes = await context.db.episodes.where('sessionId').equals(sessionId).sortBy('id');
    return embedEpisodeSummaries(await embeddings(), episodes, signal);
  },
};

/** The jobs not yet done: queued, or started by a runner that is gone (a reload, a closed tab) or still at it. */
const UNDONE = ['queued', 'running'] as const;

/** Each service's runs of jobs, by session: one at a time per session. */
const runners = new WeakMap<ServiceContext, Map<string, Promise<void>>>();

/**
 * Runs the session's undone jobs one after another, apart from the cycles (the run does not wait
 * for them), and resolves when none is left. A job is marked started before its work begins;
 * a reload that stops it leaves it started, and the next service to open the session runs it again
 * (its earlier runner, should it ever finish, writes nothing). When it ends, its result or the
 * reason it failed is stored and its waiting goal becomes active again: the goal's next cycle gives
 * it to the tool. The run's inference settings (the CLI's) reach the embedder, else the device's.
 */
export function runBackgroundJobs(
  context: ServiceContext,
  sessionId: string,
  inference?: InferenceSettings,
): Promise<void> {
  const bySession = runners.get(context) ?? new Map<string, Promise<void>>();
  runners.set(context, bySession);
  const previous = bySession.get(sessionId) ?? Promise.resolve();
  const next = previous.then(() => runUndone(context, sessionId, inference));
  // A runner stopped by storage itself failing leaves its job undone: it runs again when the session next opens.
  const settled = next.catch(() => undefined);
  bySession.set(sessionId, settled);
  return settled;
}

async function runUndone(context: ServiceContext, sessionId: string, inference?: InferenceSettings): Promise<void> {
  const { db } = context;
  const controller = new AbortController();
  let bound: Promise<EmbeddingAccess> | undefined;
  const embeddings = () =>
    (bound ??= bindSessionEmbedder(context, sessionId, inference, controller.signal).then((embedder) => {
      if (!embedder.embeddings) throw new Error(embedder.unavailable ?? 'no embedder is bound to this session');
      return embedder.embeddings;
    }));
  for (;;) {
    const [job] = await db.jobs
      .where('[sessionId+status]')
      .anyOf(UNDONE.map((status) => [sessionId, status]))
      .sortBy('id');
    if (!job) return;
    const attempts = job.attempts + 1;
    const started = await context.exclusively(() =>
      db.transaction('rw', db.jobs, async () => {
        const now = await db.jobs.get(job.id!);
        if (!now || now.attempts !== job.attempts || !UNDONE.some((status) => status === now.status)) return false;
        await db.jobs.put({ ...now, status: 'running', attempts, startedAt: context.now() });
        return true;
      }),
    );
    if (!started) continue;
    const kind = JOB_KINDS[job.kind];
    const ending: { result: unknown } | { error: string } = kind
      ? await kind(job.work, { context, sessionId, embeddings, signal: controller.signal }).then(
          (result) => ({ result }),
          (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
        )
      : { error: `there is no background work of kind ${job.kind} here` };
    await finish(context, job.id!, attempts, ending);
  }
}

/** Stores how the job ended, and lets its goal go on, in one transaction: unless another runner has taken the job since. */
async function finish(
  context: ServiceContext,
  jobId: number,
  attempts: number,
  ending: { result: unknown } | { error: string },
): Promise<void> {
  const { db, now } = context;
  await context.exclusively(() =>
    db.transaction('rw', [db.jobs, db.goals, db.provenance], async () => {
      const job = await db.jobs.get(jobId);
      if (!job || job.attempts !== attempts || job.status !== 'running') return;
      const finishedAt = now();
      const done: Job =
        'error' in ending
          ? { ...job, status: 'failed', error: ending.error, finishedAt }
          : { ...job, status: 'finished', result: ending.result, finishedAt };
      await db.jobs.put(done);
      const goal = await db.goals.get(job.goalId);
      if (goal?.status === 'waiting' && goal.waitingForJob === jobId) {
        const { waitingForJob: _done, ...rest } = goal;
        await db.goals.put({
          ...rest,
          status: 'active',
          statusReason: `background job #${jobId} ${'error' in ending ? `failed (${ending.error})` : 'finished'}; ${job.tool} takes it up in the goal's next cycle`,
        });
      }
      await db.provenance.add({
        sessionId: job.sessionId,
        kind: 'background-job',
        sources: [`job:${jobId}`, `goal:${job.goalId}`, `tool:${job.tool}`],
        confidence: 1,
        cycle: job.cycle,
        detail: `background job #${jobId} (${job.what}) ${'error' in ending ? `failed: ${ending.error}` : 'finished'}`,
        createdAt: finishedAt,
      });
    }),
  );
}

/**
 * Goals that wait for a job no longer here (a store changed by hand or by an older Anima can hold
 * such a goal) go on, saying why: their tool defers its work again if it still must.
 */
export async function releaseOrphanedWaits(context: ServiceContext, sessionId: string): Promise<void> {
  const { db } = context;
  await context.exclusively(() =>
    db.transaction('rw', [db.goals, db.jobs], async () => {
      const waiting = await db.goals.where('[sessionId+status]').equals([sessionId, 'waiting']).toArray();
      for (const goal of waiting) {
        if (goal.waitingForJob === undefined) continue;
        const job = await db.jobs.get(goal.waitingForJob);
        if (job && job.sessionId === sessionId && job.goalId === goal.id) continue;
        const { waitingForJob, ...rest } = goal;
        await db.goals.put({
          ...rest,
          status: 'active',
          statusReason: `background job #${waitingForJob} is not kept here; the goal goes on`,
        });
      }
    }),
  );
}

/** Whether the session has jobs not yet done (cheap: the service checks it on opening a session). */
export async function hasUndoneJobs(context: Pick<ServiceContext, 'db'>, sessionId: string): Promise<boolean> {
  return (
    (await context.db.jobs
      .where('[sessionId+status]')
      .anyOf(UNDONE.map((status) => [sessionId, status]))
      .count()) > 0
  );
}

/** The jobs slice of the AgentService. */
export function jobService(context: ServiceContext): Pick<AgentServiceImplementation, 'jobList'> {
  return {
    async jobList({ sessionId }) {
      await context.sessionOf(sessionId);
      const { db } = context;
      const [jobs, goals] = await db.transaction('r', [db.jobs, db.goals], () =>
        Promise.all([
          db.jobs.where('sessionId').equals(sessionId).reverse().sortBy('id'),
          db.goals.where('sessionId').equals(sessionId).toArray(),
        ]),
      );
      const goalOf = new Map(goals.map((goal) => [goal.id!, goal.description]));
      return {
        jobs: jobs.map((job) => ({
          id: job.id!,
          goalId: job.goalId,
          goal: goalOf.get(job.goalId) ?? '',
          tool: job.tool,
          kind: job.kind,
          what: job.what,
          status: job.status,
          attempts: job.attempts,
          ...(job.error !== undefined ? { error: job.error } : {}),
          createdAt: job.createdAt,
          ...(job.startedAt !== undefined ? { startedAt: job.startedAt } : {}),
          ...(job.finishedAt !== undefined ? { finishedAt: job.finishedAt } : {}),
        })),
      };
    },
  };
}
