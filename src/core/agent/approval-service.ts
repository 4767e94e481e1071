import type { AgentServiceImplementation, ApprovalView } from '../api.ts';
import { describeAction } from '../psyche/shadow.ts';
import type { ServiceContext } from '../service-context.ts';
import { READ_ONLY_MESSAGE } from '../service-context.ts';
import type { Approval } from './approval.ts';
import type { Goal } from './goal.ts';

type ApprovalMethods = 'approvalList' | 'approvalDecide';

function viewOf(approval: Approval, goal: Goal | undefined): ApprovalView {
  return {
    id: approval.id!,
    goalId: approval.goalId,
    goalDescription: goal?.description ?? `goal ${approval.goalId}`,
    cycle: approval.cycle,
    tool: approval.tool,
    action: describeAction(approval),
    pattern: approval.pattern,
    because: approval.because,
    explanation: approval.explanation,
    status: approval.status,
    ...(approval.reason !== undefined ? { reason: approval.reason } : {}),
    createdAt: approval.createdAt,
    ...(approval.decidedAt !== undefined ? { decidedAt: approval.decidedAt } : {}),
    ...(approval.doneInCycle !== undefined ? { doneInCycle: approval.doneInCycle } : {}),
  };
}

/** The approvals slice of the AgentService: actions the shadow held for the user, and the user's answers. */
export function approvalService(context: ServiceContext): Pick<AgentServiceImplementation, ApprovalMethods> {
  const { db, now, exclusively, canWrite, sessionOf } = context;
  return {
    async approvalList({ sessionId, limit }) {
      await sessionOf(sessionId);
      const approvals = await db.approvals.where('sessionId').equals(sessionId).sortBy('id');
      const pending = approvals.filter((approval) => approval.status === 'pending');
      const decided = approvals.filter((approval) => approval.status !== 'pending').reverse();
      const shown = [...pending, ...decided].slice(0, limit);
      // Only the goals the shown approvals name: the badge asks for one approval after every cycle.
      const goalIds = [...new Set(shown.map((approval) => approval.goalId))];
      const goals = await db.goals.bulkGet(goalIds);
      const goalById = new Map(goals.flatMap((goal) => (goal?.id !== undefined ? [[goal.id, goal] as const] : [])));
      return { approvals: shown.map((approval) => viewOf(approval, goalById.get(approval.goalId))), pendingCount: pending.length };
    },

    async approvalDecide({ sessionId, approvalId, decision, reason }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      const session = await sessionOf(sessionId);
      return exclusively(() =>
        db.transaction('rw', [db.approvals, db.goals, db.provenance], async () => {
          const approval = await db.approvals.get(approvalId);
          if (!approval || approval.sessionId !== sessionId) return { ok: false as const, problems: [{ message: `there is no approval ${approvalId}` }] };
          if (approval.status !== 'pending') return { ok: false as const, problems: [{ message: `approval ${approvalId} was already decided (${approval.status})` }] };
          const goal = await db.goals.get(approval.goalId);
          if (!goal || goal.status === 'completed' || goal.status === 'failed')
            return { ok: false as const, problems: [{ message: `its goal has ended${goal ? ` (${goal.status})` : ''}; nothing is left to approve` }] };
          const decidedAt = now();
          const action = describeAction(approval);
          const trimmedReason = reason?.trim();
          const decided: Approval =
            decision === 'approve'
              ? { ...approval, status: 'approved', decidedAt }
              : { ...approval, status: 'denied', decidedAt, ...(trimmedReason ? { reason: trimmedReason } : {}) };
          const goalAfter: Goal =
            decision === 'approve'
              ? { ...goal, status: 'active', statusReason: `you approved ${approval.tool} (approval #${approvalId}); it runs in the goal's next cycle` }
              : {
                  ...goal,
                  status: 'active',
                  statusReason: `you denied ${approval.tool} (approval #${approvalId})${trimmedReason ? `: ${trimmedReason}` : ''}; the goal goes on without it`,
                  deniedActions: [action, ...(goal.deniedActions ?? []).filter((denied) => denied !== action)].slice(0, 50),
                };
          await db.approvals.put(decided);
          // A waiting goal goes on; one the user suspended meanwhile stays suspended, with the answer kept.
          if (goal.status === 'waiting') await db.goals.put(goalAfter);
          else if (decision === 'deny') await db.goals.put({ ...goal, deniedActions: goalAfter.deniedActions });
          await db.provenance.add({
            sessionId,
            kind: 'approval-decision',
            sources: [`approval:${approvalId}`, `goal:${goal.id}`, `tool:${approval.tool}`],
            confidence: 1,
            cycle: session.cycle,
            detail: `${decision === 'approve' ? 'approved' : 'denied'} ${action}${trimmedReason ? `: ${trimmedReason}` : ''}`,
            createdAt: decidedAt,
          });
          return { ok: true as const, approval: viewOf(decided, goal) };
        }),
      );
    },
  };
}
