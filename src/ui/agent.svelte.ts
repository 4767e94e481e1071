import { getContext, setContext, untrack } from 'svelte';
import type { AgentApi, GraphStats, OpenProgress } from '../core/api.ts';
import { Approvals } from './approvals/approvals.svelte.ts';
import { messageOf } from './common/error-message.ts';
import { AgentReflections } from './cycles/reflections.svelte.ts';
import { AgentRun } from './goals/agent-run.svelte.ts';
import { ModelsView } from './models/models.svelte.ts';

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
  /** Goes up whenever the graph changes, so views that show parts of it fetch them again. */
  graphRevision = $state(0);
  readonly client: AgentApi;
  /** The goals, the cycle log and the run in progress, shared by the Goals and Cycles screens. */
  readonly run: AgentRun;
  /** The actions waiting for the user's approval, shared by the Approvals screen and the navigation's badge. */
  readonly approvals: Approvals;
  /** The agent's reflections and its planning and reflection settings, shared by the run controls, the Cycles, Goals and Settings screens. */
  readonly reflections: AgentReflections;
  /** The GPU, the WebLLM models and a download in progress, shared by the Models screen and the Settings screen's model choice. */
  readonly models: ModelsView;

  constructor(client: AgentApi) {
    this.client = client;
    this.run = new AgentRun(this);
    this.approvals = new Approvals(this);
    this.reflections = new AgentReflections(this);
    this.models = new ModelsView(this);
  }

  /** The open session's id; views call it only once the status is 'ready'. */
  get sessionId(): string {
    if (!this.session) throw new Error('the agent has no open session yet: render this view only when the status is ready');
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
      this.session = opened.session;
      this.stats = opened.stats;
      this.canWrite = opened.canWrite;
      this.status = 'ready';
    } catch (error) {
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
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
 * Calls `refresh` once the agent is ready and again as each cycle commits, whichever screen ran
 * it: for views of what cycles change. Call it while a component initialises; the effect it sets
 * up ends with the component.
 */
export function refreshEachCycle(agent: AgentState, refresh: () => Promise<void>): void {
  /** The newest cycle the shared run state knows of. */
  const latestCycle = $derived(agent.run.cycles[0]?.cycle);
  $effect(() => {
    if (agent.status !== 'ready') return;
    void latestCycle;
    // Untracked, so that the refresh's own state changes do not start another.
    untrack(() => void refresh());
  });
}
