import type { ArcView } from '#core/api.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import { messageOf } from '../common/error-message.ts';
import { type Draft, arcCreateOf, fieldsOf } from './item-fields.ts';
import { type ChangeReport, type Refusal, errorReport, failureReport } from './persona-messages.ts';
import type { LoadStatus, PersonasContext } from './personas.svelte.ts';

/**
 * Character arcs: creating one with its stages, adding (at a position) and removing stages,
 * the parts each stage swaps in, and the selected persona's place on an arc: assigned (at a
 * stage), advanced, reset, or taken off. Changes answer a report and never reject.
 */
export class PersonaArcs {
  readonly #context: PersonasContext;
  readonly #coalescedLoad = new CoalescedFetch(() => this.#fetch());

  /** Every arc, by name, with its stages in order and the personas on it. */
  arcs = $state<ArcView[]>([]);
  status = $state<LoadStatus>('idle');
  errorMessage = $state<string | undefined>();

  constructor(context: PersonasContext) {
    this.#context = context;
  }

  /** Fetches the arcs again. Fetches never overlap. */
  load(): Promise<void> {
    return this.#coalescedLoad.run();
  }

  /** Creates an arc from its form (its stages one name a line). */
  create(draft: Draft): Promise<ChangeReport> {
    const { fields, stages } = arcCreateOf(draft);
    return this.#run(
      'The arc was not created',
      () => this.#context.client.arcCreate({ fields, stages }),
      (result) => `Created the arc ${result.item.name}.`,
    );
  }

  /** Deletes an arc no persona is on. */
  remove(arc: string): Promise<ChangeReport> {
    return this.#run(
      `${arc} was not deleted`,
      () => this.#context.client.arcDelete({ name: arc }),
      () => `Deleted the arc ${arc}.`,
    );
  }

  /** Adds a stage from its form, at the end or at a place (0 first). */
  addStage(arc: string, draft: Draft, position?: number): Promise<ChangeReport> {
    return this.#run(
      `The stage was not added to ${arc}`,
      () =>
        this.#context.client.arcStageAdd({
          arc,
          fields: fieldsOf('stage', draft),
          ...(position !== undefined ? { position } : {}),
        }),
      () => `Added the stage ${String(draft.name ?? '').trim()} to ${arc}.`,
    );
  }

  /** Removes a stage no persona is at. */
  removeStage(arc: string, stage: string): Promise<ChangeReport> {
    return this.#run(
      `${stage} was not removed`,
      () => this.#context.client.arcStageRemove({ arc, stage }),
      () => `Removed the stage ${stage} from ${arc}.`,
    );
  }

  /** Makes a stage swap a part in (for the parts of its type). */
  addStagePart(arc: string, stage: string, part: string): Promise<ChangeReport> {
    return this.#run(
      `${part} was not added to ${stage}`,
      () => this.#context.client.stagePartAdd({ arc, stage, part }),
      () => `Added ${part} to the stage ${stage}.`,
    );
  }

  removeStagePart(arc: string, stage: string, part: string): Promise<ChangeReport> {
    return this.#run(
      `${part} was not removed from ${stage}`,
      () => this.#context.client.stagePartRemove({ arc, stage, part }),
      () => `Removed ${part} from the stage ${stage}.`,
    );
  }

  /** Puts the selected persona on an arc (at a stage, else the first), or (null) takes it off its arc. */
  assign(arc: string | null, stage?: string): Promise<ChangeReport> {
    const persona = this.#context.selected;
    if (persona === undefined) return Promise.resolve(errorReport('No arc was assigned', 'no persona is selected'));
    return this.#run(
      arc === null ? `${persona} was not taken off its arc` : `${persona} was not put on ${arc}`,
      () => this.#context.client.personaArcAssign({ persona, arc, ...(stage !== undefined ? { stage } : {}) }),
      (result) =>
        result.item.arc
          ? `${persona} is on ${result.item.arc.name}, at stage ${result.item.arc.stage}.`
          : `${persona} is on no arc now.`,
    );
  }

  /** Moves the selected persona to its arc's next stage. */
  advance(): Promise<ChangeReport> {
    return this.#move('advance');
  }

  /** Moves the selected persona back to its arc's first stage. */
  reset(): Promise<ChangeReport> {
    return this.#move('reset');
  }

  #move(how: 'advance' | 'reset'): Promise<ChangeReport> {
    const persona = this.#context.selected;
    if (persona === undefined) return Promise.resolve(errorReport('Nothing moved', 'no persona is selected'));
    const { client } = this.#context;
    return this.#run(
      how === 'advance' ? `${persona} did not advance` : `${persona} was not reset`,
      () => (how === 'advance' ? client.personaStageAdvance({ persona }) : client.personaStageReset({ persona })),
      (result) => `${persona} is at stage ${result.item.arc?.stage ?? '(none)'} now.`,
    );
  }

  /** Runs a change: its refusal or error as a report; on success, everything fetches again. */
  async #run<R extends { ok: true } | Refusal>(
    what: string,
    call: () => Promise<R>,
    success: (result: Extract<R, { ok: true }>) => string,
  ): Promise<ChangeReport> {
    try {
      const result = await call();
      if (!result.ok) return failureReport(what, result as Refusal);
      await this.#context.changed();
      return { tone: 'success', message: success(result as Extract<R, { ok: true }>) };
    } catch (error) {
      return errorReport(what, messageOf(error));
    }
  }

  async #fetch(): Promise<void> {
    if (this.status !== 'ready') this.status = 'loading';
    try {
      this.arcs = (await this.#context.client.arcList({})).arcs;
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }
}
