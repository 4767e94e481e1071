import { PART_TYPES, type PartType } from '#core/api.ts';
import type { AssembledPersonaView, PartView, PersonaManifest } from '#core/api.ts';
import type { Problem } from '#core/result.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import { messageOf } from '../common/error-message.ts';
import { type ChangeReport, errorReport, failureReport } from './persona-messages.ts';
import type { PersonasContext } from './personas.svelte.ts';

/** What compile stored, and whether it still matches the persona. */
export type CompiledView = {
  summary: string;
  detail: string;
  compiledAt: number;
  summaryTokens: number;
  detailTokens: number;
  isCurrent: boolean;
};

/** The assembled prompt of the selected persona, or why there is none. */
export type PreviewResult =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; assembled: AssembledPersonaView; compiled: CompiledView | undefined }
  | { status: 'refused'; reason: string; problems: Problem[] }
  | { status: 'error'; message: string };

/** The parts a type can be overridden with: each type that has parts in the library, in the prompt's order of types. */
export function overrideChoices(
  parts: readonly Pick<PartView, 'name' | 'type'>[],
): { type: PartType; parts: string[] }[] {
  return PART_TYPES.flatMap((type) => {
    const names = parts.filter((part) => part.type === type).map((part) => part.name);
    return names.length > 0 ? [{ type, parts: names }] : [];
  });
}

/** A token budget as typed: empty is none; else a whole number of at least 1, or a problem in words. */
export function budgetOf(text: string): { ok: true; budget: number | undefined } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, budget: undefined };
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1 || Number(trimmed) > 1_000_000)
    return { ok: false, message: 'The budget is a whole number of tokens, from 1 to 1,000,000 (or empty for none).' };
  return { ok: true, budget: Number(trimmed) };
}

/**
 * The live "assembled prompt" of the selected persona: its view (summary or detail), a token
 * budget, per-type overrides and a filter of types, each change assembling it again; and its
 * compile and manifest. Nothing here is stored but a compile.
 */
export class AssembledPreview {
  readonly #context: PersonasContext;
  readonly #coalescedLoad = new CoalescedFetch(() => this.#fetch());

  isDetail = $state(false);
  /** The budget as typed (empty: none). */
  budgetText = $state('');
  /** Part type -> the part used instead of the persona's parts of that type. */
  overrides = $state<Partial<Record<PartType, string>>>({});
  /** The types the prompt keeps; empty keeps all. */
  types = $state<PartType[]>([]);
  result = $state<PreviewResult>({ status: 'idle' });
  manifest = $state<PersonaManifest | undefined>();

  /** What is wrong with the typed budget, if anything: the prompt is not assembled again until it is fixed. */
  readonly budgetProblem = $derived.by(() => {
    const budget = budgetOf(this.budgetText);
    return budget.ok ? undefined : budget.message;
  });

  constructor(context: PersonasContext) {
    this.#context = context;
  }

  /** Assembles the selected persona's prompt again, and fetches its manifest. Fetches never overlap. */
  load(): Promise<void> {
    return this.#coalescedLoad.run();
  }

  async setDetail(isDetail: boolean): Promise<void> {
    this.isDetail = isDetail;
    await this.load();
  }

  async setBudget(text: string): Promise<void> {
    this.budgetText = text;
    if (this.budgetProblem === undefined) await this.load();
  }

  /** Overrides a type with a part, or ('') stops overriding it. */
  async setOverride(type: PartType, part: string): Promise<void> {
    const { [type]: _dropped, ...rest } = this.overrides;
    this.overrides = part === '' ? rest : { ...rest, [type]: part };
    await this.load();
  }

  /** Keeps only parts of these types (none: all types). */
  async setTypes(types: readonly PartType[]): Promise<void> {
    this.types = PART_TYPES.filter((type) => types.includes(type));
    await this.load();
  }

  /** Drops overrides naming a part the library no longer has, or one of another type now. */
  keepOverridesIn(parts: readonly Pick<PartView, 'name' | 'type'>[]): void {
    const kept = Object.entries(this.overrides).filter(([type, name]) =>
      parts.some((part) => part.name === name && part.type === type),
    );
    if (kept.length !== Object.keys(this.overrides).length) this.overrides = Object.fromEntries(kept);
  }

  /** Stores the compiled summary and detail of the selected persona. */
  async compile(): Promise<ChangeReport> {
    const name = this.#context.selected;
    if (name === undefined) return errorReport('Nothing was compiled', 'no persona is selected');
    const what = `${name} was not compiled`;
    try {
      const result = await this.#context.client.personaCompile({ name });
      if (!result.ok) return failureReport(what, result);
      await this.#context.changed();
      return { tone: 'success', message: `Compiled ${name}.` };
    } catch (error) {
      return errorReport(what, messageOf(error));
    }
  }

  async #fetch(): Promise<void> {
    const name = this.#context.selected;
    const budget = budgetOf(this.budgetText);
    if (name === undefined) {
      this.result = { status: 'idle' };
      this.manifest = undefined;
      return;
    }
    if (!budget.ok) return;
    if (this.result.status === 'idle') this.result = { status: 'loading' };
    const { client } = this.#context;
    try {
      const [got, manifest] = await Promise.all([
        client.personaGet({
          name,
          detail: this.isDetail,
          // Copies: reactive proxies cannot be posted to the worker.
          overrides: { ...this.overrides },
          ...(this.types.length > 0 ? { types: [...this.types] } : {}),
          ...(budget.budget !== undefined ? { budgetTokens: budget.budget } : {}),
        }),
        client.personaManifest({ name }),
      ]);
      if (name !== this.#context.selected) return;
      this.result = got.ok
        ? { status: 'ready', assembled: got.assembled, compiled: got.compiled }
        : { status: 'refused', reason: got.reason, problems: got.problems };
      this.manifest = manifest.ok ? manifest.manifest : undefined;
    } catch (error) {
      this.result = { status: 'error', message: messageOf(error) };
    }
  }
}
