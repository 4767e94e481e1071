import type { ModelAccess } from '#core/llm/model-access.ts';
import type { ChildRun } from '#core/records/child-run.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import type { AgentTool } from '#core/tools/tool.ts';
import { runChild } from './child-run.ts';
import type { Decision } from './cycle.ts';
import { type CandidateStep, withCandidateSteps } from './plan.ts';
import { EXPANDER } from './postures.ts';

/**
 * With a model bound, when a goal gets a new plan because its last one failed or ran out of
 * steps without meeting it, an expander child run opens options for what else to try, each
 * naming one of the tools that can work on the goal now. The expander does not rank them: the
 * planner takes the options that name a tool its plan lacks, ranks them by its own order, and
 * adds them as the plan's later steps. The cycle's choice (the plan's first step) is unchanged.
 */
export async function expandReplan(
  db: AnimaDatabase,
  model: ModelAccess | undefined,
  decision: Decision,
  tools: readonly AgentTool[],
): Promise<{ decision: Decision; run?: ChildRun }> {
  const steering = decision.plan;
  if (!model || !steering || steering.plan.id !== undefined) return { decision };
  const { goal, state } = decision;
  const failed = (goal.plansFailed ?? 0) > 0 ? await lastFailedPlanReason(db, goal.id!) : undefined;
  const why = steering.ended
    ? `Its last plan ran all its steps, and the goal is not met: ${steering.ended.strategy}`
    : failed && `Its last plan failed: ${failed}`;
  if (!why) return { decision };
  const usable = tools.filter((tool) => tool.unavailableBecause(state) === undefined);
  const outcome = await runChild(model, EXPANDER, {
    purpose: `open options for "${goal.description}", whose plan ${steering.ended ? 'ran out' : 'failed'}`,
    prompt: [
      `Goal: ${goal.description}${goal.successCriteria.trim() !== '' ? ` (done when: ${goal.successCriteria})` : ''}`,
      why,
      `The new plan: ${steering.plan.steps.map((step) => step.tool).join(' -> ')}`,
      'The tools that can work on the goal now:',
      ...usable.map((tool) => `- ${tool.name}: ${tool.description}`),
      'Open options for what else the agent could try: each option starts with the name of one of these tools, then what to do with it.',
    ].join('\n'),
  });
  if (!outcome.ok) return { decision, run: outcome.run };
  const candidates: CandidateStep[] = outcome.value.options.flatMap(({ option, why: reason }) => {
    const tool = toolNamedIn(option, usable);
    return tool ? [{ tool, rationale: `an expander's option: ${option} (${reason})` }] : [];
  });
  const { steps, added } = withCandidateSteps(steering.plan, candidates, tools, state);
  if (added.length === 0) return { decision, run: outcome.run };
  const plan = {
    ...steering.plan,
    steps,
    strategy: `${steering.plan.strategy}; then an expander's options, ranked by the planner: ${added.join(' -> ')}`,
  };
  return { decision: { ...decision, plan: { ...steering, plan } }, run: outcome.run };
}

/** Why the goal's latest failed plan failed. */
async function lastFailedPlanReason(db: AnimaDatabase, goalId: number): Promise<string | undefined> {
  const plans = await db.plans.where('goalId').equals(goalId).toArray();
  const failed = plans.filter((plan) => plan.status === 'failed').sort((a, b) => (b.id ?? 0) - (a.id ?? 0));
  return failed[0]?.statusReason;
}

/** The tool an option names: the one whose name comes first in its text. */
function toolNamedIn(option: string, tools: readonly AgentTool[]): string | undefined {
  const found = tools
    .map((tool) => ({ name: tool.name, at: option.indexOf(tool.name) }))
    .filter((entry) => entry.at >= 0)
    .sort((a, b) => a.at - b.at || b.name.length - a.name.length);
  return found[0]?.name;
}
