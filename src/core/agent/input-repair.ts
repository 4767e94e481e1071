import type { ModelAccess } from '#core/llm/model-access.ts';
import type { ChildRun } from '#core/records/child-run.ts';
import type { CycleRecord } from '#core/records/cycle.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import { runChild } from './child-run.ts';
import type { Decision } from './cycle.ts';
import { REPAIR } from './postures.ts';

/** A tool refused this many times in a row for a goal, with evidence a new input could answer, gets a repair. */
export const REPAIR_AFTER_REFUSALS = 2;

/** How many of the session's latest cycles are searched for the tool's refusals. */
const RECENT_CYCLES = 50;

/** The most traces a repair is given: the latest. */
const MAX_TRACES = 5;

/** Refusals another input may answer: a precondition the input missed, or arguments the tool would not take (a policy never changes by asking again). */
const REPAIRABLE = new Set(['precondition_miss', 'invalid_arguments']);

/**
 * With a model bound, when the chosen tool was refused for the goal the last
 * {@link REPAIR_AFTER_REFUSALS} times it ran, each with rejection evidence another input could
 * answer, a repair child run is given those measured traces (the input, what the tool required
 * and what it observed) and proposes a fix. Its corrected input is checked before use: the
 * tool's own schema must take it and it must differ from every input refused; then the cycle
 * runs the tool with it (through the shadow, as any action). A fix in words alone, or an input
 * that fails the check, is not used, and the cycle's decision says why.
 */
export async function repairFromTraces(
  db: AnimaDatabase,
  model: ModelAccess | undefined,
  decision: Decision,
): Promise<{ decision: Decision; run?: ChildRun }> {
  if (!model) return { decision };
  const { goal, tool } = decision;
  // The session's latest cycles only: a cycle's reads stay bounded however long the session ran.
  const ran = (
    await db.cycles
      .where('[sessionId+cycle]')
      .between([goal.sessionId, 0], [goal.sessionId, Infinity])
      .reverse()
      .limit(RECENT_CYCLES)
      .toArray()
  )
    .filter((record) => record.goalId === goal.id && record.tool === tool.name)
    .reverse();
  const latest = ran.slice(-REPAIR_AFTER_REFUSALS);
  if (latest.length < REPAIR_AFTER_REFUSALS || !latest.every(isRepairable)) return { decision };
  let start = ran.length;
  while (start > 0 && isRepairable(ran[start - 1]!)) start--;
  const refused = ran.slice(Math.max(start, ran.length - MAX_TRACES));
  const outcome = await runChild(
    model,
    REPAIR,
    {
      purpose: `repair ${tool.name}'s input for "${goal.description}" after ${refused.length} refusals`,
      prompt: [
        `Goal: ${goal.description}`,
        `Tool: ${tool.name}, ${tool.description}`,
        `Its input: ${tool.inputGuide ?? tool.definition}`,
        `It was refused each time it ran for this goal; it is about to run with ${JSON.stringify(decision.input)}.`,
      ].join('\n'),
      traces: refused.map(traceOf),
    },
    decision.state,
  );
  if (!outcome.ok) return { decision, run: outcome.run };
  const { input, trace, cause } = outcome.value;
  const notUsed = (why: string) => ({
    decision: {
      ...decision,
      record: { ...decision.record, decide: `${decision.record.decide}; a repair's fix was not used: ${why}` },
    },
    run: outcome.run,
  });
  if (input === undefined) return notUsed('it gave no input to run with, and a fix in words cannot be checked');
  const problems = tool.inputProblems(input);
  if (problems.length > 0)
    return notUsed(
      `${tool.name} would refuse its input (${problems.map((problem) => (problem.path ? `${problem.path}: ${problem.message}` : problem.message)).join('; ')})`,
    );
  if (refused.some((record) => JSON.stringify(record.input) === JSON.stringify(input)))
    return notUsed('its input is one that was refused before');
  return {
    decision: {
      ...decision,
      input,
      record: {
        ...decision.record,
        input,
        decide: `${decision.record.decide}; input repaired from trace ${trace} (${cause}): ${JSON.stringify(input)}`,
      },
    },
    run: outcome.run,
  };
}

function isRepairable(record: CycleRecord): boolean {
  return record.rejection !== undefined && REPAIRABLE.has(record.rejection.class);
}

/** A refusal as a repair reads it: the cycle, the input, the class, what was required and what was observed. */
function traceOf(record: CycleRecord): string {
  const rejection = record.rejection!;
  return `cycle ${record.cycle}: ${record.tool} with ${JSON.stringify(record.input)} was refused (${rejection.class}): it required ${rejection.required}; it observed ${rejection.observed}`;
}
