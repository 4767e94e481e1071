import { readFile, stat } from 'node:fs/promises';
import type { AgentApi, CycleRecord } from '#core/api.ts';
import type { InferenceSettings } from '#core/llm/inference-settings.ts';
import { answerViewText } from '#core/questions/answer-view.ts';
import { describeSpentLimit } from '#core/llm/usage-budget.ts';
import { countText } from '#core/count-text.ts';
import { quoteInput } from '#core/quote-input.ts';
import { describeProblem } from '#core/result.ts';
import { decodeUtf8Text } from '#core/text-bytes.ts';
import { numberOption } from '../options.ts';
import { cycleChoiceLines, goalsSummary, problemLines } from '../output.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';
import { usageFor } from '../usage.ts';
import { readBlob } from './kg.ts';
import { symbolChoices } from './ask.ts';
import { runInference } from './model.ts';
import { wearPsyche } from './psyche.ts';

/** `anima run`, `resume` and `cycle`: the agent's cycles over the snapshot's session, saved after the run. */
export const AGENT_COMMANDS: Record<string, SessionCommand> = {
  run: { run: runGoal, createsSnapshot: true, startsFresh: true },
  resume: { run: async (context) => runCycles(context, maxCyclesOption(context), await prepareRun(context)) },
  cycle: { run: async (context) => runCycles(context, 1, await prepareRun(context)) },
};

const maxCyclesOption = ({ values }: SessionContext) =>
  numberOption(values['max-cycles'], '--max-cycles', { min: 1, max: 100_000, fallback: 20, isInteger: true });

/** What a run binds: its model, and the SPARQL endpoints it names. */
type RunBindings = {
  inference: InferenceSettings | undefined;
  endpoints: { name: string; key?: string }[] | undefined;
};

/** Checks the model and endpoint options (like every usage error, before anything is done) and wears --psyche. */
async function prepareRun({ name, values, service, sessionId, output }: SessionContext): Promise<RunBindings> {
  const inference = runInference(values);
  const endpoints = await runEndpoints(service, sessionId, values.endpoint, values.key);
  if (values.psyche && name !== 'cycle') await wearPsyche(service, sessionId, values.psyche, output);
  return { inference, endpoints };
}

/** The SPARQL endpoints a run names (--endpoint, with --key for one): each must be one the session has. */
async function runEndpoints(
  service: AgentApi,
  sessionId: string,
  names: string[] | undefined,
  key: string | undefined,
): Promise<{ name: string; key?: string }[] | undefined> {
  if (names === undefined) return undefined;
  if (key !== undefined && names.length !== 1)
    throw new CliError('--key goes with one --endpoint (whose key it is)', 2);
  const { endpoints } = await service.endpointList({ sessionId });
  const unknown = names.filter((name) => !endpoints.some((endpoint) => endpoint.name === name));
  if (unknown.length > 0)
    throw new CliError(
      `--endpoint ${unknown.map((name) => quoteInput(name)).join(', ')}: not an endpoint of this session (\`anima endpoint add NAME URL\` adds one; \`anima endpoint list\` lists them)`,
      2,
    );
  return names.map((name) => ({ name, ...(key !== undefined ? { key } : {}) }));
}

/** The most goals one `anima run` adds. */
const MAX_GOALS_PER_RUN = 100;

/** `anima run`: adds the goals (after the graph --kg names), then runs cycles. */
async function runGoal(context: SessionContext): Promise<number> {
  const { values, service, sessionId } = context;
  const descriptions = [...(values.goal ?? []), ...(values.goals === undefined ? [] : await goalsFile(values.goals))];
  if (descriptions.length === 0)
    throw new CliError(
      `run: --goal "TEXT" is required (give it once a goal), or --goals FILE\n\n${usageFor('run')}`,
      2,
    );
  if (descriptions.length > MAX_GOALS_PER_RUN)
    throw new CliError(`run: ${descriptions.length} goals given; one run adds at most ${MAX_GOALS_PER_RUN}`, 2);
  if (values.criteria !== undefined && descriptions.length > 1)
    throw new CliError('run: --criteria belongs to one goal; give one --goal with it', 2);
  const chosenSymbols = symbolChoices(values);
  if (chosenSymbols.length > 0 && descriptions.length > 1)
    throw new CliError('run: --choose belongs to one goal; give one --goal with it', 2);
  const maxCycles = maxCyclesOption(context);
  const priority = numberOption(values.priority, '--priority', { min: 0, max: 255, fallback: 128, isInteger: true });
  const bindings = await prepareRun(context);
  if (values.kg) {
    const imported = await service.kgImport({
      sessionId,
      operationId: 'cli-import',
      fileName: values.kg,
      data: await readBlob(values.kg),
    });
    if (!imported.ok) throw new CliError(problemLines(`${values.kg}: nothing imported:`, imported.problems));
  }
  // Each goal is checked before any is kept: a bad one leaves the snapshot as it was (nothing is saved on an error).
  for (const [index, description] of descriptions.entries()) {
    const added = await service.goalAdd({
      sessionId,
      description,
      criteria: values.criteria ?? '',
      priority,
      chosenSymbols,
    });
    const which = descriptions.length > 1 ? ` (goal ${index + 1}, ${quoteInput(description, 60)})` : '';
    if (!added.ok) throw new CliError(problemLines(`run: the goal cannot be added${which}:`, added.problems));
  }
  return runCycles(context, maxCycles, bindings);
}

