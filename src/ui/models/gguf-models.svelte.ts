import type { GgufModelView } from '#core/api.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import { messageOf } from '../common/error-message.ts';
import { formOf, settingsOf } from '../settings/inference-form.ts';
import {
  GGUF_READ_ONLY_REASON,
  type GgufList,
  type GgufProgress,
  type GgufReport,
  type GgufSource,
  describeAdd,
  describeGgufChoice,
  describeGgufDelete,
  fileNameOfUrl,
  ggufName,
  isGgufInUse,
  urlProblem,
} from './gguf-messages.ts';
import type { ModelsHost, ModelsLoadStatus } from './models.svelte.ts';

/**
 * The change to the GGUF models in progress (one at a time), or how the last one went. The report
 * of an addition, and of a deletion that worked, belongs to the section (`modelId` undefined: the
 * model was not listed before, or is not any more); a choice's, or a failed deletion's, to its model.
 */
export type GgufChange =
  | { status: 'idle' }
  | {
      status: 'adding';
      operationId: string;
      sourceName: string;
      progress: GgufProgress | undefined;
      isCancelling: boolean;
    }
  | { status: 'deleting'; modelId: string }
  | { status: 'choosing'; modelId: string }
  | { status: 'ended'; modelId: string | undefined; report: GgufReport };

/**
 * The CPU engine's state (llama.cpp in WebAssembly): whether it is here, the GGUF models added
 * (fetched when the Models screen or Settings opens, and after each change), adding one from a
 * file or an address with its progress, cancelling, deleting, and choosing one for runs. Kept by
 * the app (in the models state), so an addition goes on showing its progress on other screens.
 * Never rejects: outcomes are in `change`.
 */
export class GgufModels {
  readonly #host: ModelsHost;
  readonly #generateId: () => string;
  readonly #coalescedLoad = new CoalescedFetch(() => this.#fetch());

  list = $state<GgufList | undefined>();
  status = $state<ModelsLoadStatus>('idle');
  errorMessage = $state<string | undefined>();
  change = $state<GgufChange>({ status: 'idle' });
  #cancelError = $state<string | undefined>();

  readonly isChanging = $derived(
    this.change.status === 'adding' || this.change.status === 'deleting' || this.change.status === 'choosing',
  );
  /** The models added here, oldest first. */
  readonly models = $derived<readonly GgufModelView[]>(this.list?.models ?? []);
  /** The report of the last addition or deletion of a model, while it is the last change made. */
  readonly listReport = $derived(
    this.change.status === 'ended' && this.change.modelId === undefined ? this.change.report : undefined,
  );

  constructor(host: ModelsHost, generateId: () => string = () => crypto.randomUUID()) {
    this.#host = host;
    this.#generateId = generateId;
  }

  /** Why adding, deleting and choosing are disabled (the agent refuses them in a tab that only shows the session), or undefined when they work. */
  get blockedReason(): string | undefined {
    return this.#host.canWrite ? undefined : GGUF_READ_ONLY_REASON;
  }

