import type { Decision } from './cycle.ts';
import type { Approval } from '#core/records/approval.ts';
import { type Rejection, rejectionOf } from '#core/records/rejection.ts';
import { describeAction, type ShadowMatch } from '#core/psyche/shadow.ts';
import { countShadowEncounter } from '#core/psyche/psyche-store.ts';
import type { HeldAction } from '#core/tools/tool.ts';
import type { Goal } from '#core/records/goal.ts';
import type { RedTeamFinding } from '#core/records/child-run.ts';
import type { CommitContext, Settled } from './commit-context.ts';

/** What the shadow made of the chosen action before Act (`ask`: the action waits for the user, held by a veto or by default). */
export type ActGate =
  | { kind: 'run'; approval?: Approval }
  | { kind: 'vetoed'; veto: ShadowMatch }
  | { kind: 'ask'; held: HeldAction; isShadow: boolean; digest: string };

/** A veto that asks, as the held action it makes. */
export const heldBy = (veto: ShadowMatch, action: { tool: string; input: unknown }): HeldAction => ({
  ...action,
  pattern: veto.pattern.name,
  because: veto.because,
  explanation: veto.pattern.explanation,
});

/**
 * The evidence of an action the shadow stopped: the pattern's allowance was required, its match
 * observed. A hard veto is final; one that asks waits for the user's answer, which a retry cannot give.
 */
export function gateRejection(decision: Decision, gate: Exclude<ActGate, { kind: 'run' }>): Rejection {
  const action = describeAction({ tool: decision.tool.name, input: decision.input });
  return rejectionOf(
    'policy_block',
    gate.kind === 'ask' ? `your approval, which ${gate.held.pattern} asks for` : `an action the shadow allows`,
    gate.kind === 'ask'
      ? `${gate.held.pattern} matches ${action}: ${gate.held.because}`
      : `${gate.veto.pattern.name} matches ${action}: ${gate.veto.because}`,
  );
}

/** What a goal keeps of a cycle in which its action did not run: a worked cycle, the tool's recency, the action blocked. */
function goalAfterGate(decision: Decision, action: string, status?: Pick<Goal, 'status' | 'statusReason'>): Goal {
  const { goal } = decision;
  const blockedActions = [action, ...(goal.blockedActions ?? []).filter((blocked) => blocked !== action)].slice(
    0,
    MAX_BLOCKED_ACTIONS,
  );
  return {
    ...goal,
    ...status,
    cyclesWorked: goal.cyclesWorked + 1,
    toolsUsed: [decision.tool.name, ...goal.toolsUsed].slice(0, 20),
    blockedActions,
  };
}

const MAX_BLOCKED_ACTIONS = 50;

/** A hard veto: the action never runs; provenance, an encounter, and the goal leaves that action out from now on. */
export async function settleVeto(context: CommitContext, decision: Decision, veto: ShadowMatch): Promise<Settled> {
  const { db, sessionId, cycle, startedAt } = context;
  const action = describeAction({ tool: decision.tool.name, input: decision.input });
  await countShadowEncounter(db, sessionId, startedAt);
  const provenanceId = await db.provenance.add({
    sessionId,
    kind: 'shadow-veto',
    sources: [`goal:${decision.goal.id}`, `tool:${decision.tool.name}`, `pattern:${veto.pattern.name}`],
    confidence: 1,
    cycle,
    detail: `${veto.pattern.name} vetoed ${action}: ${veto.because}. ${veto.pattern.explanation}`,
    createdAt: startedAt,
  });
  const act = `vetoed by ${veto.pattern.name} (${veto.because}): ${veto.pattern.explanation} -> failed`;
  return {
    record: {
      ...decision.record,
      act,
      outcome: 'failed',
      shadow: { pattern: veto.pattern.name, because: veto.because, provenanceId: provenanceId as number },
    },
    updatedGoals: [goalAfterGate(decision, action)],
  };
}

/**
 * An action that waits for the user (a veto that asks, or a tool that waits by default): it is
 * stored for the user's approval, and its goal waits. Only the shadow's holds are encounters.
 */
export async function settleAsk(
  context: CommitContext,
  decision: Decision,
  { held, isShadow, digest }: Extract<ActGate, { kind: 'ask' }>,
  redTeam: RedTeamFinding | undefined,
): Promise<Settled> {
  const { db, sessionId, cycle, startedAt } = context;
  const action = describeAction(held);
  const veto = { pattern: { name: held.pattern, explanation: held.explanation }, because: held.because };
  if (isShadow) await countShadowEncounter(db, sessionId, startedAt);
  const approvalId = (await db.approvals.add({
    sessionId,
    goalId: decision.goal.id!,
    cycle,
    tool: held.tool,
    input: held.input,
    digest,
    pattern: held.pattern,
    because: held.because,
    explanation: held.explanation,
    status: 'pending',
    createdAt: startedAt,
    ...(redTeam ? { redTeam } : {}),
  })) as number;
  const provenanceId = await db.provenance.add({
    sessionId,
    kind: 'approval-request',
    sources: [
      `goal:${decision.goal.id}`,
      `tool:${held.tool}`,
      `pattern:${veto.pattern.name}`,
      `approval:${approvalId}`,
    ],
    confidence: 1,
    cycle,
    detail: `${veto.pattern.name} holds ${action} for approval: ${veto.because}. ${veto.pattern.explanation}`,
    createdAt: startedAt,
  });
  const statusReason = `waiting for your approval of ${held.tool} (approval #${approvalId}): ${veto.pattern.explanation}`;
  const { goal } = decision;
  return {
    record: {
      ...decision.record,
      act: `held for approval #${approvalId} by ${veto.pattern.name} (${veto.because}) -> waiting`,
      outcome: 'waiting',
      statusChange: statusReason,
      shadow: { pattern: veto.pattern.name, because: veto.because, provenanceId: provenanceId as number, approvalId },
    },
    updatedGoals: [{ ...goal, status: 'waiting', statusReason, cyclesWorked: goal.cyclesWorked + 1 }],
  };
}
