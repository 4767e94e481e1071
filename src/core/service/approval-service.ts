import type { AgentServiceImplementation, ApprovalView } from '#core/api.ts';
import { describeAction, judgeAction } from '#core/psyche/shadow.ts';
import type { Problem } from '#core/result.ts';
import { actionDigest } from '#core/tools/action-digest.ts';
import { shadowViewOf } from '#core/tools/tool.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';
import type { Approval } from '#core/records/approval.ts';
import { type Goal, hasGoalEnded } from '#core/records/goal.ts';

type ApprovalMethods = 'approvalList' | 'approvalDecide';

function viewOf(approval: Approval, goal: Goal | undefined): ApprovalView {
  return {
    id: approval.id!,
    goalId: approval.goalId,
    goalDescription: goal?.description ?? `goal ${approval.goalId}`,
    cycle: approval.cycle,
    tool: approval.tool,
    action: describeAction(approval),
    input: approval.input,
    isEdited: approval.askedInput !== undefined,
    pattern: approval.pattern,
    because: approval.because,
    explanation: approval.explanation,
    status: approval.status,
    ...(approval.reason !== undefined ? { reason: approval.reason } : {}),
    createdAt: approval.createdAt,
    ...(approval.decidedAt !== undefined ? { decidedAt: approval.decidedAt } : {}),
    ...(approval.doneInCycle !== undefined ? { doneInCycle: approval.doneInCycle } : {}),
    ...(approval.redTeam ? { redTeam: approval.redTeam } : {}),
  };
}

/** The approvals slice of the AgentService: actions the shadow held for the user, and the user's answers. */
export function approvalService(context: ServiceContext): Pick<AgentServiceImplementation, ApprovalMethods> {
  const { db, now, exclusively, canWrite, sessionOf } = context;

  /**
   * Checks an edited input before it is approved: the tool must take it, and no hard veto of the
   * psyche (or the worn persona's guardrails) may forbid it. Its digest binds the approval to it.
   * Done outside the write transaction: hashing is asynchronous work IndexedDB does not wait for.
   * The tools and the worn persona are fetched here, not with the list the navigation's badge reads.
   */
  const checkEdit = async (sessionId: string, approvalId: number, input: unknown) => {
    const [
      { TOOLS },
      { readWornPersona, wearPersona },
      { currentPsyche },
      { grantedServerTools },
      { reachableToolServers },
    ] = await Promise.all([
      import('#core/tools/registry.ts'),
      import('#core/personas/worn-persona.ts'),
      import('#core/psyche/psyche-store.ts'),
      import('#core/tools/server-tool.ts'),
      import('#core/mcp/server-keys.ts'),
    ]);
    const refused = (problems: Problem[]) => ({ ok: false as const, problems });
    const approval = await db.approvals.get(approvalId);
    if (!approval || approval.sessionId !== sessionId)
      return refused([{ message: `there is no approval ${approvalId}` }]);
    // A granted tool server's tool is edited against the schema its server last listed.
    const tools = [...TOOLS, ...grantedServerTools(await reachableToolServers(db, sessionId))];
    const tool = tools.find((candidate) => candidate.name === approval.tool);
    if (!tool) return refused([{ message: `there is no tool ${approval.tool} any more` }]);
    const problems = tool.inputProblems(input);
    if (problems.length > 0)
      return refused(
        problems.map((problem) => ({
          ...problem,
          path: `input${problem.path ? `.${problem.path}` : ''}`,
          message: `${approval.tool} would refuse it: ${problem.message}`,
        })),
      );
    const psyche = wearPersona((await currentPsyche(db, sessionId)).psyche, await readWornPersona(db, sessionId));
    const hardVeto = judgeAction(psyche, shadowViewOf(tool, input)).vetoes.find(
      (match) => !match.pattern.requireApproval,
    );
    if (hardVeto)
      return refused([
        {
          path: 'input',
          message: `the veto pattern ${hardVeto.pattern.name} forbids the edited action (${hardVeto.because}): ${hardVeto.pattern.explanation}`,
        },
      ]);
    return { ok: true as const, digest: await actionDigest(tool, input), digestOf: approval.digest };
  };

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
      return {
        approvals: shown.map((approval) => viewOf(approval, goalById.get(approval.goalId))),
        pendingCount: pending.length,
      };
    },

    async approvalDecide({ sessionId, approvalId, decision, reason, input: editedInput }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      const session = await sessionOf(sessionId);
      const edit =
        decision === 'approve' && editedInput !== undefined
          ? await checkEdit(sessionId, approvalId, editedInput)
          : undefined;
      if (edit && !edit.ok) return edit;
      return exclusively(() =>
        db.transaction('rw', [db.approvals, db.goals, db.provenance], async () => {
          const approval = await db.approvals.get(approvalId);
          if (!approval || approval.sessionId !== sessionId)
            return { ok: false as const, problems: [{ message: `there is no approval ${approvalId}` }] };
          if (approval.status !== 'pending')
            return {
              ok: false as const,
              problems: [{ message: `approval ${approvalId} was already decided (${approval.status})` }],
            };
          const goal = await db.goals.get(approval.goalId);
          if (!goal || hasGoalEnded(goal.status))
            return {
              ok: false as const,
              problems: [
                { message: `its goal has ended${goal ? ` (${goal.status})` : ''}; nothing is left to approve` },
              ],
            };
          const decidedAt = now();
          const action = describeAction(approval);
          const trimmedReason = reason?.trim();
          // The edit was checked against this very approval; should it have changed since, the user looks again.
          if (edit && edit.digestOf !== approval.digest)
            return {
              ok: false as const,
              problems: [{ message: `approval ${approvalId} changed while you edited it; look at it again` }],
            };
          const approvedAs = edit ? { input: editedInput, digest: edit.digest, askedInput: approval.input } : {};
          const decided: Approval =
            decision === 'approve'
              ? { ...approval, ...approvedAs, status: 'approved', decidedAt }
              : { ...approval, status: 'denied', decidedAt, ...(trimmedReason ? { reason: trimmedReason } : {}) };
          const goalAfter: Goal =
            decision === 'approve'
              ? {
                  ...goal,
                  status: 'active',
                  statusReason: `you approved ${approval.tool} (approval #${approvalId}); it runs in the goal's next cycle`,
                }
              : {
                  ...goal,
                  status: 'active',
                  statusReason: `you denied ${approval.tool} (approval #${approvalId})${trimmedReason ? `: ${trimmedReason}` : ''}; the goal goes on without it`,
                  deniedActions: [action, ...(goal.deniedActions ?? []).filter((denied) => denied !== action)].slice(
                    0,
                    50,
                  ),
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
            detail:
              decided.askedInput !== undefined
                ? `approved ${describeAction(decided)}, edited from ${action}`
                : `${decision === 'approve' ? 'approved' : 'denied'} ${action}${trimmedReason ? `: ${trimmedReason}` : ''}`,
            createdAt: decidedAt,
          });
          return { ok: true as const, approval: viewOf(decided, goal) };
        }),
      );
    },
  };
}
