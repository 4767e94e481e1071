import type { Psyche } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import { messageOf } from '../common/error-message.ts';
import type { PsycheCheck } from './psyche-messages.ts';

/** What checking the text found: the psyche it would give, or the located problems; warnings either way, in words. */
export type DraftCheck =
  | { status: 'idle' }
  | { status: 'checking' }
  | { status: 'valid'; psyche: Psyche; warnings: string[] }
  | { status: 'invalid'; problems: string[]; warnings: string[] }
  | { status: 'failed'; message: string };

/** How long typing must pause before the text is checked. */
export const CHECK_DELAY_MS = 300;

/** A check's answer: valid, invalid, or failed to run. */
export type CheckAnswer = Extract<DraftCheck, { status: 'valid' | 'invalid' | 'failed' }>;

/** Turns psycheCheck's answer into what the editor shows. */
export function draftCheckOf(result: PsycheCheck): CheckAnswer {
  const warnings = result.warnings.map(describeProblem);
  return result.ok
    ? { status: 'valid', psyche: result.psyche, warnings }
    : { status: 'invalid', problems: result.problems.map(describeProblem), warnings };
}

/**
 * The raw psyche.toml editor's text, checked by the agent as the user types: once typing pauses
 * for {@link CHECK_DELAY_MS}, and only the answer for the latest text is shown. The text can be
 * imported once it is valid and differs from what the editor started with.
 */
export class TomlDraft {
  readonly #check: (toml: string) => Promise<PsycheCheck>;
  readonly #delayMs: number;

  text = $state('');
  /** The text the editor started with (the current psyche's export). */
  baseline = $state('');
  check = $state<DraftCheck>({ status: 'idle' });

  readonly isChanged = $derived(this.text !== this.baseline);
  readonly canImport = $derived(this.check.status === 'valid' && this.isChanged);

  #timer: ReturnType<typeof setTimeout> | undefined;
  #ticket = 0;

  constructor(check: (toml: string) => Promise<PsycheCheck>, delayMs = CHECK_DELAY_MS) {
    this.#check = check;
    this.#delayMs = delayMs;
  }

  /** Starts over from a text (the current psyche's export): nothing to check or import. */
  reset(text: string): void {
    this.#cancel();
    this.text = text;
    this.baseline = text;
    this.check = { status: 'idle' };
  }

  /** Takes the typed text; it is checked once typing pauses. */
  edit(text: string): void {
    this.#cancel();
    this.text = text;
    this.check = { status: 'checking' };
    this.#timer = setTimeout(() => void this.checkNow(), this.#delayMs);
  }

  /** Checks the text now. Never rejects. */
  async checkNow(): Promise<void> {
    this.#cancel();
    const ticket = this.#ticket;
    const text = this.text;
    this.check = { status: 'checking' };
    try {
      const result = await this.#check(text);
      if (ticket === this.#ticket) this.check = draftCheckOf(result);
    } catch (error) {
      if (ticket === this.#ticket) this.check = { status: 'failed', message: messageOf(error) };
    }
  }

  /** Stops a check that is waiting for typing to pause, and drops answers to checks in flight. */
  dispose(): void {
    this.#cancel();
  }

  #cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#ticket += 1;
  }
}
