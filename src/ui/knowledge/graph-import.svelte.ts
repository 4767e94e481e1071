import type { AgentApi, GraphStats, ImportProgress } from '#core/api.ts';
import { messageOf } from '../common/error-message.ts';
import { describeImportOutcome, describeImportPreview, type ImportReport } from './import-messages.ts';

/** What the import needs of the app's agent state. */
export type GraphImportHost = {
  readonly client: AgentApi;
  readonly sessionId: string;
  graphChanged(stats: GraphStats): void;
};

export type ImportFormat = NonNullable<Parameters<AgentApi['kgImport']>[0]['format']>;

/** Where a graph file's import stands: none yet, running (with its progress), or ended (with what it did). */
export type GraphImportState =
  | { status: 'idle' }
  | {
      status: 'importing';
      operationId: string;
      fileName: string;
      progress: ImportProgress | undefined;
      isCancelling: boolean;
    }
  | { status: 'ended'; report: ImportReport };

/** A file read for a preview (a dry run): being read, or read with what it would do, until imported or dropped. */
export type GraphPreviewState =
  | { status: 'none' }
  | { status: 'reading'; fileName: string }
  | { status: 'read'; file: File; format: ImportFormat | 'auto'; report: ImportReport };

/**
 * A graph file's import, held by the app rather than the Knowledge screen: it goes on, with its
 * progress and its report, while the user is on another screen, and the shell's status line shows it.
 */
export class GraphImport {
  readonly #host: GraphImportHost;
  readonly #generateId: () => string;
  state = $state<GraphImportState>({ status: 'idle' });
  preview = $state<GraphPreviewState>({ status: 'none' });

  constructor(host: GraphImportHost, generateId: () => string = () => crypto.randomUUID()) {
    this.#host = host;
    this.#generateId = generateId;
  }

  get isImporting(): boolean {
    return this.state.status === 'importing';
  }

  /**
   * Imports a file; one at a time (a file chosen meanwhile is refused, saying why). Never rejects:
   * the outcome becomes the state. `linkSameLabels` links its things named as the graph's to them
   * (owl:sameAs); names in the browser's language are preferred.
   */
  async start(file: File, format: ImportFormat | 'auto', options: { linkSameLabels?: boolean } = {}): Promise<void> {
    if (this.state.status === 'importing') return;
    const operationId = this.#generateId();
    this.state = { status: 'importing', operationId, fileName: file.name, progress: undefined, isCancelling: false };
    try {
      const outcome = await this.#host.client.kgImport(
        {
          sessionId: this.#host.sessionId,
          operationId,
          fileName: file.name,
          ...(format === 'auto' ? {} : { format }),
          data: file,
          linkSameLabels: options.linkSameLabels ?? false,
          language: navigator.language,
        },
        (progress) => {
          if (this.state.status === 'importing' && this.state.operationId === operationId)
            this.state.progress = progress;
        },
      );
      if (outcome.ok) this.#host.graphChanged(outcome.stats);
      this.state = { status: 'ended', report: describeImportOutcome(outcome, file.name) };
    } catch (error) {
      this.state = {
        status: 'ended',
        report: { tone: 'failure', message: `The import failed: ${messageOf(error)}`, problems: [] },
      };
    }
  }

  /**
   * Reads a file without importing it: what it would add and what it shares with the graph
   * (relations that join known ones, things of the same name), so linking can be chosen before
   * the import. Never rejects: the outcome becomes the preview.
   */
  async previewFile(file: File, format: ImportFormat | 'auto'): Promise<void> {
    if (this.state.status === 'importing') return;
    this.preview = { status: 'reading', fileName: file.name };
    let report: ImportReport;
    try {
      const outcome = await this.#host.client.kgImport({
        sessionId: this.#host.sessionId,
        operationId: this.#generateId(),
        fileName: file.name,
        ...(format === 'auto' ? {} : { format }),
        data: file,
        language: navigator.language,
        dryRun: true,
      });
      report = describeImportPreview(outcome, file.name);
    } catch (error) {
      report = { tone: 'failure', message: `The preview failed: ${messageOf(error)}`, problems: [] };
    }
    this.preview = { status: 'read', file, format, report };
  }

  /** Imports the previewed file (linking as the user now chooses), and drops the preview. */
  async importPreviewed(options: { linkSameLabels?: boolean } = {}): Promise<void> {
    if (this.preview.status !== 'read') return;
    const { file, format } = this.preview;
    this.preview = { status: 'none' };
    await this.start(file, format, options);
  }

  dropPreview(): void {
    this.preview = { status: 'none' };
  }

  /** Asks the agent to stop the import; its outcome (cancelled) reports the result. */
  async cancel(): Promise<void> {
    if (this.state.status !== 'importing') return;
    const { operationId } = this.state;
    this.state.isCancelling = true;
    try {
      await this.#host.client.cancel({ operationId });
    } catch (error) {
      if (this.state.status === 'importing' && this.state.operationId === operationId)
        this.state = {
          status: 'ended',
          report: { tone: 'failure', message: `The import could not be cancelled: ${messageOf(error)}`, problems: [] },
        };
    }
  }
}
