import type { AgentApi } from '../../core/api.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import { messageOf } from '../common/error-message.ts';
import type { LoadStatus } from './agent-run.svelte.ts';
import { type PlanView, plansByGoal } from './plan-messages.ts';

/** What the plans state needs of the app's agent state. */
export type PlansHost = {
  readonly client: AgentApi;
  readonly sessionId: string;
};

/**
 * The goals' plans, for the Goals screen: fetched once for the whole list when the screen opens,
 * after each cycle (a cycle takes a step, or ends a plan and makes the next) and after a
 * reflection (which may supersede a plan). Fetches never overlap (see CoalescedFetch).
 */
export class GoalPlans {
  readonly #host: PlansHost;
  readonly #coalescedLoad = new CoalescedFetch(() => this.#fetch());

  /** Oldest first, as the agent lists them. */
  plans = $state<PlanView[]>([]);
  status = $state<LoadStatus>('idle');
  errorMessage = $state<string | undefined>();

  /** Each goal's plans, by the goal's id: the latest, and the earlier ones newest first. */
  readonly byGoal = $derived(plansByGoal(this.plans));

  constructor(host: PlansHost) {
    this.#host = host;
  }

  /** Fetches the plans again. Never rejects: a failure shows as status 'error'. */
  load(): Promise<void> {
    return this.#coalescedLoad.run();
  }

  async #fetch(): Promise<void> {
    if (this.status !== 'ready') this.status = 'loading';
    try {
      const { plans } = await this.#host.client.planList({ sessionId: this.#host.sessionId });
      this.plans = plans;
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }
}
