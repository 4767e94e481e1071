import type { AgentApi, ModelView } from '#core/api.ts';
import { CoalescedFetch } from '../common/coalesced-fetch.ts';
import { messageOf } from '../common/error-message.ts';
import type { InferenceView } from '../common/model-messages.ts';
import { formOf, settingsOf } from '../settings/inference-form.ts';
import {
  type CustomModelForm,
  type CustomModelReport,
  customModelInput,
  describeAddition,
} from './custom-model-form.ts';
import { GgufModels } from './gguf-models.svelte.ts';
import {
  type DownloadProgress,
  type ModelList,
  type ModelReport,
  arrangeModels,
  describeChoice,
  describeDelete,
  describeDownload,
  describeRemoval,
  downloadError,
  isModelInUse,
} from './model-messages.ts';

/** What the models state needs of the app's agent state: the client, whether this tab may write, and the shared view of the model runs bind. */
export type ModelsHost = {
  readonly client: AgentApi;
  readonly canWrite: boolean;
  readonly run: {
    readonly inference: InferenceView | undefined;
    loadInference(): Promise<void>;
    putInference(view: InferenceView): void;
  };
};

/** Where the list of models stands. */
export type ModelsLoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The change to a model in progress (one at a time: WebLLM loads one model at a time), or how the last one went. */
export type ModelChange =
  | { status: 'idle' }
  | {
      status: 'downloading';
      modelId: string;
      operationId: string;
      progress: DownloadProgress | undefined;
      isCancelling: boolean;
    }
  | { status: 'deleting'; modelId: string; isRepair: boolean }
  | { status: 'removing'; modelId: string }
  | { status: 'choosing'; modelId: string }
  | { status: 'ended'; modelId: string; report: ModelReport };

/** Why "Use this model" is disabled in a tab that only shows the session. */
export const MODELS_READ_ONLY_REASON =
  'Anima is open in another tab, and only that tab can change settings: close it to choose a model here.';

/**
 * The Models screen's state, kept by the app so a download goes on showing its progress when the
 * user visits another screen: the GPU and the models (fetched when the screen opens and after each
 * change), downloading one with its progress, cancelling, repairing (deleting what a stopped
 * download fetched), deleting, and choosing one for runs. Never rejects: outcomes are in `change`.
 */
export class ModelsView {
  readonly #host: ModelsHost;
  readonly #generateId: () => string;
  readonly #coalescedLoad = new CoalescedFetch(() => this.#fetch());
  /** The CPU engine's models (llama.cpp in WebAssembly), loaded apart: they need no GPU, and listing them loads no engine code. */
  readonly gguf: GgufModels;

  list = $state<ModelList | undefined>();
  status = $state<ModelsLoadStatus>('idle');
  errorMessage = $state<string | undefined>();
  change = $state<ModelChange>({ status: 'idle' });
  /** Adding a model by address: under way, or how the last addition went. */
  addition = $state<{ status: 'idle' } | { status: 'adding' } | { status: 'ended'; report: CustomModelReport }>({
    status: 'idle',
  });

  readonly isChanging = $derived(
    this.change.status === 'downloading' ||
      this.change.status === 'deleting' ||
      this.change.status === 'removing' ||
      this.change.status === 'choosing' ||
      this.addition.status === 'adding',
  );
  /** The models this GPU can run, and those it cannot, in the screen's order. */
  readonly arranged = $derived(arrangeModels(this.list?.models ?? []));
  /** The downloaded models this GPU can run: the choices for runs. */
  readonly downloaded = $derived(this.arranged.runnable.filter((model) => model.cached));

  constructor(host: ModelsHost, generateId: () => string = () => crypto.randomUUID()) {
    this.#host = host;
    this.#generateId = generateId;
    this.gguf = new GgufModels(host, generateId);
  }

  /** Why "Use this model" is disabled, or undefined when it works. */
  get blockedReason(): string | undefined {
    return this.#host.canWrite ? undefined : MODELS_READ_ONLY_REASON;
  }

