import type { AgentApi, ApprovalView } from '../../core/api.ts';
import { describeProblem } from '../../core/result.ts';

/**
 * The words of the Approvals screen, kept apart from its components so they can be tested:
 * statuses, what a decision leads to, and the count the navigation shows.
 */

export type ApprovalStatus = ApprovalView['status'];
export type Decision = 'approve' | 'deny';

/** An approval's status as its badge reads. */
export const APPROVAL_STATUS_LABELS = {
  pending: 'Pending',
  approved: 'Approved',
  denied: 'Denied',
  done: 'Done',
  invalidated: 'Invalidated',
} as const satisfies Record<ApprovalStatus, string>;

/** The colour of an approval's status badge (the tones of goals/badge.svelte). */
export const APPROVAL_STATUS_TONES = {
  pending: 'accent',
  approved: 'success',
  denied: 'danger',
  done: 'success',
  invalidated: 'neutral',
} as const satisfies Record<ApprovalStatus, 'accent' | 'success' | 'danger' | 'neutral'>;

/** What a decision leads to, said after it is recorded. */
export const DECISION_OUTCOMES = {
  approve: 'Approved: run the agent to carry it out.',
  deny: 'Denied: the goal goes on without it.',
} as const satisfies Record<Decision, string>;

export const READ_ONLY_REASON = 'Anima is open in another tab, and only that tab can change the session: close it to approve or deny actions here.';

/** How a decision went: what happens next, or why it was not recorded. */
export type DecisionReport = { tone: 'success'; message: string } | { tone: 'failure'; message: string; problems: string[] };

/** Says how a decision went, from approvalDecide's answer. */
export function describeDecision(decision: Decision, result: Awaited<ReturnType<AgentApi['approvalDecide']>>): DecisionReport {
  if (result.ok) return { tone: 'success', message: DECISION_OUTCOMES[decision] };
  return { tone: 'failure', message: 'The decision was not recorded:', problems: result.problems.map(describeProblem) };
}

/** The navigation badge's words for screen readers: "1 pending approval". */
export function pendingCountText(count: number): string {
  return `${count.toLocaleString('en')} pending ${count === 1 ? 'approval' : 'approvals'}`;
}

/** An approval's heading: "kg_query for “Learn about Mars”". */
export function approvalTitle(approval: Pick<ApprovalView, 'tool' | 'goalDescription'>): string {
  return `${approval.tool} for “${approval.goalDescription}”`;
}

/** A moment as the screens show it, in the reader's time zone: "5 Mar 2026, 14:03". */
export function dateTimeText(milliseconds: number): string {
  return new Date(milliseconds).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
