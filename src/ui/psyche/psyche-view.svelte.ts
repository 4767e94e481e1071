import type { AgentApi, Psyche, PsycheHistoryEntry, PsycheVersionView } from '#core/api.ts';
import { messageOf } from '../common/error-message.ts';
import {
  type ChangeKind,
  type ChangeReport,
  type PsycheChange,
  type PsycheCheck,
  READ_ONLY_REASON,
  describeChange,
} from './psyche-messages.ts';

/** What the psyche view needs of the app's agent state. */
export type PsycheHost = {
  readonly client: AgentApi;
  readonly sessionId: string;
  readonly canWrite: boolean;
};

export type PsycheLoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/**
 * The Psyche screen's state: the current version and the history, fetched again on demand (when
 * the screen opens, after each cycle, after a change), and the changes themselves. A change that
 * succeeds shows its new version at once, ahead of any fetch that started before it.
 */
export class PsycheView {
  readonly #host: PsycheHost;

  current = $state<PsycheVersionView | undefined>();
  /** Every version, oldest first. */
  history = $state<PsycheHistoryEntry[]>([]);
  status = $state<PsycheLoadStatus>('idle');
  errorMessage = $state<string | undefined>();

  /** Orders answers: one that started before an answer or a change already applied is dropped. */
  #ticket = 0;
  #appliedTicket = 0;
  /** The version the history was fetched at. */
  #historyVersion: number | undefined;

  constructor(host: PsycheHost) {
    this.#host = host;
  }

  /** Why this tab cannot change the psyche, or undefined when it can. */
  get blockedReason(): string | undefined {
    return this.#host.canWrite ? undefined : READ_ONLY_REASON;
  }

  /** Fetches the current version and the history again. Never rejects: a failure shows as status 'error'. */
  async load(): Promise<void> {
    const ticket = ++this.#ticket;
    if (this.status !== 'ready') this.status = 'loading';
    const { client, sessionId } = this.#host;
    try {
      const current = await client.psycheGet({ sessionId });
      // The history changes only with the version: after most cycles there is nothing new to fetch.
      const versions =
        current.version === this.#historyVersion ? undefined : (await client.psycheHistory({ sessionId })).versions;
      if (ticket < this.#appliedTicket) return;
      this.#appliedTicket = ticket;
      this.current = current;
      if (versions) {
        this.history = versions;
        this.#historyVersion = current.version;
      }
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      if (ticket < this.#appliedTicket) return;
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }

  /** Validates psyche.toml text without changing anything (sections it lacks come from the current psyche). */
  check(toml: string): Promise<PsycheCheck> {
    return this.#host.client.psycheCheck({ sessionId: this.#host.sessionId, toml });
  }

  /** The current psyche as psyche.toml. Rejects when the agent cannot write it. */
  exportToml(): Promise<{ fileName: string; text: string }> {
    return this.#host.client.psycheExport({ sessionId: this.#host.sessionId });
  }

  /** Saves the form editor's psyche as a new version. Never rejects. */
  save(psyche: Psyche): Promise<ChangeReport> {
    // A plain copy: parts of it may be reactive proxies, which cannot be posted to the worker.
    const plain = $state.snapshot(psyche);
    return this.#change({ kind: 'save' }, () =>
      this.#host.client.psycheSave({ sessionId: this.#host.sessionId, psyche: plain }),
    );
  }

  /** Imports psyche.toml text as a new version, all or nothing. Never rejects. */
  importToml(toml: string, fileName?: string): Promise<ChangeReport> {
    return this.#change({ kind: 'import', ...(fileName === undefined ? {} : { fileName }) }, () =>
      this.#host.client.psycheImport({
        sessionId: this.#host.sessionId,
        toml,
        ...(fileName === undefined ? {} : { fileName }),
      }),
    );
  }

  /** Makes an earlier version current again, as a new version. Never rejects. */
  restore(version: number): Promise<ChangeReport> {
    return this.#change({ kind: 'restore', version }, () =>
      this.#host.client.psycheRestore({ sessionId: this.#host.sessionId, version }),
    );
  }

  async #change(change: ChangeKind, call: () => Promise<PsycheChange>): Promise<ChangeReport> {
    if (this.blockedReason !== undefined)
      return { tone: 'failure', message: this.blockedReason, problems: [], warnings: [] };
    let report: ChangeReport;
    try {
      const result = await call();
      if (result.ok) {
        this.#appliedTicket = ++this.#ticket;
        this.current = result.current;
      }
      report = describeChange(change, result);
    } catch (error) {
      return { tone: 'failure', message: `Nothing changed: ${messageOf(error)}`, problems: [], warnings: [] };
    }
    // The history gains the new version.
    if (report.tone === 'success') await this.load();
    return report;
  }
}
