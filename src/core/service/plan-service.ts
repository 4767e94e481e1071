import type { AgentServiceImplementation } from '#core/api.ts';
import type { ServiceContext } from './service-context.ts';
import { decide } from '#core/agent/cycle.ts';
import { DEFAULT_PRIORITY, DEFAULT_STALL_THRESHOLD, parseCriteria } from '#core/goals/goal.ts';
import type { Goal } from '#core/records/goal.ts';
import { makePlan } from '#core/agent/plan.ts';
import { cycleContextOf, readCycleInputs } from '#core/agent/cycle-inputs.ts';
import { questionsFor } from '#core/agent/cycle-child-runs.ts';

/** The planning slice of the AgentService: the plans made, and the plan the agent would make for a goal, on the session's graph as it is. */
export function planService(context: ServiceContext): Pick<AgentServiceImplementation, 'planPreview' | 'planList'> {
  const { db, graphOf, similarityOf, documentsOf, now } = context;
  return {
    async planList({ sessionId, goalId }) {
      const plans = await (
        goalId === undefined
          ? db.plans.where('sessionId').equals(sessionId)
          : db.plans
              .where('goalId')
              .equals(goalId)
              .filter((plan) => plan.sessionId === sessionId)
      ).sortBy('id');
      return { plans: plans.map((plan) => ({ ...plan, id: plan.id! })) };
    },

    async planPreview({ sessionId, description, criteria, attempt }) {
      const parsed = parseCriteria(criteria, description);
      if (!parsed.ok) return { ok: false, problems: parsed.error };
      const graph = await graphOf(sessionId);
      const inputs = await readCycleInputs(context.db, sessionId);
      // The goal as it would be added; id 0 is no stored goal's.
      const goal: Goal = {
        id: 0,
        sessionId,
        description,
        successCriteria: criteria,
        priority: DEFAULT_PRIORITY,
        status: 'active',
        cyclesWorked: 0,
        lastProgressCycle: 0,
        stallThreshold: DEFAULT_STALL_THRESHOLD,
        findings: [],
        toolsUsed: [],
        createdAt: now(),
      };
      const cycleContext = cycleContextOf(inputs);
      const questions = await questionsFor([goal]);
      const decided = decide({
        ...cycleContext,
        goals: [goal],
        sessionId,
        cycle: inputs.session.cycle + 1,
        now: now(),
        graph,
        similarity: similarityOf(graph),
        documents: await documentsOf(sessionId),
        ...(questions ? { questions } : {}),
      });
      if (!decided) return { ok: false, problems: [{ message: 'the goal cannot be planned' }] };
      const { needs, strategy, steps } = makePlan(cycleContext.tools, decided.state, attempt);
      return { ok: true, plan: { attempt, needs, strategy, steps } };
    },
  };
}
