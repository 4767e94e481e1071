import type { PersonaDefinitionView } from '#core/api.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import { messageOf } from '../common/error-message.ts';
import { type Draft, type LibraryKind, fieldsOf } from './item-fields.ts';
import { type ArrangedPart, arrangementOf, moved } from './part-order.ts';
import { type ChangeReport, type Refusal, errorReport, failureReport } from './persona-messages.ts';
import type { LoadStatus, PersonasContext } from './personas.svelte.ts';

/** The file formats a persona exports to. */
export type ExportFormat = 'bundle' | 'card-json' | 'card-png';

/** An exported persona, ready to download. */
export type ExportedFile = { fileName: string; mediaType: string; data: string | Uint8Array };

/** The words of each export format, for buttons and reports. */
export const EXPORT_FORMAT_TEXT = {
  bundle: 'Anima bundle (JSON)',
  'card-json': 'Character card (JSON)',
  'card-png': 'Character card (PNG)',
} as const satisfies Record<ExportFormat, string>;

/**
 * The selected persona's editor: its fields, its parts in order (moved, pinned and prioritised,
 * all sent at once after each change), what is linked to it, and its export. Changes answer a
 * report and never reject.
 */
export class PersonaEditor {
  readonly #context: PersonasContext;
  readonly #coalescedLoad = new CoalescedFetch(() => this.#fetch());
  readonly #coalescedSend = new CoalescedFetch(() => this.#send());
  /** How the last arrangement sent went: done, refused, or it threw (its message). */
  #lastSend: { ok: true } | Refusal | { ok: false; message: string } | undefined;

  /** The selected persona as stored, or undefined when none is selected (or it is gone). */
  definition = $state<PersonaDefinitionView | undefined>();
  /** Its parts as arranged here: ahead of the catalog while an arrangement is being sent. */
  parts = $state<ArrangedPart[]>([]);
  status = $state<LoadStatus>('idle');
  errorMessage = $state<string | undefined>();
  /** An arrangement is being sent (a fetch meanwhile keeps the list as arranged here). */
  isArranging = $state(false);

  constructor(context: PersonasContext) {
    this.#context = context;
  }

  /** Fetches the selected persona again. Fetches never overlap. */
  load(): Promise<void> {
    return this.#coalescedLoad.run();
  }

  /** Saves the persona's fields; a new name keeps every link, and stays selected. */
  async save(draft: Draft): Promise<ChangeReport> {
    const name = this.definition?.persona.name;
    if (name === undefined) return errorReport('Nothing was saved', 'no persona is selected');
    const what = `${name} was not saved`;
    try {
      const result = await this.#context.client.personaUpdate({ name, changes: fieldsOf('persona', draft) });
      if (!result.ok) return failureReport(what, result);
      if (result.item.name !== name) await this.#context.select(result.item.name);
      await this.#context.changed();
      return { tone: 'success', message: `Saved ${result.item.name}.` };
    } catch (error) {
      return errorReport(what, messageOf(error));
    }
  }

  /**
   * Moves a part from one place to another (a drag, or Move up / Move down), and sends the new
   * order. The list changes at once (so focus can follow the part); sends never overlap, and a
   * change made while one is under way goes with the next.
   */
  move(from: number, to: number): Promise<ChangeReport | undefined> {
    if (from === to || from < 0 || from >= this.parts.length || to < 0 || to >= this.parts.length)
      return Promise.resolve(undefined);
    const name = this.parts[from]!.name;
    this.parts = moved(this.parts, from, to);
    return this.#arrange(`Moved ${name} to place ${to + 1}.`);
  }

  /** Pins a part (a budget never drops it), or unpins it. */
  setPinned(name: string, pinned: boolean): Promise<ChangeReport | undefined> {
    return this.#change(name, { pinned }, pinned ? `Pinned ${name}.` : `Unpinned ${name}.`);
  }

  /** Sets a part's priority (a budget keeps higher ones first). */
  setPriority(name: string, priority: number): Promise<ChangeReport | undefined> {
    return this.#change(name, { priority }, `Set the priority of ${name} to ${priority}.`);
  }

