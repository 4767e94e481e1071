import type { AgentApi, ApprovalView } from '../../core/api.ts';
import { type Decision, type DecisionReport, READ_ONLY_REASON, describeDecision } from './approval-messages.ts';

/** What the approvals state needs of the app's agent state. */
export type ApprovalsHost = {
  readonly client: AgentApi;
  readonly sessionId: string;
  readonly canWrite: boolean;
  /** The goals, fetched again after a decision: the goal that waited goes on. */
  readonly run: { loadGoals(): Promise<void> };
};

/** Where the list of approvals stands. */
export type ApprovalsLoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** Where a decision stands: being recorded for an approval, or how the last one went. */
export type DecisionState = { status: 'idle' } | { status: 'deciding'; approvalId: number } | ({ status: 'ended'; approvalId: number } & DecisionReport);

/** How many approvals the screen lists (pending first). */
export const APPROVAL_LIST_LIMIT = 100;

/**
 * The actions the agent holds for the user's approval, shared by the Approvals screen and the
 * navigation's badge. The badge asks only for the count (one row), after each cycle; the screen
 * fetches the list. Count fetches never pile up: one asked for while another is in flight runs
 * once after it.
 */
export class Approvals {
  readonly #host: ApprovalsHost;

  /** Pending approvals first (oldest first), then decided ones (newest first), as the agent lists them. */
  approvals = $state<ApprovalView[]>([]);
  pendingCount = $state(0);
  status = $state<ApprovalsLoadStatus>('idle');
  errorMessage = $state<string | undefined>();
  decision = $state<DecisionState>({ status: 'idle' });

  readonly pending = $derived(this.approvals.filter((approval) => approval.status === 'pending'));
  readonly decided = $derived(this.approvals.filter((approval) => approval.status !== 'pending'));

  /** Orders answers: one that started before an answer already applied is dropped. */
  #listTicket = 0;
  #appliedListTicket = 0;
  #countTicket = 0;
  #appliedCountTicket = 0;
  #countInFlight: Promise<void> | undefined;
  #countPending: Promise<void> | undefined;

  constructor(host: ApprovalsHost) {
    this.#host = host;
  }

  /** Why Approve and Deny are disabled, or undefined when they work. */
  get blockedReason(): string | undefined {
    return this.#host.canWrite ? undefined : READ_ONLY_REASON;
  }

  /** Fetches the list (and the count) again. Never rejects: a failure shows as status 'error'. */
  async load(): Promise<void> {
    const listTicket = ++this.#listTicket;
    const countTicket = ++this.#countTicket;
    if (this.status !== 'ready') this.status = 'loading';
    try {
      const { approvals, pendingCount } = await this.#host.client.approvalList({ sessionId: this.#host.sessionId, limit: APPROVAL_LIST_LIMIT });
      this.#applyCount(countTicket, pendingCount);
      if (listTicket < this.#appliedListTicket) return;
      this.#appliedListTicket = listTicket;
      this.approvals = approvals;
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      if (listTicket < this.#appliedListTicket) return;
      this.errorMessage = textOf(error);
      this.status = 'error';
    }
  }

  /** Fetches only the pending count, for the navigation's badge. Never rejects: the badge keeps its last count. */
  refreshCount(): Promise<void> {
    if (this.#countPending) return this.#countPending;
    if (this.#countInFlight) {
      // The fetch in flight may have started before the cycle the caller wants counted: one more after it.
      this.#countPending = this.#countInFlight.then(() => {
        this.#countPending = undefined;
        return this.refreshCount();
      });
      return this.#countPending;
    }
    this.#countInFlight = this.#fetchCount().finally(() => {
      this.#countInFlight = undefined;
    });
    return this.#countInFlight;
  }

  /** Approves or denies a pending action, says what happens next, and fetches the approvals and the goals again. Never rejects. */
  async decide(approvalId: number, decision: Decision, reason?: string): Promise<void> {
    if (this.decision.status === 'deciding' || this.blockedReason !== undefined) return;
    this.decision = { status: 'deciding', approvalId };
    const trimmed = reason?.trim();
    try {
      const result = await this.#host.client.approvalDecide({
        sessionId: this.#host.sessionId,
        approvalId,
        decision,
        ...(decision === 'deny' && trimmed ? { reason: trimmed } : {}),
      });
      this.decision = { status: 'ended', approvalId, ...describeDecision(decision, result) };
    } catch (error) {
      this.decision = { status: 'ended', approvalId, tone: 'failure', message: `The decision was not recorded: ${textOf(error)}`, problems: [] };
    }
    await Promise.all([this.load(), this.#host.run.loadGoals()]);
  }

  /** Forgets how the last decision went (when the screen opens again, it would be stale). */
  forgetDecision(): void {
    if (this.decision.status === 'ended') this.decision = { status: 'idle' };
  }

  async #fetchCount(): Promise<void> {
    const ticket = ++this.#countTicket;
    try {
      const { pendingCount } = await this.#host.client.approvalList({ sessionId: this.#host.sessionId, limit: 1 });
      this.#applyCount(ticket, pendingCount);
    } catch {
      // The badge is a hint: a failed count keeps the last one, and the screen itself reports failures.
    }
  }

  #applyCount(ticket: number, pendingCount: number): void {
    if (ticket < this.#appliedCountTicket) return;
    this.#appliedCountTicket = ticket;
    this.pendingCount = pendingCount;
  }
}

/** The text of a thrown value (Comlink carries only an Error's message across threads). */
function textOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
