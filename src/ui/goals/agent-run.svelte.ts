import type { AgentApi, CycleRecord, GoalView, GraphStats } from '#core/api.ts';
import { messageOf } from '../common/error-message.ts';
import type { InferenceView } from '../common/model-messages.ts';
import { mergeCycles } from '../cycles/cycle-log.ts';
import { NO_NEXT_GOAL_TEXT, goalWorkedOnNext, showingPlanText } from './plan-messages.ts';
import {
  type LiveModelUse,
  type RunKind,
  type RunReport,
  addModelUse,
  describeRunEnd,
  runBlockedReason,
} from './run-messages.ts';

/** What the run state needs of the app's agent state. */
export type RunHost = {
  readonly client: AgentApi;
  readonly sessionId: string;
  readonly canWrite: boolean;
  /** What the waiting goals wait for, as the navigation's badge counts it. */
  readonly approvals: { readonly pendingCount: number; readonly pendingQuestionCount: number };
  graphChanged(stats: GraphStats): void;
};

/** Whether cycles are running, and how far the current run has got. */
export type RunActivity =
  | { status: 'idle' }
  | {
      status: 'running';
      operationId: string;
      kind: RunKind;
      maxCycles: number;
      cyclesRun: number;
      isPausing: boolean;
      modelUse?: LiveModelUse | undefined;
    };

/** Where a list fetched from the agent stands. */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/**
 * The agent's goals, its cycle log and the run in progress, shared by the Goals and Cycles
 * screens (and their run controls), so a run started on one screen shows on the other.
 */
export class AgentRun {
  readonly #host: RunHost;
  readonly #generateId: () => string;

  /** Every goal of the session, in the order they were added (sub-goals after their parent). */
  goals = $state<GoalView[]>([]);
  goalsStatus = $state<LoadStatus>('idle');
  goalsError = $state<string | undefined>();
  /** The latest cycles, newest first: the stored log, and each cycle a run commits as it commits. */
  cycles = $state<CycleRecord[]>([]);
  cyclesStatus = $state<LoadStatus>('idle');
  cyclesError = $state<string | undefined>();
  activity = $state<RunActivity>({ status: 'idle' });
  /** What the run controls did last: how the latest run ended, a reflection, a plan shown; cleared when a run starts. */
  report = $state<RunReport | undefined>();
  /** The goal whose plan the Goals screen opens (the Plan button), until that goal's card has opened it. */
  planRequest = $state<{ goalId: number } | undefined>();
  /** Which model runs bind (this device's setting), read when the run controls open and put by the Settings screen when it changes. */
  inference = $state<InferenceView | undefined>();
  inferenceError = $state<string | undefined>();

  readonly hasActiveGoal = $derived(this.goals.some((goal) => goal.status === 'active'));
  readonly hasWaitingGoal = $derived(this.goals.some((goal) => goal.status === 'waiting'));
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- made afresh by $derived, never changed
  readonly goalsById = $derived(new Map(this.goals.map((goal) => [goal.id, goal])));
  /** The goal the agent works on next: the active one with the highest priority, then the lowest id. */
  readonly nextGoal = $derived(goalWorkedOnNext(this.goals));

  /** Orders goal list answers: one that started before a newer answer or a local change is dropped. */
  #ticket = 0;
  #appliedTicket = 0;
  #isRefreshingGoals = false;
  #isRefreshPending = false;

  constructor(host: RunHost, generateId: () => string = () => crypto.randomUUID()) {
    this.#host = host;
    this.#generateId = generateId;
  }

  /** Why no run can start now (another tab writes, no goal is active), or undefined. */
  get blockedReason(): string | undefined {
    const waiting = {
      approvals: this.#host.approvals.pendingCount,
      questions: this.#host.approvals.pendingQuestionCount,
    };
    return runBlockedReason({
      canWrite: this.#host.canWrite,
      hasLoadedGoals: this.goalsStatus === 'ready',
      hasActiveGoal: this.hasActiveGoal,
      hasWaitingGoal: this.hasWaitingGoal,
      waiting,
    });
  }

  get isRunning(): boolean {
    return this.activity.status === 'running';
  }

