import { type AgentApi, type DocumentView, MAX_DOCUMENT_BYTES } from '#core/api.ts';
import { messageOf } from '../common/error-message.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import {
  DOCUMENTS_READ_ONLY_REASON,
  type DocumentReport,
  describeDocumentDelete,
  describeDocumentImport,
} from './document-messages.ts';

/** What the documents state needs of the app's agent state. */
export type DocumentsHost = {
  readonly client: AgentApi;
  readonly sessionId: string;
  readonly canWrite: boolean;
};

/** A file as the panel reads it: a browser File, or a fake of one in tests. */
export type TextFile = { readonly name: string; readonly size: number; text(): Promise<string> };

/** Where the list of documents stands. */
export type DocumentsLoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The change in progress (one at a time), or how the last one went. */
export type DocumentChange =
  | { status: 'idle' }
  | { status: 'importing'; fileName: string }
  | { status: 'deleting'; documentId: number }
  | { status: 'ended'; report: DocumentReport };

/**
 * The Documents panel's state: the session's documents (fetched when the panel opens, after each
 * cycle, since a cycle can turn one into facts, and after each change), importing a text file
 * and deleting a document. Fetches never overlap: one asked for while another is in flight runs
 * once after it, so the list ends up showing the latest state.
 */
export class Documents {
  readonly #host: DocumentsHost;
  /** Fetches never pile up (see CoalescedFetch). */
  readonly #coalescedLoad = new CoalescedFetch(() => this.#fetch());

  /** Newest first, as the agent lists them. */
  documents = $state<DocumentView[]>([]);
  status = $state<DocumentsLoadStatus>('idle');
  errorMessage = $state<string | undefined>();
  change = $state<DocumentChange>({ status: 'idle' });

  readonly isChanging = $derived(this.change.status === 'importing' || this.change.status === 'deleting');

  constructor(host: DocumentsHost) {
    this.#host = host;
  }

  /** Why Import and Delete are disabled, or undefined when they work. */
  get blockedReason(): string | undefined {
    return this.#host.canWrite ? undefined : DOCUMENTS_READ_ONLY_REASON;
  }

  /** Fetches the documents again. Never rejects: a failure shows as status 'error'. */
  load(): Promise<void> {
    return this.#coalescedLoad.run();
  }

  /** Reads a text file and imports it whole, says how it went, and fetches the list again. Never rejects. */
  async importFile(file: TextFile): Promise<void> {
    if (this.isChanging || this.blockedReason !== undefined) return;
    this.change = { status: 'importing', fileName: file.name };
    let isImported = false;
    // Refused before reading: a file far over the limit would be read and copied to the worker for nothing.
    if (file.size > MAX_DOCUMENT_BYTES) {
      this.change = {
        status: 'ended',
        report: {
          tone: 'failure',
          message: `“${file.name}” was not imported:`,
          problems: [`it is over ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB; split it into smaller documents`],
        },
      };
      return;
    }
    try {
      const text = await file.text();
      const result = await this.#host.client.documentImport({
        sessionId: this.#host.sessionId,
        fileName: file.name,
        text,
      });
      this.change = { status: 'ended', report: describeDocumentImport(result, file.name) };
      isImported = result.ok;
    } catch (error) {
      this.change = {
        status: 'ended',
        report: { tone: 'failure', message: `“${file.name}” was not imported: ${messageOf(error)}`, problems: [] },
      };
    }
    // A refused import changed nothing: the list stays as it is.
    if (isImported) await this.load();
  }

  /** Deletes a document (the caller has asked the user first), says how it went, and fetches the list again. Never rejects. */
  async deleteDocument(document: Pick<DocumentView, 'id' | 'name'>): Promise<void> {
    if (this.isChanging || this.blockedReason !== undefined) return;
    this.change = { status: 'deleting', documentId: document.id };
    try {
      const result = await this.#host.client.documentDelete({
        sessionId: this.#host.sessionId,
        documentId: document.id,
      });
      this.change = { status: 'ended', report: describeDocumentDelete(result, document.name) };
    } catch (error) {
      this.change = {
        status: 'ended',
        report: { tone: 'failure', message: `“${document.name}” was not deleted: ${messageOf(error)}`, problems: [] },
      };
    }
    // Fetched after a failure too: a document that is already gone leaves the list.
    await this.load();
  }

  async #fetch(): Promise<void> {
    if (this.status !== 'ready') this.status = 'loading';
    try {
      const { documents } = await this.#host.client.documentList({ sessionId: this.#host.sessionId });
      this.documents = documents;
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }
}
