import type { AgentApi } from '../../core/api.ts';
import { describeProblem } from '../../core/result.ts';

/** What agentRun answers. */
export type RunResult = Awaited<ReturnType<AgentApi['agentRun']>>;

/** How a run ended, in words: a notice, or a failure with its problems. */
export type RunReport = { tone: 'notice' | 'failure'; message: string; problems: string[] };

/** What the run controls can start: one cycle, a number of cycles, or cycles until no goal is active. */
export type RunKind = 'one' | 'some' | 'until-done';

/** Enough cycles for any goal the starter graph supports; a run stops earlier once no goal is active. */
export const UNTIL_DONE_MAX_CYCLES = 1000;

const READ_ONLY_REASON = 'Anima is open in another tab, and only that tab can run the agent: close it to run cycles here.';
const NO_ACTIVE_GOAL_REASON = 'No goal is active: add a goal, or resume a suspended one, to run cycles.';
const WAITING_GOAL_REASON = 'No goal is active: a goal waits for your approval. Approve or deny its action on the Approvals screen to run cycles.';

function cycles(count: number): string {
  return `${count.toLocaleString('en')} ${count === 1 ? 'cycle' : 'cycles'}`;
}

/** Says how a run ended, for the status line under the run controls. */
export function describeRunEnd(result: RunResult): RunReport {
  if (!result.ok) return { tone: 'failure', message: READ_ONLY_REASON, problems: result.problems.map(describeProblem) };
  const { cyclesRun, lastCycle, stoppedBecause } = result;
  const upTo = cyclesRun > 0 ? ` (up to cycle ${lastCycle.toLocaleString('en')})` : '';
  switch (stoppedBecause) {
    case 'no-active-goal':
      return cyclesRun === 0
        ? { tone: 'notice', message: 'No goal is active, so no cycle ran. Add a goal, or resume a suspended one.', problems: [] }
        : { tone: 'notice', message: `Ran ${cycles(cyclesRun)}${upTo}; no goal is active any more.`, problems: [] };
    case 'max-cycles':
      return { tone: 'notice', message: `Ran ${cycles(cyclesRun)}${upTo}.`, problems: [] };
    case 'cancelled':
      return { tone: 'notice', message: `Paused after ${cycles(cyclesRun)}${upTo}.`, problems: [] };
  }
}

/** Why the run buttons are disabled, or undefined when a run can start. */
export function runBlockedReason(state: { canWrite: boolean; hasLoadedGoals: boolean; hasActiveGoal: boolean; hasWaitingGoal?: boolean }): string | undefined {
  if (!state.canWrite) return READ_ONLY_REASON;
  if (!state.hasLoadedGoals) return 'Loading the goals…';
  if (!state.hasActiveGoal) return state.hasWaitingGoal ? WAITING_GOAL_REASON : NO_ACTIVE_GOAL_REASON;
  return undefined;
}

/** The live line while a run goes on: "Running: 3 of 10 cycles done." */
export function runningText(run: { kind: RunKind; cyclesRun: number; maxCycles: number; isPausing: boolean }): string {
  const done = run.kind === 'until-done' ? `${cycles(run.cyclesRun)} done` : `${run.cyclesRun.toLocaleString('en')} of ${cycles(run.maxCycles)} done`;
  if (run.isPausing) return `Pausing after the current cycle: ${done}.`;
  return run.kind === 'until-done' ? `Running until no goal is active: ${done}.` : `Running: ${done}.`;
}