  /** Fetches the goals again. Never rejects: a failure shows as goalsStatus 'error'. */
  async loadGoals(): Promise<void> {
    const ticket = ++this.#ticket;
    const { sessionId } = this.#host;
    if (this.goalsStatus !== 'ready') this.goalsStatus = 'loading';
    try {
      const { goals } = await this.#host.client.goalList({ sessionId });
      if (ticket < this.#appliedTicket || sessionId !== this.#host.sessionId) return;
      this.#appliedTicket = ticket;
      this.goals = goals;
      this.goalsStatus = 'ready';
      this.goalsError = undefined;
    } catch (error) {
      if (ticket < this.#appliedTicket || sessionId !== this.#host.sessionId) return;
      this.goalsError = messageOf(error);
      this.goalsStatus = 'error';
    }
  }

  /** Fetches the stored cycle log and joins it with the cycles already shown. Never rejects. */
  async loadCycles(): Promise<void> {
    const { sessionId } = this.#host;
    if (this.cyclesStatus !== 'ready') this.cyclesStatus = 'loading';
    try {
      const { cycles } = await this.#host.client.cycleList({ sessionId });
      // The log of a session no longer open would join the new one's.
      if (sessionId !== this.#host.sessionId) return;
      this.cycles = mergeCycles(this.cycles, cycles);
      this.cyclesStatus = 'ready';
      this.cyclesError = undefined;
    } catch (error) {
      if (sessionId !== this.#host.sessionId) return;
      this.cyclesError = messageOf(error);
      this.cyclesStatus = 'error';
    }
  }

  /** Reads which model runs bind. Never rejects: a failure shows as `inferenceError`. */
  async loadInference(): Promise<void> {
    try {
      this.inference = await this.#host.client.inferenceGet({});
      this.inferenceError = undefined;
    } catch (error) {
      this.inferenceError = messageOf(error);
    }
  }

  /** Shows the model runs bind as the agent just saved it. */
  putInference(view: InferenceView): void {
    this.inference = view;
    this.inferenceError = undefined;
  }

  /**
   * Forgets the goals, the cycle log and what the run controls said: another session is open now.
   * Lists fetched before are 'loading' until fetched for it, so nothing of the old one shows meanwhile.
   */
  forgetSession(): void {
    this.goals = [];
    if (this.goalsStatus !== 'idle') this.goalsStatus = 'loading';
    this.goalsError = undefined;
    this.cycles = [];
    if (this.cyclesStatus !== 'idle') this.cyclesStatus = 'loading';
    this.cyclesError = undefined;
    this.report = undefined;
    this.planRequest = undefined;
  }

  /** Shows a goal as the agent just returned it (added or updated), ahead of any list fetched before. */
  putGoal(goal: GoalView): void {
    this.#appliedTicket = ++this.#ticket;
    const index = this.goals.findIndex((known) => known.id === goal.id);
    if (index === -1) this.goals = [...this.goals, goal].sort((a, b) => a.id - b.id);
    else this.goals[index] = goal;
  }

  /**
   * Runs cycles: one, a number, or until no goal is active. Each committed cycle joins the log
   * at once; afterwards the goals and the graph's counts are fetched again (inference in a
   * cycle adds facts). Never rejects: the outcome is in `report`.
   */
  async start(kind: RunKind, maxCycles: number): Promise<void> {
    if (this.activity.status === 'running' || this.blockedReason !== undefined) return;
    const operationId = this.#generateId();
    const { client, sessionId } = this.#host;
    this.activity = { status: 'running', operationId, kind, maxCycles, cyclesRun: 0, isPausing: false };
    this.report = undefined;
    try {
      const result = await client.agentRun({ sessionId, operationId, maxCycles }, (record) => {
        this.cycles = mergeCycles(this.cycles, [record]);
        if (this.activity.status === 'running' && this.activity.operationId === operationId) {
          this.activity.cyclesRun += 1;
          this.activity.modelUse = addModelUse(this.activity.modelUse, record.model);
        }
        this.#refreshGoalsSoon();
      });
      this.report = describeRunEnd(result);
    } catch (error) {
      this.report = { tone: 'failure', message: `The run stopped with an error: ${messageOf(error)}`, problems: [] };
    } finally {
      this.activity = { status: 'idle' };
    }
    await this.loadGoals();
    try {
      this.#host.graphChanged(await client.kgStats({ sessionId }));
    } catch (error) {
      this.report = {
        tone: 'failure',
        message: `${this.report?.message ?? ''} The graph's counts could not be refreshed: ${messageOf(error)}`.trim(),
        problems: [],
      };
    }
  }

  /** Asks the running cycles to stop after the current one. Never rejects. */
  async pause(): Promise<void> {
    if (this.activity.status !== 'running' || this.activity.isPausing) return;
    const { operationId } = this.activity;
    this.activity.isPausing = true;
    try {
      const { isCancelled } = await this.#host.client.cancel({ operationId });
      // Not known to the agent (yet, or any more): let the user ask again.
      if (!isCancelled && this.activity.status === 'running' && this.activity.operationId === operationId)
        this.activity.isPausing = false;
    } catch (error) {
      if (this.activity.status === 'running' && this.activity.operationId === operationId)
        this.activity.isPausing = false;
      this.report = { tone: 'failure', message: `The run could not be paused: ${messageOf(error)}`, problems: [] };
    }
  }

  /**
   * Asks the Goals screen to open the plan of the goal the agent works on next, and says so; says
   * why not when no goal is active. Returns whether there is a plan to show (the caller then
   * shows the Goals screen).
   */
  requestNextPlan(): boolean {
    const goal = this.nextGoal;
    if (!goal) {
      this.report = { tone: 'notice', message: NO_NEXT_GOAL_TEXT, problems: [] };
      return false;
    }
    this.planRequest = { goalId: goal.id };
    this.report = { tone: 'notice', message: showingPlanText(goal), problems: [] };
    return true;
  }

  /** Shows what the run controls did (a reflection, say) in their status line. */
  showReport(report: RunReport): void {
    this.report = report;
  }

  /** Fetches the goals once per burst of cycles: at most one fetch in flight, and one more after it. */
  #refreshGoalsSoon(): void {
    if (this.#isRefreshingGoals) {
      this.#isRefreshPending = true;
      return;
    }
    this.#isRefreshingGoals = true;
    void this.loadGoals().finally(() => {
      this.#isRefreshingGoals = false;
      if (this.#isRefreshPending) {
        this.#isRefreshPending = false;
        this.#refreshGoalsSoon();
      }
    });
  }
}
