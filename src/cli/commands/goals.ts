import { describeProblem } from '#core/result.ts';
import { idOperand, numberOption } from '../options.ts';
import { goalsSummary, planText, problemLines } from '../output.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';
import { usageFor } from '../usage.ts';

/** `anima goals`, `plan`, `write-up` and `notes`: what the agent works on and what it made of it. */
export const GOAL_COMMANDS: Record<string, SessionCommand> = {
  goals: { run: goals },
  plan: { run: plan },
  'write-up': { run: writeUp },
  notes: { run: notes },
};

async function goals({ values, service, sessionId, output }: SessionContext): Promise<number> {
  const { goals } = await service.goalList({ sessionId, findingsLimit: 100_000 });
  if (values.json) output.out(`${JSON.stringify(await goalsSummary(service, sessionId, goals))}\n`);
  else
    for (const goal of goals)
      output.out(
        `#${goal.id}\t${goal.status}\t${goal.cyclesWorked} cycles\t${goal.findingsTotal} findings\t${goal.description}${goal.statusReason ? ` (${goal.statusReason})` : ''}\n`,
      );
  return 0;
}

async function plan({ operands, values, service, sessionId, output }: SessionContext): Promise<number> {
  const [positional] = operands;
  if (positional !== undefined) {
    const goalId = idOperand(positional, 'GOAL_ID');
    const { plans } = await service.planList({ sessionId, goalId });
    if (values.json) output.out(`${JSON.stringify(plans)}\n`);
    else if (plans.length === 0)
      output.error(
        `anima: goal ${goalId} has no plan yet (the agent plans when it first works on a goal; \`anima goals\` lists them)\n`,
      );
    else
      for (const plan of plans)
        output.out(
          `plan ${plan.id}, made at cycle ${plan.cycle}: ${plan.status}${plan.statusReason ? ` (${plan.statusReason})` : ''}\n${planText(plan)}`,
        );
    return 0;
  }
  const [goal, ...more] = values.goal ?? [];
  if (goal === undefined)
    throw new CliError(
      `plan: --goal "TEXT" (the plan it would make) or GOAL_ID (a goal's plans) is required\n\n${usageFor('plan')}`,
      2,
    );
  if (more.length > 0) throw new CliError('plan: give --goal once (the plan of one goal)', 2);
  const attempt = numberOption(values.attempt, '--attempt', { min: 0, max: 100, fallback: 0, isInteger: true });
  const planned = await service.planPreview({ sessionId, description: goal, criteria: values.criteria ?? '', attempt });
  if (!planned.ok) throw new CliError(problemLines(`plan: the goal cannot be planned:`, planned.problems));
  output.out(values.json ? `${JSON.stringify(planned.plan)}\n` : planText(planned.plan));
  return 0;
}

async function writeUp({ operands, values, service, sessionId, output }: SessionContext): Promise<number> {
  const goalId = idOperand(operands[0], 'GOAL_ID');
  if (Number.isNaN(goalId))
    throw new CliError(`write-up: which goal? e.g. anima write-up 1 --snapshot S (\`anima goals\` lists them)`, 2);
  const written = await service.synthesize({
    sessionId,
    goalId,
    ...(values.grammar ? { grammar: values.grammar } : {}),
  });
  if (!written.ok) throw new CliError(written.problems.map(describeProblem).join('\n'));
  output.out(`${written.text}\n`);
  return 0;
}

async function notes({ operands, service, sessionId, output }: SessionContext): Promise<number> {
  const [positional] = operands;
  const goalId = positional === undefined ? undefined : idOperand(positional, 'GOAL_ID');
  if (Number.isNaN(goalId))
    throw new CliError(`notes: GOAL_ID must be a goal's number (\`anima goals\` lists them)`, 2);
  const { artifacts } = await service.artifactList({ sessionId, ...(goalId === undefined ? {} : { goalId }) });
  // A goal's notes are the text artifacts file_io wrote for it.
  const notes = artifacts.filter((artifact) => artifact.tool === 'file_io' && artifact.kind === 'text');
  if (notes.length === 0)
    output.error(
      `anima: no notes${goalId === undefined ? '' : ` for goal ${goalId}`} (a goal gets notes when its words ask for them: "... and keep notes")\n`,
    );
  const texts: string[] = [];
  for (const note of notes) {
    const read = await service.artifactRead({ sessionId, id: note.id });
    if (read.ok) texts.push(new TextDecoder().decode(read.bytes));
  }
  output.out(texts.join('\n'));
  return 0;
}