  /** Links a library item to the persona (a part goes last). */
  async link(kind: LibraryKind, itemName: string): Promise<ChangeReport> {
    const persona = this.definition?.persona.name;
    if (persona === undefined) return errorReport(`${itemName} was not added`, 'no persona is selected');
    const what = `${itemName} was not added to ${persona}`;
    try {
      const result = await this.#context.client.personaLink({ persona, kind, name: itemName });
      if (!result.ok) return failureReport(what, result);
      await this.#context.changed();
      return { tone: 'success', message: `Added ${itemName} to ${persona}.` };
    } catch (error) {
      return errorReport(what, messageOf(error));
    }
  }

  /** Unlinks a library item from the persona; the item stays in the library. */
  async unlink(kind: LibraryKind, itemName: string): Promise<ChangeReport> {
    const persona = this.definition?.persona.name;
    if (persona === undefined) return errorReport(`${itemName} was not removed`, 'no persona is selected');
    const what = `${itemName} was not removed from ${persona}`;
    try {
      const result = await this.#context.client.personaUnlink({ persona, kind, name: itemName });
      if (!result.ok) return failureReport(what, result);
      await this.#context.changed();
      return { tone: 'success', message: `Removed ${itemName} from ${persona}; it stays in the library.` };
    } catch (error) {
      return errorReport(what, messageOf(error));
    }
  }

  /** The persona as a file of a format, or why it could not be written. */
  async exportAs(
    format: ExportFormat,
  ): Promise<{ ok: true; file: ExportedFile } | { ok: false; report: ChangeReport }> {
    const name = this.definition?.persona.name;
    if (name === undefined) return { ok: false, report: errorReport('Nothing was exported', 'no persona is selected') };
    const what = `${name} was not exported`;
    try {
      const result = await this.#context.client.personaExport({ name, format });
      if (!result.ok) return { ok: false, report: failureReport(what, result) };
      return { ok: true, file: { fileName: result.fileName, mediaType: result.mediaType, data: result.data } };
    } catch (error) {
      return { ok: false, report: errorReport(what, messageOf(error)) };
    }
  }

  #change(
    name: string,
    change: Partial<Pick<ArrangedPart, 'pinned' | 'priority'>>,
    message: string,
  ): Promise<ChangeReport | undefined> {
    if (!this.parts.some((part) => part.name === name)) return Promise.resolve(undefined);
    this.parts = this.parts.map((part) => (part.name === name ? { ...part, ...change } : part));
    return this.#arrange(message);
  }

  /** Sends the arrangement as it is now (after any send under way); on a refusal the catalog's arrangement comes back. */
  async #arrange(message: string): Promise<ChangeReport> {
    const persona = this.definition?.persona.name;
    if (persona === undefined) return errorReport('The parts were not arranged', 'no persona is selected');
    await this.#coalescedSend.run();
    const outcome = this.#lastSend;
    await this.#context.changed();
    if (outcome === undefined || outcome.ok) return { tone: 'success', message };
    return 'message' in outcome
      ? errorReport(`The parts of ${persona} were not arranged`, outcome.message)
      : failureReport(`The parts of ${persona} were not arranged`, outcome);
  }

  async #send(): Promise<void> {
    const persona = this.definition?.persona.name;
    if (persona === undefined) return;
    this.isArranging = true;
    try {
      // Read when the send starts, so it carries every change made until now.
      this.#lastSend = await this.#context.client.personaArrangeParts({ persona, parts: arrangementOf(this.parts) });
    } catch (error) {
      this.#lastSend = { ok: false, message: messageOf(error) };
    } finally {
      this.isArranging = false;
    }
  }

  async #fetch(): Promise<void> {
    const name = this.#context.selected;
    if (name === undefined) {
      this.definition = undefined;
      this.parts = [];
      this.status = 'idle';
      return;
    }
    if (this.status !== 'ready') this.status = 'loading';
    try {
      const result = await this.#context.client.personaDefinition({ name });
      // Another persona was selected meanwhile: its own fetch follows this one.
      if (name !== this.#context.selected) return;
      if (!result.ok) {
        // Deleted (in another tab, say): nothing is selected any more.
        this.definition = undefined;
        this.parts = [];
        this.status = 'idle';
        // Not awaited: selecting fetches again, which waits for this fetch to end.
        void this.#context.select(undefined);
        return;
      }
      this.definition = result.definition;
      if (!this.isArranging)
        this.parts = result.definition.parts.map(({ name: partName, type, summary, priority, pinned }) => ({
          name: partName,
          type,
          summary,
          priority,
          pinned,
        }));
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }
}