  /** Whether runs bind this model now. */
  isInUse(model: Pick<GgufModelView, 'id'>): boolean {
    return isGgufInUse(model, this.#host.run.inference);
  }

  /** The report of the last change to this model, while it is the last change made. */
  reportOf(model: Pick<GgufModelView, 'id'>): GgufReport | undefined {
    return this.change.status === 'ended' && this.change.modelId === model.id ? this.change.report : undefined;
  }

  /** Fetches the CPU engine's state, the models and the model runs bind again. Fetches never overlap. */
  load(): Promise<void> {
    return this.#coalescedLoad.run();
  }

  /** Adds a model file picked on this device (its header is checked first: a file that is not a model is refused). */
  addFile(file: File): Promise<void> {
    return this.#add({ kind: 'file', file, fileName: file.name }, file.name);
  }

  /**
   * Downloads a model from an address and keeps it. An address the agent would not take is
   * refused here, with the reason, and nothing is asked.
   */
  addUrl(text: string): Promise<void> {
    if (this.isChanging || this.blockedReason !== undefined) return Promise.resolve();
    const problem = urlProblem(text);
    if (problem !== undefined) {
      this.change = {
        status: 'ended',
        modelId: undefined,
        report: { tone: 'failure', message: 'The model was not added:', problems: [problem] },
      };
      return Promise.resolve();
    }
    const url = text.trim();
    return this.#add({ kind: 'url', url }, fileNameOfUrl(url));
  }

  /** Asks the agent to stop the addition; the addition's own answer says it was cancelled. */
  async cancelAdd(): Promise<void> {
    if (this.change.status !== 'adding' || this.change.isCancelling) return;
    const { operationId } = this.change;
    this.change.isCancelling = true;
    try {
      await this.#host.client.cancel({ operationId });
    } catch (error) {
      if (this.change.status === 'adding' && this.change.operationId === operationId) this.change.isCancelling = false;
      this.#cancelError = messageOf(error);
    }
  }

  /** Why the last cancel failed, shown while the addition goes on. */
  get cancelError(): string | undefined {
    return this.change.status === 'adding' ? this.#cancelError : undefined;
  }

  /** Deletes a model's file and record (the caller has asked the user first). */
  async deleteModel(model: GgufModelView): Promise<void> {
    if (this.isChanging || this.blockedReason !== undefined) return;
    this.change = { status: 'deleting', modelId: model.id };
    let report: GgufReport;
    try {
      report = describeGgufDelete(await this.#host.client.ggufDelete({ id: model.id }), model);
    } catch (error) {
      report = { tone: 'failure', message: `${ggufName(model)} was not deleted: ${messageOf(error)}`, problems: [] };
    }
    // A deleted model leaves the list: the section says so.
    this.change = { status: 'ended', modelId: report.tone === 'success' ? undefined : model.id, report };
    await this.load();
  }

  /** Makes runs bind this model with the CPU engine, keeping the other settings (limits, cap, the endpoint and its stored key, the WebLLM model). */
  async useModel(model: GgufModelView): Promise<void> {
    if (this.isChanging || this.blockedReason !== undefined) return;
    this.change = { status: 'choosing', modelId: model.id };
    let report: GgufReport;
    try {
      // Read afresh, so a change made in Settings since the screen opened is kept.
      const current = await this.#host.client.inferenceGet({});
      const result = await this.#host.client.inferenceSet({
        settings: settingsOf({ ...formOf(current), provider: 'gguf', ggufModel: model.id }),
      });
      if (result.ok) this.#host.run.putInference(result.settings);
      report = describeGgufChoice(result, model);
    } catch (error) {
      report = { tone: 'failure', message: `${ggufName(model)} was not chosen: ${messageOf(error)}`, problems: [] };
    }
    this.change = { status: 'ended', modelId: model.id, report };
  }

  async #add(source: GgufSource, sourceName: string): Promise<void> {
    if (this.isChanging || this.blockedReason !== undefined) return;
    const operationId = this.#generateId();
    this.#cancelError = undefined;
    this.change = { status: 'adding', operationId, sourceName, progress: undefined, isCancelling: false };
    let report: GgufReport;
    try {
      const result = await this.#host.client.ggufAdd({ operationId, source }, (progress) => {
        if (this.change.status === 'adding' && this.change.operationId === operationId) this.change.progress = progress;
      });
      report = describeAdd(result, sourceName);
    } catch (error) {
      report = { tone: 'failure', message: `${sourceName} was not added: ${messageOf(error)}`, problems: [] };
    }
    this.change = { status: 'ended', modelId: undefined, report };
    await this.load();
  }

  async #fetch(): Promise<void> {
    if (this.status !== 'ready') this.status = 'loading';
    try {
      const [list] = await Promise.all([this.#host.client.ggufList({}), this.#host.run.loadInference()]);
      this.list = list;
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }
}
