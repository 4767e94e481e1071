import type { PersonaSummary } from '#core/api.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import { messageOf } from '../common/error-message.ts';
import { type Draft, fieldsOf } from './item-fields.ts';
import { type ChangeReport, errorReport, failureReport } from './persona-messages.ts';
import type { LoadStatus, PersonasContext } from './personas.svelte.ts';

/**
 * The catalog of personas: the list (filtered by text and tag), the persona the current session
 * wears, creating, deleting, and wearing one in this session or taking it off. Changes answer a
 * report and never reject.
 */
export class PersonaCatalog {
  readonly #context: PersonasContext;
  readonly #coalescedLoad = new CoalescedFetch(() => this.#fetch());

  /** The personas the filter keeps, by name. */
  personas = $state<PersonaSummary[]>([]);
  /** Every persona's tags, for the tag filter's choices. */
  allTags = $state<string[]>([]);
  /** How many personas there are, filtered or not. */
  total = $state(0);
  /** The persona the current session wears. */
  worn = $state<PersonaSummary | undefined>();
  /** The search text: a persona's name, description or part text. */
  text = $state('');
  /** The tag a persona must have; empty for any. */
  tag = $state('');
  status = $state<LoadStatus>('idle');
  errorMessage = $state<string | undefined>();

  constructor(context: PersonasContext) {
    this.#context = context;
  }

  /** Fetches the list and the worn persona again. Fetches never overlap. */
  load(): Promise<void> {
    return this.#coalescedLoad.run();
  }

  /** Changes the filter and lists again. */
  async filter(filter: { text?: string; tag?: string }): Promise<void> {
    if (filter.text !== undefined) this.text = filter.text;
    if (filter.tag !== undefined) this.tag = filter.tag;
    await this.load();
  }

  /** Creates a persona from the form, and selects it. */
  async create(draft: Draft): Promise<ChangeReport> {
    const what = 'The persona was not created';
    try {
      const result = await this.#context.client.personaCreate({ fields: fieldsOf('persona', draft) });
      if (!result.ok) return failureReport(what, result);
      await this.#context.select(result.item.name);
      await this.#context.changed();
      return { tone: 'success', message: `Created ${result.item.name}.` };
    } catch (error) {
      return errorReport(what, messageOf(error));
    }
  }

  /** Deletes a persona (the caller has asked first): its links go, its parts stay, sessions wearing it wear none. */
  async remove(name: string): Promise<ChangeReport> {
    const what = `${name} was not deleted`;
    try {
      const result = await this.#context.client.personaDelete({ name });
      if (!result.ok) return failureReport(what, result);
      if (this.#context.selected === name) await this.#context.select(undefined);
      await this.#context.changed();
      return { tone: 'success', message: `Deleted ${name}.` };
    } catch (error) {
      return errorReport(what, messageOf(error));
    }
  }

  /** Makes the current session wear a persona, or (null) none. */
  async wear(name: string | null): Promise<ChangeReport> {
    const what = name === null ? 'The persona was not taken off' : `${name} was not put on`;
    try {
      const result = await this.#context.client.sessionPersonaSet({
        sessionId: this.#context.sessionId,
        persona: name,
      });
      if (!result.ok) return failureReport(what, result);
      this.worn = result.persona;
      await this.#context.changed();
      return {
        tone: 'success',
        message: name === null ? 'This session wears no persona now.' : `This session wears ${name} now.`,
      };
    } catch (error) {
      return errorReport(what, messageOf(error));
    }
  }

  async #fetch(): Promise<void> {
    if (this.status !== 'ready') this.status = 'loading';
    const { client, sessionId } = this.#context;
    const text = this.text.trim();
    const isFiltered = text !== '' || this.tag !== '';
    try {
      const [all, filtered, worn] = await Promise.all([
        client.personaList({}),
        isFiltered
          ? client.personaList({ ...(text !== '' ? { text } : {}), ...(this.tag !== '' ? { tags: [this.tag] } : {}) })
          : undefined,
        client.sessionPersonaGet({ sessionId }),
      ]);
      this.personas = (filtered ?? all).personas;
      this.total = all.personas.length;
      // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a local set that only removes duplicates
      this.allTags = [...new Set(all.personas.flatMap((persona) => persona.tags))].sort((left, right) =>
        left.localeCompare(right),
      );
      this.worn = worn.persona;
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }
}
