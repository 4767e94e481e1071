import type { AgentApi, SessionImportPreview, SessionView } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import { messageOf } from '../common/error-message.ts';
import type { LoadStatus } from '../goals/agent-run.svelte.ts';
import { downloadFile } from '../common/download.ts';
import {
  SESSIONS_READ_ONLY_REASON,
  type SessionReport,
  checkReport,
  deletedText,
  errorReport,
  refusalReport,
  sessionNameProblem,
  successReport,
} from './session-messages.ts';

/** The session the app has open, as the app's agent state knows it. */
type OpenSession = { id: string; name: string };

/** What the sessions state needs of the app's agent state. */
export type SessionsHost = {
  readonly client: AgentApi;
  readonly canWrite: boolean;
  readonly session: OpenSession | undefined;
  /** Opens the active session afresh, forgetting what was shown of the one before, so that every screen shows it (after a switch, say). Never rejects. */
  reopen(): Promise<void>;
  /** Shows the open session under its new name. */
  showSession(session: OpenSession): void;
};

/** Saves a file through the browser's download. */
export type SaveFile = (bytes: Uint8Array, fileName: string, mediaType: string) => void;

/** A change under way: which session's (none: the list's, as a create), and what it does, in words. */
export type SessionActivity = { sessionId: string | undefined; text: string };

/** How the last change went, and where it shows: on a session's card, or above the list. */
export type SessionOutcome = { sessionId: string | undefined; report: SessionReport };

/** How to import a file whose session is on this device already. */
export type ImportChoice = { as: 'copy'; name: string } | { as: 'replace' };

/** Where importing a snapshot file stands: checked and previewed first, imported only once confirmed. */
export type SessionImportState =
  | { status: 'idle' }
  | { status: 'checking'; fileName: string }
  | { status: 'checked'; fileName: string; bytes: Uint8Array; preview: SessionImportPreview }
  | { status: 'importing'; fileName: string }
  | { status: 'refused'; fileName: string; report: SessionReport }
  | { status: 'imported'; fileName: string; session: SessionView; report: SessionReport };

/**
 * The Sessions screen's state, kept by the app so that what a switch did still shows once the
 * screen starts afresh on the other session: the list (the most recently changed first), making,
 * renaming, copying, deleting and opening sessions, their snapshot files out and in, and checking
 * that one is whole. One change at a time. Never rejects: outcomes are in `outcome` and `importState`.
 */
export class SessionsView {
  readonly #host: SessionsHost;
  readonly #saveFile: SaveFile;
  readonly #coalescedLoad = new CoalescedFetch(() => this.#fetch());

  sessions = $state<SessionView[]>([]);
  status = $state<LoadStatus>('idle');
  errorMessage = $state<string | undefined>();
  activity = $state<SessionActivity | undefined>();
  outcome = $state<SessionOutcome | undefined>();
  importState = $state<SessionImportState>({ status: 'idle' });
  /**
   * Set when this screen opened another session: the app then shows every screen afresh, and the
   * Sessions screen, shown anew, moves focus to what happened (see takeFocusRequest).
   */
  #hasFocusRequest = false;
  /** Orders import checks: the answer for a file chosen before the current one is dropped. */
  #importTicket = 0;

  constructor(host: SessionsHost, saveFile: SaveFile = downloadFile) {
    this.#host = host;
    this.#saveFile = saveFile;
  }

  /** Why the controls that change sessions are disabled, or undefined when they work. */
  get blockedReason(): string | undefined {
    return this.#host.canWrite ? undefined : SESSIONS_READ_ONLY_REASON;
  }

  get isBusy(): boolean {
    return (
      this.activity !== undefined || this.importState.status === 'checking' || this.importState.status === 'importing'
    );
  }

  /** Fetches the list again. Never rejects: a failure shows as status 'error'. */
  load(): Promise<void> {
    return this.#coalescedLoad.run();
  }

  /** Whether the screen should move focus to the outcome once it shows (it was shown anew on the session opened); true once. */
  takeFocusRequest(): boolean {
    const hasRequest = this.#hasFocusRequest;
    this.#hasFocusRequest = false;
    return hasRequest;
  }

