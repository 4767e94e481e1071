import type { JobView } from '#core/api.ts';
import type { SessionCommand, SessionContext } from '../session.ts';

/** `anima jobs`: the background work tools deferred, and how it went. */
export const JOB_COMMANDS: Record<string, SessionCommand> = {
  jobs: { run: listJobs },
};

async function listJobs({ values, service, sessionId, output }: SessionContext): Promise<number> {
  const { jobs } = await service.jobList({ sessionId });
  if (values.json) output.out(`${JSON.stringify(jobs)}\n`);
  else if (jobs.length === 0) output.error('anima: no background job was deferred in this session\n');
  else output.out(jobs.map(jobLine).join(''));
  return 0;
}

const at = (time: number) => new Date(time).toISOString();

/** One line of `anima jobs`: id, state, goal, the tool and what it does, its times; why it failed, on the next line. */
function jobLine(job: JobView): string {
  const times = [
    `deferred ${at(job.createdAt)}`,
    ...(job.startedAt !== undefined ? [`started ${at(job.startedAt)} (attempt ${job.attempts})`] : []),
    ...(job.finishedAt !== undefined ? [`ended ${at(job.finishedAt)}`] : []),
  ];
  const goal = job.goal === '' ? `goal ${job.goalId}` : `goal ${job.goalId} "${job.goal}"`;
  return `#${job.id}\t${job.status}\t${goal}\t${job.tool}: ${job.what} (${job.kind})\t${times.join(', ')}\n${job.error !== undefined ? `\tfailed: ${job.error}\n` : ''}`;
}