/** `--goals FILE`: one goal a line; blank lines and lines starting with # are skipped. */
async function goalsFile(file: string): Promise<string[]> {
  let bytes: Uint8Array;
  try {
    if ((await stat(file)).size > MAX_GOALS_FILE_BYTES)
      throw new CliError(`${file}: more than ${MAX_GOALS_FILE_BYTES / 1024} KB; a goals file holds one goal a line`);
    bytes = await readFile(file);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = decodeUtf8Text(bytes);
  if (!text.ok) throw new CliError(text.error.map((problem) => `${file}: ${describeProblem(problem)}`).join('\n'));
  const goals = text.value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (goals.length === 0) throw new CliError(`${file}: no goal in it (one goal a line)`);
  return goals;
}

const MAX_GOALS_FILE_BYTES = 256 * 1024;

async function runCycles(
  { values, service, sessionId, output, save }: SessionContext,
  maxCycles: number,
  { inference, endpoints }: RunBindings,
): Promise<number> {
  const run = await service.agentRun(
    {
      sessionId,
      operationId: 'cli-run',
      maxCycles,
      ...(inference ? { inference } : {}),
      ...(endpoints ? { endpoints } : {}),
    },
    (record) => {
      if (values.json)
        output.out(
          `${JSON.stringify({ cycle: record.cycle, goalId: record.goalId, phases: { observe: record.observe, orient: record.orient, decide: record.decide, act: record.act }, tool: record.tool, breakdown: record.candidates.find((candidate) => candidate.tool === record.tool)?.breakdown, candidates: record.candidates, outcome: record.outcome, ...(record.model ? { model: record.model } : {}), ...(record.rejection ? { rejection: record.rejection } : {}), ...(record.children ? { children: record.children } : {}) })}\n`,
        );
      else {
        output.out(`cycle ${record.cycle}\t${record.tool}\t${record.outcome}\t${record.act}\n`);
        if (record.rejection) output.out(`\t${rejectionLine(record.rejection)}\n`);
        for (const [index, child] of (record.children ?? []).entries())
          output.out(`\t${childRunLine(record.cycle, index, child)}\n`);
        if (values.verbose) output.out(cycleChoiceLines(record));
      }
    },
  );
  if (!run.ok) throw new CliError(run.problems.map(describeProblem).join('\n'));
  await save();
  const { goals } = await service.goalList({ sessionId, findingsLimit: 100_000 });
  if (values.json) output.out(`${JSON.stringify(await goalsSummary(service, sessionId, goals))}\n`);
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
    const model = usage.model
      ? `; ${usage.provider} ${usage.model}: ${usage.requests} requests, ${usage.inputTokens} tokens in, ${usage.outputTokens} out`
      : '';
    output.error(`anima: ${run.cyclesRun} cycles run (${stopped})${model}\n`);
    if (usage.fellBack)
      output.error(`anima: went on without the model (${usage.fellBack.kind}): ${usage.fellBack.because}\n`);
    for (const goal of goals) {
      output.out(
        `#${goal.id}\t${goal.status}\t${goal.description}\t${goal.findingsTotal} findings${goal.statusReason ? `\t${goal.statusReason}` : ''}\n`,
      );
      if (goal.answer) output.out(`\t${answerViewText(goal.answer, 20)}\n`);
    }
  }
  return 0;
}

/** A refused action's evidence on one line of the run's log. */
function rejectionLine(rejection: NonNullable<CycleRecord['rejection']>): string {
  return `refused (${rejection.class.replace(/_/g, ' ')}, ${rejection.retryable ? 'retryable' : 'not retryable'}): required ${rejection.required}; observed ${rejection.observed}`;
}

/** A child run on one line under its cycle: "cycle 3.1 reviewer: <purpose> -> <result or bottleneck> (what it used)". */
function childRunLine(cycle: number, index: number, child: NonNullable<CycleRecord['children']>[number]): string {
  const { usage } = child;
  return `cycle ${cycle}.${index + 1} ${child.posture}: ${child.purpose} -> ${child.summary} (${countText(usage.requests, 'request')}, ${usage.promptTokens} tokens in, ${usage.completionTokens} out, ${countText(usage.toolCalls, 'tool call')}, ${usage.wallMs} ms)`;
}
