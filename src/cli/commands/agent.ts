import type { InferenceSettings } from '#core/llm/inference-settings.ts';
import { answerViewText } from '#core/questions/answer.ts';
import { describeSpentLimit } from '#core/llm/usage-budget.ts';
import { describeProblem } from '#core/result.ts';
import { numberOption } from '../options.ts';
import { goalsSummary, problemLines } from '../output.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';
import { USAGE } from '../usage.ts';
import { readBlob } from './kg.ts';
import { runInference } from './model.ts';
import { wearPsyche } from './psyche.ts';

/** `anima run`, `resume` and `cycle`: the agent's cycles over the snapshot's session, saved after the run. */
export const AGENT_COMMANDS: Record<string, SessionCommand> = {
  run: { run: runGoal, createsSnapshot: true },
  resume: { run: async (context) => runCycles(context, maxCyclesOption(context), await prepareRun(context)) },
  cycle: { run: async (context) => runCycles(context, 1, await prepareRun(context)) },
};

const maxCyclesOption = ({ values }: SessionContext) => numberOption(values['max-cycles'], '--max-cycles', { min: 1, max: 100_000, fallback: 20, isInteger: true });

/** Checks the model options (like every usage error, before anything is done) and wears --psyche; gives the run's model. */
async function prepareRun({ name, values, service, sessionId, output }: SessionContext): Promise<InferenceSettings | undefined> {
  const inference = runInference(values);
  if (values.psyche && name !== 'cycle') await wearPsyche(service, sessionId, values.psyche, output);
  return inference;
}

/** `anima run`: adds the goal (after the graph --kg names), then runs cycles. */
async function runGoal(context: SessionContext): Promise<number> {
  const { values, service, sessionId } = context;
  if (!values.goal) throw new CliError(`run: --goal "TEXT" is required\n\n${USAGE}`, 2);
  const maxCycles = maxCyclesOption(context);
  const inference = await prepareRun(context);
  if (values.kg) {
    const imported = await service.kgImport({ sessionId, operationId: 'cli-import', fileName: values.kg, data: await readBlob(values.kg) });
    if (!imported.ok) throw new CliError(problemLines(`${values.kg}: nothing imported:`, imported.problems));
  }
  const priority = numberOption(values.priority, '--priority', { min: 0, max: 255, fallback: 128, isInteger: true });
  const added = await service.goalAdd({ sessionId, description: values.goal, criteria: values.criteria ?? '', priority });
  if (!added.ok) throw new CliError(problemLines(`run: the goal cannot be added:`, added.problems));
  return runCycles(context, maxCycles, inference);
}

async function runCycles({ values, service, sessionId, output, save }: SessionContext, maxCycles: number, inference: InferenceSettings | undefined): Promise<number> {
  const run = await service.agentRun({ sessionId, operationId: 'cli-run', maxCycles, ...(inference ? { inference } : {}) }, (record) => {
    if (values.json)
      output.out(
        `${JSON.stringify({ cycle: record.cycle, goalId: record.goalId, phases: { observe: record.observe, orient: record.orient, decide: record.decide, act: record.act }, tool: record.tool, breakdown: record.candidates.find((candidate) => candidate.tool === record.tool)?.breakdown, candidates: record.candidates, outcome: record.outcome, ...(record.model ? { model: record.model } : {}) })}\n`,
      );
    else output.out(`cycle ${record.cycle}\t${record.tool}\t${record.outcome}\t${record.act}\n`);
  });
  if (!run.ok) throw new CliError(run.problems.map(describeProblem).join('\n'));
  await save();
  const { goals } = await service.goalList({ sessionId, findingsLimit: 100_000 });
  if (values.json) output.out(`${JSON.stringify(goalsSummary(goals))}\n`);
  else {
    const { usage } = run;
    const stopped =
      run.stoppedBecause === 'no-active-goal'
        ? 'no goal is active'
        : run.stoppedBecause === 'budget'
          ? `stopped: the run's budget is spent${run.budgetSpent ? `, ${describeSpentLimit(run.budgetSpent)}` : ''}`
          : run.stoppedBecause === 'storage-full'
            ? `stopped: storage is full; the run paused after cycle ${run.lastCycle}, and nothing of the unfinished cycle was kept`
            : `stopped: ${run.stoppedBecause}`;
    const model = usage.model ? `; ${usage.provider} ${usage.model}: ${usage.requests} requests, ${usage.inputTokens} tokens in, ${usage.outputTokens} out` : '';
    output.error(`anima: ${run.cyclesRun} cycles run (${stopped})${model}\n`);
    if (usage.fellBack) output.error(`anima: went on without the model (${usage.fellBack.kind}): ${usage.fellBack.because}\n`);
    for (const goal of goals) {
      output.out(`#${goal.id}\t${goal.status}\t${goal.description}\t${goal.findingsTotal} findings${goal.statusReason ? `\t${goal.statusReason}` : ''}\n`);
      if (goal.answer) output.out(`\t${answerViewText(goal.answer, 20)}\n`);
    }
  }
  return 0;
}
