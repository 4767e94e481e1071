import type { AgentApi } from '#core/api.ts';
import { AssembledPreview } from './assembled-preview.svelte.ts';
import { PersonaArcs } from './persona-arcs.svelte.ts';
import { PersonaCatalog } from './persona-catalog.svelte.ts';
import { PersonaEditor } from './persona-editor.svelte.ts';
import { PersonaFileImport } from './persona-file-import.svelte.ts';
import { PersonaLibrary } from './persona-library.svelte.ts';
import { READ_ONLY_REASON } from './persona-messages.ts';

/** What the Personas screen needs of the app's agent state. */
export type PersonasHost = {
  readonly client: AgentApi;
  readonly sessionId: string;
  readonly canWrite: boolean;
};

/** What each part of the screen's state needs of the whole: the client, the selected persona, and a way to say the catalog changed. */
export type PersonasContext = {
  readonly client: AgentApi;
  readonly sessionId: string;
  /** Why this tab cannot change the catalog, or undefined when it can. */
  readonly blockedReason: string | undefined;
  /** The persona the editor and the prompt preview show. */
  readonly selected: string | undefined;
  select(name: string | undefined): Promise<void>;
  /** Called after every change: each part of the screen fetches what it shows again. */
  changed(): Promise<void>;
};

/** Where a part of the screen's state stands with its fetch. */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/**
 * The Personas screen's state: the catalog, the selected persona's editor and assembled prompt,
 * the libraries, the arcs and the import of a file. A change anywhere (a part renamed, a stage
 * advanced) can change what every other part shows, so after each one all of them fetch again.
 */
export class PersonasView implements PersonasContext {
  readonly #host: PersonasHost;

  /** The persona the editor and the preview show. */
  selected = $state<string | undefined>();

  readonly catalog: PersonaCatalog;
  readonly editor: PersonaEditor;
  readonly library: PersonaLibrary;
  readonly arcs: PersonaArcs;
  readonly preview: AssembledPreview;
  readonly fileImport: PersonaFileImport;

  constructor(host: PersonasHost) {
    this.#host = host;
    this.catalog = new PersonaCatalog(this);
    this.editor = new PersonaEditor(this);
    this.library = new PersonaLibrary(this);
    this.arcs = new PersonaArcs(this);
    this.preview = new AssembledPreview(this);
    this.fileImport = new PersonaFileImport(this);
  }

  get client(): AgentApi {
    return this.#host.client;
  }

  get sessionId(): string {
    return this.#host.sessionId;
  }

  get blockedReason(): string | undefined {
    return this.#host.canWrite ? undefined : READ_ONLY_REASON;
  }

  /** Fetches everything the screen shows. Never rejects: each part keeps its own status. */
  async load(): Promise<void> {
    await Promise.all([this.catalog.load(), this.editor.load(), this.library.load(), this.arcs.load()]);
    // After the library: an override naming a part that is gone is dropped before the prompt is assembled.
    this.preview.keepOverridesIn(this.library.all.part);
    await this.preview.load();
  }

  changed(): Promise<void> {
    return this.load();
  }

  /** Shows a persona (or none) in the editor and the preview (which keeps its view, budget and overrides). */
  async select(name: string | undefined): Promise<void> {
    this.selected = name;
    await Promise.all([this.editor.load(), this.preview.load()]);
  }
}
