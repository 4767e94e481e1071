import { getContext, setContext, untrack } from 'svelte';
import type { AgentApi, GraphStats, OpenProgress, SessionEvent } from '#core/api.ts';
import { Approvals } from './approvals/approvals.svelte.ts';
import { CoalescedFetch } from './common/coalesced-fetch.ts';
import { messageOf } from './common/error-message.ts';
import { AgentReflections } from './cycles/reflections.svelte.ts';
import { AgentRun } from './goals/agent-run.svelte.ts';
import { GraphImport } from './knowledge/graph-import.svelte.ts';
import { ModelsView } from './models/models.svelte.ts';
import { SessionsView } from './sessions/sessions.svelte.ts';
import { StartJourney } from './start/start-journey.svelte.ts';

/** Where the app stands with the agent worker. */
export type AgentStatus = 'opening' | 'ready' | 'error';

/** The session the agent works in. */
export type SessionSummary = { id: string; name: string };

/**
 * The app's shared, reactive view of the agent: whether it is open, its session, the graph's
 * counts, and the client every screen calls. Screens read it with {@link useAgent}.
 */
export class AgentState {
  status = $state<AgentStatus>('opening');
  session = $state<SessionSummary | undefined>();
  stats = $state<GraphStats | undefined>();
  /** The latest report of the stored graph's load or the starter graph's import, while opening. */
  openProgress = $state<OpenProgress | undefined>();
  errorMessage = $state<string | undefined>();
  /** False while another tab holds the session: this one shows it read-only. */
  canWrite = $state(true);
  /** True once this tab has taken the session over from another tab, which closed. */
  hasTakenOver = $state(false);
  /** Goes up whenever the graph changes, so views that show parts of it fetch them again. */
  graphRevision = $state(0);
  /** Goes up whenever another tab changes the session (or this one takes it over), so views of what is stored fetch it again. */
  storedRevision = $state(0);
  readonly client: AgentApi;
  /** The goals, the cycle log and the run in progress, shared by the Goals and Cycles screens. */
  readonly run: AgentRun;
  /** The actions waiting for the user's approval, shared by the Approvals screen and the navigation's badge. */
  readonly approvals: Approvals;
  /** The agent's reflections and its planning and reflection settings, shared by the run controls, the Cycles, Goals and Settings screens. */
  readonly reflections: AgentReflections;
  /** The GPU, the WebLLM models and a download in progress, shared by the Models screen and the Settings screen's model choice. */
  readonly models: ModelsView;
  /** The Sessions screen's list and what its last change did, kept while the app opens another session. */
  readonly sessions: SessionsView;
  /** A graph file's import, kept with its progress and report while the user visits other screens. */
  readonly graphImport: GraphImport;
  /** A newcomer's way in (the start screen's), kept while the app opens the session it made. */
  readonly start: StartJourney;
  /** Reads the session again after other tabs' changes: one read at a time, however many notices come. */
  readonly #coalescedReload = new CoalescedFetch(() => this.#reload());
  #isWatching = false;

  constructor(client: AgentApi) {
    this.client = client;
    this.run = new AgentRun(this);
    this.approvals = new Approvals(this);
    this.reflections = new AgentReflections(this);
    this.models = new ModelsView(this);
    this.sessions = new SessionsView(this);
    this.graphImport = new GraphImport(this);
    this.start = new StartJourney(this);
  }

  /** The open session's id; views call it only once the status is 'ready'. */
  get sessionId(): string {
    if (!this.session)
      throw new Error('the agent has no open session yet: render this view only when the status is ready');
    return this.session.id;
  }

