import type { AgentApi, ScratchNoteView } from '../../core/api.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import { messageOf } from '../common/error-message.ts';
import type { LoadStatus } from './agent-run.svelte.ts';
import { notesByGoal } from './note-messages.ts';

/** What the notes state needs of the app's agent state. */
export type NotesHost = {
  readonly client: AgentApi;
  readonly sessionId: string;
};

/**
 * The notes the agent keeps in the session's scratch area (one per goal that asks for notes),
 * for the Goals screen: fetched once for the whole list when the screen opens and after each
 * cycle, since a cycle can write or rewrite one. Fetches never overlap (see CoalescedFetch).
 */
export class GoalNotes {
  readonly #host: NotesHost;
  readonly #coalescedLoad = new CoalescedFetch(() => this.#fetch());

  /** Newest first, as the agent lists them. */
  notes = $state<ScratchNoteView[]>([]);
  status = $state<LoadStatus>('idle');
  errorMessage = $state<string | undefined>();

  /** Each goal's note, by the goal's id. */
  readonly byGoal = $derived(notesByGoal(this.notes));

  constructor(host: NotesHost) {
    this.#host = host;
  }

  /** Fetches the notes again. Never rejects: a failure shows as status 'error'. */
  load(): Promise<void> {
    return this.#coalescedLoad.run();
  }

  async #fetch(): Promise<void> {
    if (this.status !== 'ready') this.status = 'loading';
    try {
      const { notes } = await this.#host.client.noteList({ sessionId: this.#host.sessionId });
      this.notes = notes;
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }
}
