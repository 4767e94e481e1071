import { type AgentApi, type FileKind, fileKindOf } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import { messageOf } from '../common/error-message.ts';
import type { AgentRun } from '../goals/agent-run.svelte.ts';
import type { GraphImport } from '../knowledge/graph-import.svelte.ts';
import { hrefOf, type ScreenPath } from '../routes.ts';
import { sessionNameOfFile } from './start-messages.ts';

/** What the start screen needs of the app's agent state. */
export type StartHost = {
  readonly client: AgentApi;
  readonly sessionId: string;
  readonly canWrite: boolean;
  readonly run: AgentRun;
  readonly graphImport: GraphImport;
  readonly sessions: { chooseFile(fileName: string, bytes: Uint8Array): Promise<void> };
  reopen(): Promise<void>;
};

/** The three ways in: the starter graph, an empty session, a file of the user's. */
export type Way = 'starter' | 'empty' | 'file';

/** A file given to the start screen (chosen, or dropped anywhere), once read: its kind decides where it goes. */
export type GivenFile =
  | { status: 'reading'; fileName: string }
  | { status: 'unknown'; fileName: string; message: string }
  | { status: 'graph'; file: File; format: Extract<FileKind, { kind: 'graph' }>['format'] };

/** A psyche or persona file handed to the screen that previews it (it takes the file once, as it opens). */
export type HandedFile = { kind: 'psyche' | 'persona'; fileName: string; bytes: Uint8Array };

/** The screen that previews each kind of file the start screen hands on. */
const PREVIEW_SCREEN: Record<Exclude<FileKind['kind'], 'graph'>, ScreenPath> = {
  psyche: 'psyche',
  persona: 'personas',
  snapshot: 'sessions',
};

export type ExamplesState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; questions: string[] }
  | { status: 'error'; message: string };

/**
 * A newcomer's way in, kept by the app (opening another session shows every screen afresh): the
 * way chosen, a file given and where it went, the example goals of the graph, and the goal tried.
 * Never rejects: failures are in `problem`.
 */
export class StartJourney {
  readonly #host: StartHost;

  way = $state<Way | undefined>();
  /** What is being done, in words, while a session is made or opened. */
  busyText = $state<string | undefined>();
  problem = $state<string | undefined>();
  given = $state<GivenFile | undefined>();
  examples = $state<ExamplesState>({ status: 'idle' });
  /** The example goal the user ran, by its goal's id. */
  triedGoalId = $state<number | undefined>();
  /** A psyche or persona file waiting for its screen to preview it. */
  #handed: HandedFile | undefined;

  constructor(host: StartHost) {
    this.#host = host;
  }

  get isBusy(): boolean {
    return this.busyText !== undefined || this.given?.status === 'reading' || this.#host.graphImport.isImporting;
  }