  /** Opens the agent's session (loading the starter graph on first start). Never rejects: failures become the 'error' status. */
  async open(): Promise<void> {
    this.status = 'opening';
    this.errorMessage = undefined;
    try {
      const opened = await this.client.open({}, (progress) => {
        this.openProgress = progress;
      });
      this.showSession(opened.session);
      this.stats = opened.stats;
      this.canWrite = opened.canWrite;
      this.status = 'ready';
      this.#watchSession();
    } catch (error) {
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }

  /**
   * Shows the session the agent has open: under a new name, or another one (switched here or in
   * the writing tab), without the old one's cycles; the screens, keyed on the session, start afresh.
   */
  showSession(session: SessionSummary): void {
    if (session.id !== this.session?.id) this.#forgetSessionState();
    this.session = session;
  }

  /**
   * Opens the active session afresh after this tab switched to another, deleted the open one or
   * replaced it by an import: what was shown of the session before is forgotten. Never rejects.
   */
  async reopen(): Promise<void> {
    this.#forgetSessionState();
    await this.open();
  }

  /** Forgets the shared lists of the session on show (goals, cycles, approvals, reflections): each screen fetches its session's own. */
  #forgetSessionState(): void {
    this.run.forgetSession();
    this.approvals.forgetSession();
    this.reflections.forgetSession();
  }

  /** Listens, for the life of the page, to what happens to the session outside this tab's calls. */
  #watchSession(): void {
    if (this.#isWatching) return;
    this.#isWatching = true;
    // It ends only if the worker is gone, and then every other call fails and says so.
    void this.client
      .sessionWatch({ operationId: crypto.randomUUID() }, (event) => this.#onSessionEvent(event))
      .catch(() => undefined);
  }

  #onSessionEvent(event: SessionEvent): void {
    switch (event.kind) {
      case 'changed':
        break;
      case 'write-access':
        // The watch says so at once in the tab that held it from the start.
        if (this.canWrite) return;
        this.canWrite = true;
        this.hasTakenOver = true;
        break;
    }
    void this.#coalescedReload.run();
  }

  /**
   * Reads the session again: which one is active (the writing tab may have switched), the
   * graph's counts, and the lists on show. Never rejects: a failed read keeps what is shown,
   * and the next notice reads again.
   */
  async #reload(): Promise<void> {
    let opened: Awaited<ReturnType<AgentApi['open']>>;
    try {
      opened = await this.client.open({});
    } catch {
      return;
    }
    this.showSession(opened.session);
    this.graphChanged(opened.stats);
    this.storedRevision += 1;
    const { run } = this;
    await Promise.all([
      run.goalsStatus === 'idle' ? undefined : run.loadGoals(),
      run.cyclesStatus === 'idle' ? undefined : run.loadCycles(),
      run.inference === undefined ? undefined : run.loadInference(),
    ]);
  }

  /** Records that the graph changed: new counts, and views showing the graph fetch again. */
  graphChanged(stats: GraphStats): void {
    this.stats = stats;
    this.graphRevision += 1;
  }
}

const AGENT_KEY = Symbol('anima-agent');

/** Makes the agent state available to the component tree below the caller. */
export function setAgent(agent: AgentState): AgentState {
  return setContext(AGENT_KEY, agent);
}

/** The agent state set by an ancestor with {@link setAgent}. */
export function useAgent(): AgentState {
  const agent = getContext<AgentState | undefined>(AGENT_KEY);
  if (!agent) throw new Error('useAgent() needs an ancestor component that called setAgent()');
  return agent;
}

/**
 * Calls `read` once the agent is ready and again whenever another tab changes what is stored (a
 * tab that only shows the session follows the one that writes): for views of what cycles do not
 * change (settings, the catalog, the models). Call it while a component initialises.
 */
export function readEachStoredChange(agent: AgentState, read: () => Promise<void>): void {
  $effect(() => {
    if (agent.status !== 'ready') return;
    void agent.storedRevision;
    untrack(() => void read());
  });
}

/**
 * Calls `refresh` once the agent is ready and again as each cycle commits, whichever screen ran
 * it, and whenever another tab changes the session: for views of what cycles change. Call it
 * while a component initialises; the effect it sets up ends with the component.
 */
export function refreshEachCycle(agent: AgentState, refresh: () => Promise<void>): void {
  /** The newest cycle the shared run state knows of. */
  const latestCycle = $derived(agent.run.cycles[0]?.cycle);
  $effect(() => {
    if (agent.status !== 'ready') return;
    void latestCycle;
    void agent.storedRevision;
    // Untracked, so that the refresh's own state changes do not start another.
    untrack(() => void refresh());
  });
}
