import type { AgentApi } from '#core/api.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import { messageOf } from '../common/error-message.ts';
import type { LoadStatus } from '../goals/agent-run.svelte.ts';
import type { RunReport } from '../goals/run-messages.ts';
import { type AgentSettingsView, type ReflectionView, describeReflect } from './reflection-messages.ts';

/** What the reflections state needs of the app's agent state. */
export type ReflectionsHost = {
  readonly client: AgentApi;
  readonly sessionId: string;
};

/** How many reflections the Cycles screen fetches; older ones stay stored. */
export const REFLECTION_LIST_LIMIT = 100;

/**
 * The agent's reflections and the settings of planning and reflection, shared by the run
 * controls (Reflect), the Cycles screen's Reflections list, the Goals screen's plans and the
 * Settings screen. The list is fetched when shown and after each cycle (a cycle may reflect);
 * a reflection asked for joins it at once.
 */
export class AgentReflections {
  readonly #host: ReflectionsHost;
  readonly #coalescedLoad = new CoalescedFetch(() => this.#fetch());

  /** Newest first, as the agent lists them. */
  reflections = $state<ReflectionView[]>([]);
  status = $state<LoadStatus>('idle');
  errorMessage = $state<string | undefined>();
  /** The session's settings, once fetched (or saved on the Settings screen). */
  settings = $state<AgentSettingsView | undefined>();
  isReflecting = $state(false);
  /** Goes up after each reflection asked for here, so views of what it changes (plans, priorities) fetch again. */
  revision = $state(0);

  constructor(host: ReflectionsHost) {
    this.#host = host;
  }

  /** Fetches the reflections and the settings again. Never rejects: a failure shows as status 'error'. */
  load(): Promise<void> {
    return this.#coalescedLoad.run();
  }

  /** Forgets the reflections and the settings: another session is open now; a list fetched before is 'loading' until fetched for it. */
  forgetSession(): void {
    this.reflections = [];
    if (this.status !== 'idle') this.status = 'loading';
    this.errorMessage = undefined;
    this.settings = undefined;
  }

  /** Shows settings just saved. */
  putSettings(settings: AgentSettingsView): void {
    this.settings = settings;
  }

  /**
   * Asks the agent to reflect now, on the cycles since its last reflection. The reflection joins
   * the list at once. Never rejects: the outcome is the report it returns (for the run controls'
   * status line); undefined when a reflection is already under way.
   */
  async reflect(): Promise<RunReport | undefined> {
    if (this.isReflecting) return undefined;
    this.isReflecting = true;
    try {
      const result = await this.#host.client.reflect({ sessionId: this.#host.sessionId });
      if (result.ok) {
        const { reflection } = result;
        this.reflections = [reflection, ...this.reflections.filter((known) => known.id !== reflection.id)];
        this.revision += 1;
        // A list fetched before the reflection was stored would drop it: fetch once more after any in flight.
        void this.load();
      }
      return describeReflect(result);
    } catch (error) {
      return { tone: 'failure', message: `The agent could not reflect: ${messageOf(error)}`, problems: [] };
    } finally {
      this.isReflecting = false;
    }
  }

  async #fetch(): Promise<void> {
    if (this.status !== 'ready') this.status = 'loading';
    const { client, sessionId } = this.#host;
    try {
      const [{ reflections }, settings] = await Promise.all([
        client.reflectionList({ sessionId, limit: REFLECTION_LIST_LIMIT }),
        client.agentSettingsGet({ sessionId }),
      ]);
      if (sessionId !== this.#host.sessionId) return;
      this.reflections = reflections;
      this.settings = settings;
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      if (sessionId !== this.#host.sessionId) return;
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }
}
