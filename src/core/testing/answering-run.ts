import type { AgentApi, CycleRecord } from '#core/api.ts';

/** The note a user gives who knows nothing more: the goal goes on without new facts. */
export const NOTHING_TO_ADD = 'I do not know more about it.';

/**
 * Runs the agent for up to `maxCycles` cycles like a user who answers every question of the agent
 * at once with a note and nothing else (tests and benchmarks of long runs).
 */
export async function runAnswering(
  service: AgentApi,
  sessionId: string,
  maxCycles: number,
  onCycle?: (record: CycleRecord) => void,
): Promise<CycleRecord[]> {
  const cycles: CycleRecord[] = [];
  while (cycles.length < maxCycles) {
    const run = await service.agentRun(
      { sessionId, operationId: 'answering-run', maxCycles: maxCycles - cycles.length },
      (record) => {
        cycles.push(record);
        onCycle?.(record);
      },
    );
    if (!run.ok || run.stoppedBecause !== 'no-active-goal') break;
    const { questions } = await service.questionList({ sessionId });
    const pending = questions.filter((question) => question.status === 'pending');
    if (pending.length === 0) break;
    for (const question of pending) {
      const answered = await service.questionAnswer({ sessionId, questionId: question.id, note: NOTHING_TO_ADD });
      if (!answered.ok)
        throw new Error(
          `question ${question.id} could not be answered: ${answered.problems.map((problem) => problem.message).join('; ')}`,
        );
    }
  }
  return cycles;
}
