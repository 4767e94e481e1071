import type { PartType, TraitType } from '#core/api.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import { messageOf } from '../common/error-message.ts';
import {
  type Draft,
  LIBRARY_KIND_TEXT,
  type LibraryItem,
  type LibraryKind,
  fieldsOf,
  splitTags,
} from './item-fields.ts';
import { type ChangeReport, errorReport, failureReport } from './persona-messages.ts';
import type { LoadStatus, PersonasContext } from './personas.svelte.ts';

/** Each library's items. */
export type LibraryLists = { [K in LibraryKind]: LibraryItem[K][] };

/** The library filters: parts by type and tags, traits by type (empty: any). */
export type LibraryFilters = { part: { type: PartType | ''; tags: string }; trait: { type: TraitType | '' } };

const emptyLists = (): LibraryLists => ({ part: [], trait: [], skill: [], guardrail: [] });

/**
 * The libraries of parts, traits, skills and guardrails: every item (for the editor's and the
 * arcs' choices), the items each filter keeps (for the library lists), and creating, editing
 * and deleting them. Deleting an item in use is refused unless forced, which unlinks it
 * everywhere. Changes answer a report and never reject.
 */
export class PersonaLibrary {
  readonly #context: PersonasContext;
  readonly #coalescedLoad = new CoalescedFetch(() => this.#fetch());

  /** Every item of each library, by name. */
  all = $state<LibraryLists>(emptyLists());
  /** The items the filters keep. */
  shown = $state<LibraryLists>(emptyLists());
  filters = $state<LibraryFilters>({ part: { type: '', tags: '' }, trait: { type: '' } });
  status = $state<LoadStatus>('idle');
  errorMessage = $state<string | undefined>();

  constructor(context: PersonasContext) {
    this.#context = context;
  }

  /** Fetches every library again. Fetches never overlap. */
  load(): Promise<void> {
    return this.#coalescedLoad.run();
  }

  /** Filters the parts by type and (comma-separated) tags. */
  async filterParts(filter: Partial<LibraryFilters['part']>): Promise<void> {
    this.filters.part = { ...this.filters.part, ...filter };
    await this.load();
  }

  /** Filters the traits by type. */
  async filterTraits(filter: Partial<LibraryFilters['trait']>): Promise<void> {
    this.filters.trait = { ...this.filters.trait, ...filter };
    await this.load();
  }

  /** Creates an item from its form. */
  async create(kind: LibraryKind, draft: Draft): Promise<ChangeReport> {
    const words = LIBRARY_KIND_TEXT[kind];
    const what = `The ${words.singular} was not created`;
    const fields = fieldsOf(kind, draft);
    try {
      const { client } = this.#context;
      const result =
        kind === 'part'
          ? await client.partCreate({ fields })
          : kind === 'trait'
            ? await client.traitCreate({ fields })
            : kind === 'skill'
              ? await client.skillCreate({ fields })
              : await client.guardrailCreate({ fields });
      if (!result.ok) return failureReport(what, result);
      await this.#context.changed();
      return { tone: 'success', message: `Created the ${words.singular} ${result.item.name}.` };
    } catch (error) {
      return errorReport(what, messageOf(error));
    }
  }

  /** Saves an item's form; a new name keeps every link. */
  async update(kind: LibraryKind, name: string, draft: Draft): Promise<ChangeReport> {
    const words = LIBRARY_KIND_TEXT[kind];
    const what = `${name} was not saved`;
    const changes = fieldsOf(kind, draft);
    try {
      const { client } = this.#context;
      const result =
        kind === 'part'
          ? await client.partUpdate({ name, changes })
          : kind === 'trait'
            ? await client.traitUpdate({ name, changes })
            : kind === 'skill'
              ? await client.skillUpdate({ name, changes })
              : await client.guardrailUpdate({ name, changes });
      if (!result.ok) return failureReport(what, result);
      await this.#context.changed();
      return { tone: 'success', message: `Saved the ${words.singular} ${result.item.name}.` };
    } catch (error) {
      return errorReport(what, messageOf(error));
    }
  }

  /** Deletes an item; one in use is refused (reason 'in-use') unless `force`, which unlinks it everywhere first. */
  async remove(kind: LibraryKind, name: string, options: { force?: boolean } = {}): Promise<ChangeReport> {
    const words = LIBRARY_KIND_TEXT[kind];
    const what = `${name} was not deleted`;
    const args = { name, force: options.force ?? false };
    try {
      const { client } = this.#context;
      const result =
        kind === 'part'
          ? await client.partDelete(args)
          : kind === 'trait'
            ? await client.traitDelete(args)
            : kind === 'skill'
              ? await client.skillDelete(args)
              : await client.guardrailDelete(args);
      if (!result.ok) return failureReport(what, result);
      await this.#context.changed();
      return { tone: 'success', message: `Deleted the ${words.singular} ${name}.` };
    } catch (error) {
      return errorReport(what, messageOf(error));
    }
  }

  async #fetch(): Promise<void> {
    if (this.status !== 'ready') this.status = 'loading';
    const { client } = this.#context;
    const partFilter = this.filters.part;
    const partTags = splitTags(partFilter.tags);
    const traitType = this.filters.trait.type;
    const isPartFiltered = partFilter.type !== '' || partTags.length > 0;
    try {
      const [parts, traits, skills, guardrails, shownParts, shownTraits] = await Promise.all([
        client.partList({}),
        client.traitList({}),
        client.skillList({}),
        client.guardrailList({}),
        isPartFiltered
          ? client.partList({
              ...(partFilter.type !== '' ? { type: partFilter.type } : {}),
              ...(partTags.length > 0 ? { tags: partTags } : {}),
            })
          : undefined,
        traitType !== '' ? client.traitList({ type: traitType }) : undefined,
      ]);
      this.all = { part: parts.items, trait: traits.items, skill: skills.items, guardrail: guardrails.items };
      this.shown = {
        part: (shownParts ?? parts).items,
        trait: (shownTraits ?? traits).items,
        skill: skills.items,
        guardrail: guardrails.items,
      };
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }
}
