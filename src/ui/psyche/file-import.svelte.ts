import { describeProblem } from '#core/result.ts';
import { decodeUtf8Text } from '#core/api.ts';
import { messageOf } from '../common/error-message.ts';
import type { ChangeReport } from './psyche-messages.ts';
import { type CheckAnswer, draftCheckOf } from './toml-draft.svelte.ts';
import type { PsycheView } from './psyche-view.svelte.ts';

/** Where importing a psyche.toml file stands: checked and previewed first, imported only once confirmed. */
export type FileImportState =
  | { status: 'idle' }
  | { status: 'checking'; fileName: string }
  | { status: 'checked'; fileName: string; text: string; check: CheckAnswer }
  | { status: 'importing'; fileName: string }
  | { status: 'ended'; report: ChangeReport };

/** Imports a psyche.toml file in two steps: choose it (it is checked and previewed), then confirm. */
export class PsycheFileImport {
  readonly #view: Pick<PsycheView, 'check' | 'importToml'>;

  state = $state<FileImportState>({ status: 'idle' });

  #ticket = 0;

  constructor(view: Pick<PsycheView, 'check' | 'importToml'>) {
    this.#view = view;
  }

  /** Checks a chosen file's bytes, for the preview: they must be UTF-8 text. Never rejects. */
  async choose(fileName: string, bytes: Uint8Array): Promise<void> {
    const ticket = ++this.#ticket;
    const decoded = decodeUtf8Text(bytes);
    if (!decoded.ok) {
      this.state = {
        status: 'checked',
        fileName,
        text: '',
        check: { status: 'invalid', problems: decoded.error.map(describeProblem), warnings: [] },
      };
      return;
    }
    const text = decoded.value;
    this.state = { status: 'checking', fileName };
    let check: CheckAnswer;
    try {
      check = draftCheckOf(await this.#view.check(text));
    } catch (error) {
      check = { status: 'failed', message: messageOf(error) };
    }
    if (ticket === this.#ticket) this.state = { status: 'checked', fileName, text, check };
  }

  /** Says that a chosen file could not be read. */
  failToRead(fileName: string, error: unknown): void {
    this.#ticket += 1;
    this.state = {
      status: 'ended',
      report: {
        tone: 'failure',
        message: `${fileName} could not be read; nothing changed: ${messageOf(error)}`,
        problems: [],
        warnings: [],
      },
    };
  }

  /** Imports the previewed file. Never rejects. */
  async confirm(): Promise<void> {
    if (this.state.status !== 'checked' || this.state.check.status !== 'valid') return;
    const { fileName, text } = this.state;
    const ticket = ++this.#ticket;
    this.state = { status: 'importing', fileName };
    const report = await this.#view.importToml(text, fileName);
    if (ticket === this.#ticket) this.state = { status: 'ended', report };
  }

  /** Drops the previewed file: nothing is imported. */
  cancel(): void {
    this.#ticket += 1;
    this.state = { status: 'idle' };
  }
}
