import type { AgentApi } from '#core/api.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import { messageOf } from '../common/error-message.ts';
import type { LoadStatus } from './agent-run.svelte.ts';

/** What a per-goal list needs of the app's agent state. */
export type PerGoalListHost = {
  readonly client: AgentApi;
  readonly sessionId: string;
};

/**
 * Something the agent keeps for goals (their notes, their plans), for the Goals screen: fetched
 * for the whole session at once, when the screen opens and after each cycle, and grouped by goal.
 * Fetches never overlap (see CoalescedFetch).
 */
export class PerGoalList<Item, Grouped> {
  readonly #host: PerGoalListHost;
  readonly #fetchItems: (host: PerGoalListHost) => Promise<Item[]>;
  readonly #group: (items: readonly Item[]) => Grouped;
  readonly #coalescedLoad = new CoalescedFetch(() => this.#fetch());

  /** In the order the agent lists them. */
  items = $state<Item[]>([]);
  status = $state<LoadStatus>('idle');
  errorMessage = $state<string | undefined>();

  readonly byGoal = $derived.by(() => this.#group(this.items));

  constructor(
    host: PerGoalListHost,
    fetchItems: (host: PerGoalListHost) => Promise<Item[]>,
    group: (items: readonly Item[]) => Grouped,
  ) {
    this.#host = host;
    this.#fetchItems = fetchItems;
    this.#group = group;
  }

  /** Fetches the items again. Never rejects: a failure shows as status 'error'. */
  load(): Promise<void> {
    return this.#coalescedLoad.run();
  }

  async #fetch(): Promise<void> {
    if (this.status !== 'ready') this.status = 'loading';
    try {
      this.items = await this.#fetchItems(this.#host);
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }
}
