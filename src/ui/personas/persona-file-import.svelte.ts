import type { PersonaImportPreview } from '#core/api.ts';
import { messageOf } from '../common/error-message.ts';
import { type ChangeReport, type Refusal, errorReport, failureReport } from './persona-messages.ts';
import type { PersonasContext } from './personas.svelte.ts';

/** What checking a file answered: what importing it would create, or why it cannot be imported. */
export type ImportCheck = { ok: true; preview: PersonaImportPreview } | Refusal;

/** Where importing a persona file stands: checked and previewed first, imported only once confirmed. */
export type PersonaImportState =
  | { status: 'idle' }
  | { status: 'checking'; fileName: string }
  | { status: 'checked'; fileName: string; data: string | Uint8Array; asName: string; check: ImportCheck }
  | { status: 'importing'; fileName: string }
  | { status: 'ended'; report: ChangeReport };

/** A PNG (a character card image) is read as bytes; anything else (a bundle, a card's JSON) as text. */
export function readsAsBytes(fileName: string, mediaType: string): boolean {
  return mediaType === 'image/png' || /\.png$/i.test(fileName);
}

/** Whether a check was refused because the persona's name is taken: another name lets it in. */
export function isNameTaken(check: ImportCheck): boolean {
  return (
    !check.ok && check.reason === 'name-taken' && check.problems.some((problem) => problem.path === 'persona.name')
  );
}

/**
 * Imports a persona file (an Anima bundle, or a character card as JSON or PNG) in two steps:
 * choose it (it is checked and previewed: the persona, each item new or reused, its arc, the card
 * fields kept, whether it has an image), then confirm. A name already taken can be replaced by
 * another ("import as"), checked again. Never rejects.
 */
export class PersonaFileImport {
  readonly #context: PersonasContext;

  state = $state<PersonaImportState>({ status: 'idle' });

  /** Orders answers: one for a file chosen before the current one is dropped. */
  #ticket = 0;

  constructor(context: PersonasContext) {
    this.#context = context;
  }

  /** Checks a chosen file (its text, or a PNG's bytes), for the preview. */
  async choose(fileName: string, data: string | Uint8Array, asName = ''): Promise<void> {
    const ticket = ++this.#ticket;
    this.state = { status: 'checking', fileName };
    let check: ImportCheck;
    try {
      const trimmed = asName.trim();
      check = await this.#context.client.personaImportCheck({
        fileName,
        data,
        ...(trimmed !== '' ? { asName: trimmed } : {}),
      });
    } catch (error) {
      if (ticket === this.#ticket)
        this.state = {
          status: 'ended',
          report: errorReport(`${fileName} could not be checked; nothing changed`, messageOf(error)),
        };
      return;
    }
    if (ticket === this.#ticket) this.state = { status: 'checked', fileName, data, asName, check };
  }

  /** Checks the chosen file again, to import it under another name. */
  async importAs(asName: string): Promise<void> {
    if (this.state.status !== 'checked') return;
    await this.choose(this.state.fileName, this.state.data, asName);
  }

  /** Says that a chosen file could not be read. */
  failToRead(fileName: string, error: unknown): void {
    this.#ticket += 1;
    this.state = {
      status: 'ended',
      report: errorReport(`${fileName} could not be read; nothing changed`, messageOf(error)),
    };
  }

  /** Imports the previewed file (all or nothing), and selects the persona it made. */
  async confirm(): Promise<void> {
    if (this.state.status !== 'checked' || !this.state.check.ok) return;
    const { fileName, data, asName } = this.state;
    const ticket = ++this.#ticket;
    this.state = { status: 'importing', fileName };
    let report: ChangeReport;
    try {
      const trimmed = asName.trim();
      const result = await this.#context.client.personaImport({
        fileName,
        data,
        ...(trimmed !== '' ? { asName: trimmed } : {}),
      });
      if (result.ok) {
        await this.#context.select(result.item.name);
        await this.#context.changed();
        report = { tone: 'success', message: `Imported ${result.item.name} from ${fileName}.` };
      } else report = failureReport(`${fileName} was not imported; nothing changed`, result);
    } catch (error) {
      report = errorReport(`${fileName} was not imported; nothing changed`, messageOf(error));
    }
    if (ticket === this.#ticket) this.state = { status: 'ended', report };
  }

  /** Drops the previewed file: nothing is imported. */
  cancel(): void {
    this.#ticket += 1;
    this.state = { status: 'idle' };
  }
}