  /** Explores the starter graph: the session open now on a first visit (it was made with it), else a new one. */
  async exploreStarter(isFirstVisit: boolean): Promise<void> {
    if (!isFirstVisit && !(await this.#openNewSession('Starter graph', 'starter-graph'))) return;
    this.way = 'starter';
    await this.loadExamples();
  }

  /** Starts an empty session, for the user's own facts (a file, an endpoint, goals that learn). */
  async startEmpty(): Promise<void> {
    if (!(await this.#openNewSession('Empty session', 'empty'))) return;
    this.way = 'empty';
    this.examples = { status: 'ready', questions: [] };
  }

  /**
   * Reads a file the user chose or dropped and tells its kind by its content: a graph waits for
   * the user's choice of session; a psyche, persona or snapshot goes to the screen that previews it.
   */
  async giveFile(file: File): Promise<void> {
    if (this.isBusy) return;
    this.problem = undefined;
    this.given = { status: 'reading', fileName: file.name };
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch (error) {
      this.given = {
        status: 'unknown',
        fileName: file.name,
        message: `${file.name} could not be read: ${messageOf(error)}`,
      };
      return;
    }
    const kind = fileKindOf(file.name, bytes);
    // A graph's choice, and what Anima cannot read, show on the start screen (a file may be dropped on any screen).
    if (kind?.kind !== 'psyche' && kind?.kind !== 'persona' && kind?.kind !== 'snapshot')
      location.hash = hrefOf('start');
    if (kind === undefined) {
      this.given = {
        status: 'unknown',
        fileName: file.name,
        message: `${file.name} is none of the files Anima reads (a graph in Turtle, N-Triples or CSV, a psyche.toml, a persona or character card, a session snapshot); nothing changed.`,
      };
      return;
    }
    if (kind.kind === 'graph') {
      this.given = { status: 'graph', file, format: kind.format };
      return;
    }
    this.given = undefined;
    if (kind.kind === 'snapshot') void this.#host.sessions.chooseFile(file.name, bytes);
    else this.#handed = { kind: kind.kind, fileName: file.name, bytes };
    location.hash = hrefOf(PREVIEW_SCREEN[kind.kind]);
  }

  /** The psyche or persona file handed to its screen, once: the screen previews it as if chosen there. */
  takeHandedFile(kind: HandedFile['kind']): HandedFile | undefined {
    const handed = this.#handed;
    if (handed?.kind !== kind) return undefined;
    this.#handed = undefined;
    return handed;
  }

  /** Imports the given graph file: into a session of its own (named after the file), or into the open one. */
  async importGraph(into: 'new-session' | 'open-session'): Promise<void> {
    if (this.given?.status !== 'graph' || this.isBusy) return;
    const { file, format } = this.given;
    if (into === 'new-session' && !(await this.#openNewSession(sessionNameOfFile(file.name), 'empty'))) return;
    this.given = undefined;
    this.way = 'file';
    this.examples = { status: 'loading' };
    await this.#host.graphImport.start(file, format);
    await this.loadExamples();
  }

  /** Fetches the example goals of the open session's graph. Never rejects. */
  async loadExamples(): Promise<void> {
    this.examples = { status: 'loading' };
    try {
      const { questions } = await this.#host.client.questionExamples({ sessionId: this.#host.sessionId });
      this.examples = { status: 'ready', questions };
    } catch (error) {
      this.examples = { status: 'error', message: messageOf(error) };
    }
  }

  /** Gives the agent an example as a goal and runs it until it is done (a question is answered in a cycle or two). */
  async tryExample(question: string): Promise<void> {
    const { client, run } = this.#host;
    if (run.isRunning || !this.#host.canWrite) return;
    this.problem = undefined;
    try {
      const added = await client.goalAdd({ sessionId: this.#host.sessionId, description: question });
      if (!added.ok) {
        this.problem = `The goal was not added: ${added.problems.map(describeProblem).join('; ')}`;
        return;
      }
      run.putGoal(added.goal);
      this.triedGoalId = added.goal.id;
    } catch (error) {
      this.problem = `The goal was not added: ${messageOf(error)}`;
      return;
    }
    if (run.goalsStatus !== 'ready') await run.loadGoals();
    await run.start('some', EXAMPLE_MAX_CYCLES);
  }

  /** Makes a session and opens it (every screen then shows it). Says why when it cannot. */
  async #openNewSession(name: string, start: 'starter-graph' | 'empty'): Promise<boolean> {
    if (this.isBusy) return false;
    this.problem = undefined;
    this.busyText = `Making the session “${name}”…`;
    try {
      const created = await this.#host.client.sessionCreate({ name, start });
      if (!created.ok) {
        this.problem = `The session was not made: ${created.problems.map(describeProblem).join('; ')}`;
        return false;
      }
      const switched = await this.#host.client.sessionSwitch({ sessionId: created.session.id });
      if (!switched.ok) {
        this.problem = `The session was made but not opened: ${switched.problems.map(describeProblem).join('; ')}`;
        return false;
      }
      this.triedGoalId = undefined;
      await this.#host.reopen();
      return true;
    } catch (error) {
      this.problem = `The session was not made: ${messageOf(error)}`;
      return false;
    } finally {
      this.busyText = undefined;
    }
  }
}

/** Enough cycles for an example question (answered in one or two), few enough to stop soon if other goals are active. */
const EXAMPLE_MAX_CYCLES = 5;
