import type { AgentApi, ApprovalView, QuestionView } from '#core/api.ts';
import { messageOf } from '../common/error-message.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import {
  type Decision,
  type DecisionReport,
  READ_ONLY_REASON,
  describeAnswer,
  describeDecision,
} from './approval-messages.ts';

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
export type DecisionState =
  | { status: 'idle' }
  | { status: 'deciding'; approvalId: number }
  | ({ status: 'ended'; approvalId: number } & DecisionReport);

/** Where an answer stands: being recorded for a question, or how the last one went. */
export type AnswerState =
  | { status: 'idle' }
  | { status: 'answering'; questionId: number }
  | ({ status: 'ended'; questionId: number } & DecisionReport);

/** How many approvals the screen lists (pending first). */
export const APPROVAL_LIST_LIMIT = 100;

/**
 * What waits for the user: the actions the agent holds for approval and the questions it asked,
 * shared by the Approvals screen and the navigation's badge. The badge asks only for the counts
 * (one row each), after each cycle; the screen fetches the lists. Count fetches never pile up:
 * one asked for while another is in flight runs once after it.
 */
export class Approvals {
  readonly #host: ApprovalsHost;
  /** Fetches never pile up (see CoalescedFetch). */
  readonly #coalescedRefreshCount = new CoalescedFetch(() => this.#fetchCount());

  /** Pending approvals first (oldest first), then decided ones (newest first), as the agent lists them. */
  approvals = $state<ApprovalView[]>([]);
  pendingCount = $state(0);
  /** Unanswered questions first (oldest first), then answered or withdrawn ones (newest first). */
  questions = $state<QuestionView[]>([]);
  pendingQuestionCount = $state(0);
  status = $state<ApprovalsLoadStatus>('idle');
  errorMessage = $state<string | undefined>();
  decision = $state<DecisionState>({ status: 'idle' });
  answer = $state<AnswerState>({ status: 'idle' });

  readonly pending = $derived(this.approvals.filter((approval) => approval.status === 'pending'));
  readonly decided = $derived(this.approvals.filter((approval) => approval.status !== 'pending'));
  readonly pendingQuestions = $derived(this.questions.filter((question) => question.status === 'pending'));
  readonly closedQuestions = $derived(this.questions.filter((question) => question.status !== 'pending'));

  /** Orders answers: one that started before an answer already applied is dropped. */
  #listTicket = 0;
  #appliedListTicket = 0;
  #countTicket = 0;
  #appliedCountTicket = 0;

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
    const { sessionId } = this.#host;
    if (this.status !== 'ready') this.status = 'loading';
    try {
      const [{ approvals, pendingCount }, { questions, pendingCount: pendingQuestionCount }] = await Promise.all([
        this.#host.client.approvalList({ sessionId, limit: APPROVAL_LIST_LIMIT }),
        this.#host.client.questionList({ sessionId, limit: APPROVAL_LIST_LIMIT }),
      ]);
      if (sessionId !== this.#host.sessionId) return;
      this.#applyCount(countTicket, pendingCount, pendingQuestionCount);
      if (listTicket < this.#appliedListTicket) return;
      this.#appliedListTicket = listTicket;
      this.approvals = approvals;
      this.questions = questions;
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      if (listTicket < this.#appliedListTicket || sessionId !== this.#host.sessionId) return;
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }

  /** Fetches only the pending count, for the navigation's badge. Never rejects: the badge keeps its last count. */
  refreshCount(): Promise<void> {
    return this.#coalescedRefreshCount.run();
  }

  /** Approves or denies a pending action, says what happens next, and fetches the approvals and the goals again. Never rejects. */
  async decide(
    approvalId: number,
    decision: Decision,
    reason?: string,
    editedInput?: { input: unknown },
  ): Promise<void> {
    if (this.decision.status === 'deciding' || this.blockedReason !== undefined) return;
    this.decision = { status: 'deciding', approvalId };
    const trimmed = reason?.trim();
    try {
      const result = await this.#host.client.approvalDecide({
        sessionId: this.#host.sessionId,
        approvalId,
        decision,
        ...(decision === 'deny' && trimmed ? { reason: trimmed } : {}),
        ...(decision === 'approve' && editedInput ? { input: editedInput.input } : {}),
      });
      this.decision = { status: 'ended', approvalId, ...describeDecision(decision, result) };
    } catch (error) {
      this.decision = {
        status: 'ended',
        approvalId,
        tone: 'failure',
        message: `The decision was not recorded: ${messageOf(error)}`,
        problems: [],
      };
    }
    await Promise.all([this.load(), this.#host.run.loadGoals()]);
  }

  /** Answers a question with facts and/or a note, says what happens next, and fetches the lists and the goals again. Never rejects. */
  async answerQuestion(questionId: number, facts: string, note: string): Promise<void> {
    if (this.answer.status === 'answering' || this.blockedReason !== undefined) return;
    this.answer = { status: 'answering', questionId };
    try {
      const result = await this.#host.client.questionAnswer({
        sessionId: this.#host.sessionId,
        questionId,
        facts,
        note,
      });
      this.answer = { status: 'ended', questionId, ...describeAnswer(result) };
    } catch (error) {
      this.answer = {
        status: 'ended',
        questionId,
        tone: 'failure',
        message: `The answer was not recorded: ${messageOf(error)}`,
        problems: [],
      };
    }
    await Promise.all([this.load(), this.#host.run.loadGoals()]);
  }

  /** Forgets the lists, the counts and the last decision and answer: another session is open now; lists fetched before are 'loading' until fetched for it. */
  forgetSession(): void {
    this.approvals = [];
    this.questions = [];
    this.pendingCount = 0;
    this.pendingQuestionCount = 0;
    if (this.status !== 'idle') this.status = 'loading';
    this.errorMessage = undefined;
    this.decision = { status: 'idle' };
    this.answer = { status: 'idle' };
  }

  /** Forgets how the last decision and answer went (when the screen opens again, they would be stale). */
  forgetDecision(): void {
    if (this.decision.status === 'ended') this.decision = { status: 'idle' };
    if (this.answer.status === 'ended') this.answer = { status: 'idle' };
  }

  async #fetchCount(): Promise<void> {
    const ticket = ++this.#countTicket;
    const { sessionId } = this.#host;
    try {
      const [{ pendingCount }, { pendingCount: pendingQuestionCount }] = await Promise.all([
        this.#host.client.approvalList({ sessionId, limit: 1 }),
        this.#host.client.questionList({ sessionId, limit: 1 }),
      ]);
      if (sessionId === this.#host.sessionId) this.#applyCount(ticket, pendingCount, pendingQuestionCount);
    } catch {
      // The badge is a hint: a failed count keeps the last one, and the screen itself reports failures.
    }
  }

  #applyCount(ticket: number, pendingCount: number, pendingQuestionCount: number): void {
    if (ticket < this.#appliedCountTicket) return;
    this.#appliedCountTicket = ticket;
    this.pendingCount = pendingCount;
    this.pendingQuestionCount = pendingQuestionCount;
  }
}