  /** Whether runs bind this model now. */
  isInUse(model: Pick<ModelView, 'id'>): boolean {
    return isModelInUse(model, this.#host.run.inference);
  }

  /** The report of the last change to this model, while it is the last change made. */
  reportOf(model: Pick<ModelView, 'id'>): ModelReport | undefined {
    return this.change.status === 'ended' && this.change.modelId === model.id ? this.change.report : undefined;
  }

  /** Fetches the GPU, the models and the model runs bind again. Fetches never overlap. */
  load(): Promise<void> {
    return this.#coalescedLoad.run();
  }

  /** Downloads a model (and loads it on the GPU), with its progress; then fetches the list again. */
  async download(model: Pick<ModelView, 'id' | 'name'>): Promise<void> {
    if (this.isChanging) return;
    const operationId = this.#generateId();
    this.change = { status: 'downloading', modelId: model.id, operationId, progress: undefined, isCancelling: false };
    let report: ModelReport;
    try {
      const result = await this.#host.client.modelDownload({ operationId, modelId: model.id }, (progress) => {
        if (this.change.status === 'downloading' && this.change.operationId === operationId)
          this.change.progress = progress;
      });
      report = describeDownload(result, model);
    } catch (error) {
      report = downloadError(model, messageOf(error));
    }
    this.change = { status: 'ended', modelId: model.id, report };
    await this.load();
  }

  /** Asks the agent to stop the download; the download's own answer says it was cancelled. */
  async cancelDownload(): Promise<void> {
    if (this.change.status !== 'downloading' || this.change.isCancelling) return;
    const { operationId, modelId } = this.change;
    this.change.isCancelling = true;
    try {
      await this.#host.client.cancel({ operationId });
    } catch (error) {
      if (this.change.status === 'downloading' && this.change.operationId === operationId) {
        this.change = {
          status: 'ended',
          modelId,
          report: {
            tone: 'failure',
            message: `The download could not be cancelled: ${messageOf(error)}`,
            problems: [],
            canRepair: false,
          },
        };
      }
    }
  }

  /** Deletes a downloaded model (the caller has asked the user first), or, with `isRepair`, what a stopped download left. */
  async deleteModel(model: Pick<ModelView, 'id' | 'name'>, options: { isRepair?: boolean } = {}): Promise<void> {
    if (this.isChanging) return;
    const isRepair = options.isRepair ?? false;
    this.change = { status: 'deleting', modelId: model.id, isRepair };
    let report: ModelReport;
    try {
      report = describeDelete(await this.#host.client.modelDelete({ modelId: model.id }), model, isRepair);
    } catch (error) {
      report = {
        tone: 'failure',
        message: `${model.name} was not ${isRepair ? 'repaired' : 'deleted'}: ${messageOf(error)}`,
        problems: [],
        canRepair: isRepair,
      };
    }
    this.change = { status: 'ended', modelId: model.id, report };
    await this.load();
  }

  /** Adds a model that is not in WebLLM's list, by its addresses; true when it was added (the list is fetched again). */
  async addCustom(form: CustomModelForm): Promise<boolean> {
    if (this.isChanging || this.blockedReason !== undefined) return false;
    this.addition = { status: 'adding' };
    let report: CustomModelReport;
    try {
      report = describeAddition(await this.#host.client.modelAdd({ model: customModelInput(form) }));
    } catch (error) {
      report = { tone: 'failure', message: `The model was not added: ${messageOf(error)}`, problems: [], byField: {} };
    }
    this.addition = { status: 'ended', report };
    if (report.tone === 'success') await this.load();
    return report.tone === 'success';
  }

  /** Removes an added model from the list, with its files (the caller has asked the user first). */
  async removeCustom(model: Pick<ModelView, 'id' | 'name'>): Promise<void> {
    if (this.isChanging || this.blockedReason !== undefined) return;
    this.change = { status: 'removing', modelId: model.id };
    let report: ModelReport;
    try {
      report = describeRemoval(await this.#host.client.modelForget({ modelId: model.id }), model);
    } catch (error) {
      report = {
        tone: 'failure',
        message: `${model.name} was not removed: ${messageOf(error)}`,
        problems: [],
        canRepair: false,
      };
    }
    this.change = { status: 'ended', modelId: model.id, report };
    await this.load();
  }

  /** Makes runs bind this model with WebLLM, keeping the other settings (limits, cap, the endpoint and its stored key). */
  async useModel(model: Pick<ModelView, 'id' | 'name'>): Promise<void> {
    if (this.isChanging || this.blockedReason !== undefined) return;
    this.change = { status: 'choosing', modelId: model.id };
    let report: ModelReport;
    try {
      // Read afresh, so a change made in Settings since the screen opened is kept.
      const current = await this.#host.client.inferenceGet({});
      const result = await this.#host.client.inferenceSet({
        settings: settingsOf({ ...formOf(current), provider: 'webllm', webllmModel: model.id }),
      });
      if (result.ok) this.#host.run.putInference(result.settings);
      report = describeChoice(result, model);
    } catch (error) {
      report = {
        tone: 'failure',
        message: `${model.name} was not chosen: ${messageOf(error)}`,
        problems: [],
        canRepair: false,
      };
    }
    this.change = { status: 'ended', modelId: model.id, report };
  }

  async #fetch(): Promise<void> {
    if (this.status !== 'ready') this.status = 'loading';
    try {
      const [list] = await Promise.all([this.#host.client.modelList({}), this.#host.run.loadInference()]);
      this.list = list;
      this.status = 'ready';
      this.errorMessage = undefined;
    } catch (error) {
      this.errorMessage = messageOf(error);
      this.status = 'error';
    }
  }
}