  /**
   * Makes a new session (not opened yet): with the starter graph, an empty graph, or the graph of
   * a file (N-Triples, Turtle or CSV). Returns whether it was made, so the form can clear.
   */
  async create(name: string, start: 'starter-graph' | 'empty' | File = 'starter-graph'): Promise<boolean> {
    return this.#change(undefined, `Creating “${name.trim()}”…`, 'The session was not created', async (client) => {
      const problem = sessionNameProblem(name);
      if (problem) return errorReport('The session was not created', problem);
      const result = await client.sessionCreate({ name, start: start instanceof File ? 'empty' : start });
      if (!result.ok) return refusalReport('The session was not created', result);
      if (!(start instanceof File)) return successReport(`Created “${result.session.name}”. Open it to work in it.`);
      const imported = await client.kgImport({
        sessionId: result.session.id,
        operationId: `create-${result.session.id}`,
        fileName: start.name,
        data: start,
        language: navigator.language,
      });
      return imported.ok
        ? successReport(
            `Created “${result.session.name}” with ${imported.added} facts from ${start.name}. Open it to work in it.`,
          )
        : errorReport(
            `Created “${result.session.name}”, empty: ${start.name} was not imported`,
            imported.problems.map(describeProblem).join('; '),
          );
    });
  }

  /** Renames a session; the app's header follows when it is the open one. Returns whether it was renamed. */
  async rename(session: SessionView, name: string): Promise<boolean> {
    return this.#change(session.id, 'Renaming…', 'The session was not renamed', async (client) => {
      const problem = sessionNameProblem(name);
      if (problem) return errorReport('The session was not renamed', problem);
      const result = await client.sessionRename({ sessionId: session.id, name });
      if (!result.ok) return refusalReport('The session was not renamed', result);
      if (result.session.id === this.#host.session?.id)
        this.#host.showSession({ id: result.session.id, name: result.session.name });
      return successReport(`Renamed to “${result.session.name}”.`);
    });
  }

  /** Copies a session, whole, under a new name. Returns whether the copy was made. */
  async duplicate(session: SessionView, name: string): Promise<boolean> {
    return this.#change(session.id, 'Duplicating…', 'The session was not duplicated', async (client) => {
      const problem = sessionNameProblem(name);
      if (problem) return errorReport('The session was not duplicated', problem);
      const result = await client.sessionDuplicate({ sessionId: session.id, name });
      return result.ok
        ? successReport(`Duplicated as “${result.session.name}”.`)
        : refusalReport('The session was not duplicated', result);
    });
  }

  /** Deletes a session; when it was the open one, the app opens the one the agent made active instead. */
  async remove(session: SessionView): Promise<void> {
    await this.#change(
      undefined,
      `Deleting “${session.name}”…`,
      `“${session.name}” was not deleted`,
      async (client) => {
        const result = await client.sessionDelete({ sessionId: session.id });
        if (!result.ok) return refusalReport(`“${session.name}” was not deleted`, result);
        if (result.activeId === this.#host.session?.id) return successReport(deletedText(session.name, undefined));
        await this.#reopen();
        return successReport(deletedText(session.name, this.#host.session?.name));
      },
    );
  }

  /** Makes a session the active one and opens it: every screen then shows it. Refused while a run, an import or a download is in progress. */
  async openSession(session: Pick<SessionView, 'id' | 'name'>): Promise<void> {
    await this.#change(undefined, `Opening “${session.name}”…`, `“${session.name}” was not opened`, async (client) => {
      const result = await client.sessionSwitch({ sessionId: session.id });
      if (!result.ok) return refusalReport(`“${session.name}” was not opened`, result);
      // Opened from what an import said: that is done with.
      if (this.importState.status === 'imported' && this.importState.session.id === session.id) this.dismissImport();
      await this.#reopen();
      return successReport(`Opened “${result.session.name}”.`);
    });
  }

  /** Saves a session as a snapshot file: JSON (`.anima.json`) or gzipped (`.anima.json.gz`). Allowed in a read-only tab. */
  async exportFile(session: SessionView, gzip: boolean): Promise<void> {
    await this.#run(session.id, 'Exporting…', 'The session was not exported', async (client) => {
      const result = await client.sessionExport({ sessionId: session.id, gzip });
      if (!result.ok) return refusalReport('The session was not exported', result);
      this.#saveFile(result.bytes, result.fileName, result.mediaType);
      return successReport(`Saved ${result.fileName}.`);
    });
  }

  /** Checks that a stored session is whole. Allowed in a read-only tab. */
  async check(session: SessionView): Promise<void> {
    await this.#run(session.id, 'Checking…', 'The session could not be checked', async (client) =>
      checkReport((await client.sessionCheck({ sessionId: session.id })).problems),
    );
  }

  /** Reads a chosen snapshot file completely and previews what importing it would bring; writes nothing. */
  async chooseFile(fileName: string, bytes: Uint8Array): Promise<void> {
    const ticket = ++this.#importTicket;
    this.importState = { status: 'checking', fileName };
    let state: SessionImportState;
    try {
      const result = await this.#host.client.sessionImportCheck({ bytes });
      state = result.ok
        ? { status: 'checked', fileName, bytes, preview: result.preview }
        : {
            status: 'refused',
            fileName,
            report: refusalReport(`${fileName} cannot be imported; nothing changed`, result),
          };
    } catch (error) {
      state = {
        status: 'refused',
        fileName,
        report: errorReport(`${fileName} could not be checked; nothing changed`, messageOf(error)),
      };
    }
    if (ticket === this.#importTicket) this.importState = state;
  }

  /** Says that a chosen file could not be read. */
  failToRead(fileName: string, error: unknown): void {
    this.#importTicket += 1;
    this.importState = {
      status: 'refused',
      fileName,
      report: errorReport(`${fileName} could not be read; nothing changed`, messageOf(error)),
    };
  }

  /**
   * Imports the previewed file, all or nothing: as it is, or (its session being here already) as
   * a copy under a name, or replacing the one here. Replacing the open session opens it afresh.
   */
  async importFile(choice?: ImportChoice): Promise<void> {
    if (this.importState.status !== 'checked' || this.blockedReason !== undefined) return;
    if (choice?.as === 'copy' && sessionNameProblem(choice.name) !== undefined) return;
    const { fileName, bytes, preview } = this.importState;
    const ticket = ++this.#importTicket;
    this.importState = { status: 'importing', fileName };
    let state: SessionImportState;
    try {
      const result = await this.#host.client.sessionImport({
        bytes,
        ...(choice ? { as: choice.as } : {}),
        ...(choice?.as === 'copy' ? { name: choice.name } : {}),
      });
      if (result.ok) {
        if (choice?.as === 'replace' && preview.id === this.#host.session?.id) await this.#reopen();
        state = {
          status: 'imported',
          fileName,
          session: result.session,
          report: successReport(`Imported “${result.session.name}” from ${fileName}.`, result.warnings),
        };
      } else
        state = {
          status: 'refused',
          fileName,
          report: refusalReport(`${fileName} was not imported; nothing changed`, result),
        };
    } catch (error) {
      state = {
        status: 'refused',
        fileName,
        report: errorReport(`${fileName} was not imported; nothing changed`, messageOf(error)),
      };
    }
    if (ticket === this.#importTicket) this.importState = state;
    await this.load();
  }

  /** Drops the previewed file, or what the last import said. */
  dismissImport(): void {
    this.#importTicket += 1;
    this.importState = { status: 'idle' };
  }

  /** A change to sessions: refused in a read-only tab; returns whether it succeeded. */
  async #change(
    sessionId: string | undefined,
    text: string,
    what: string,
    work: (client: AgentApi) => Promise<SessionReport>,
  ): Promise<boolean> {
    if (this.blockedReason !== undefined) return false;
    return this.#run(sessionId, text, what, work);
  }

  /** Runs one action at a time, shows its outcome, and fetches the list again. */
  async #run(
    sessionId: string | undefined,
    text: string,
    what: string,
    work: (client: AgentApi) => Promise<SessionReport>,
  ): Promise<boolean> {
    if (this.isBusy) return false;
    this.activity = { sessionId, text };
    let report: SessionReport;
    try {
      report = await work(this.#host.client);
    } catch (error) {
      report = errorReport(what, messageOf(error));
    }
    this.outcome = { sessionId, report };
    this.activity = undefined;
    await this.load();
    return report.tone === 'success';
  }

  /** Opens the session the agent now has active: the app shows every screen afresh on it. */
  async #reopen(): Promise<void> {
    this.#hasFocusRequest = true;
    await this.#host.reopen();
  }

  async #fetch(): Promise<void> {
    if (this.status !== 'ready') this.status = 'loading';
    try {
      const { sessions } = await this.#host.client.sessionList({});
      this.sessions = sessions;
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }
}
