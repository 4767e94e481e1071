import { type AgentApi, type ModelView, speedClassOf, WEBLLM_MODEL_NOTES, type WebLlmModelNote } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import { parametersText, speedText } from './model-size-words.ts';

/**
 * The words of the Models screen, kept apart from its components so they can be tested: the GPU
 * as WebGPU sees it, sizes, which models to list and in what order, a download's progress, and
 * what a download, a repair, a deletion or a choice did.
 */

/** What the agent says about the GPU, the models, this origin's storage and the chosen model. */
export type ModelList = Awaited<ReturnType<AgentApi['modelList']>>;

/** The GPU as WebGPU sees it: an adapter, or why there is none. */
export type GpuReport = ModelList['gpu'];

/** How much this origin stores, and may store. */

/** How far a download has got, as WebLLM reports it. */
export type DownloadProgress = { fraction: number; text: string };

const MB_PER_GB = 1024;

/** A size given in MB (as WebLLM gives GPU memory): "580 MB", "1.1 GB", "5 GB". */
export function megabytesText(megabytes: number): string {
  if (megabytes < MB_PER_GB) return `${Math.round(megabytes).toLocaleString('en')} MB`;
  const gigabytes = Math.round((megabytes / MB_PER_GB) * 10) / 10;
  return `${gigabytes.toLocaleString('en')} GB`;
}

/** A size in bytes (as the storage estimate gives it): "0 MB", "0.4 MB", "120 MB", "1.5 GB". */
export function bytesText(bytes: number): string {
  const megabytes = bytes / 2 ** 20;
  if (megabytes > 0 && megabytes < 1) return `${(Math.round(megabytes * 10) / 10 || 0.1).toLocaleString('en')} MB`;
  return megabytesText(megabytes);
}

/** The GPU's details as the screen lists them: name, then value. */
export type GpuDetail = { name: string; value: string };

/** The adapter's name, whether it has shader-f16, and its largest buffer; empty when there is no usable GPU. */
export function gpuDetails(gpu: GpuReport): GpuDetail[] {
  if (!gpu.available) return [];
  return [
    { name: 'Adapter', value: gpu.adapter },
    {
      name: 'shader-f16',
      value: gpu.shaderF16 ? 'Yes: models with f16 weights can run' : 'No: only models with f32 weights can run',
    },
    { name: 'Largest buffer', value: megabytesText(gpu.maxBufferMB) },
  ];
}

/** The GPU's state in one sentence: "WebGPU found a GPU." or "WebGPU cannot run a model here: {reason}." */
export function gpuSummary(gpu: GpuReport): string {
  if (gpu.available) return 'WebGPU found a GPU: models run on it, in this browser.';
  return `WebGPU cannot run a model here: ${withoutFinalStop(gpu.reason)}.`;
}

function withoutFinalStop(text: string): string {
  return text.trim().replace(/\.$/, '');
}

/** The models the screen lists: the ones this GPU can run, and the ones it cannot (hidden until asked for). */
export type ArrangedModels = { runnable: ModelView[]; notRunnable: ModelView[] };

/** Models the user added first (they were added to be used), then the recommended, then the rest, smallest first; ties by id, so the order never shifts. */
function byRecommendationThenSize(first: ModelView, second: ModelView): number {
  if ((first.custom === undefined) !== (second.custom === undefined)) return first.custom ? -1 : 1;
  if (first.recommended !== second.recommended) return first.recommended ? -1 : 1;
  return first.vramMB - second.vramMB || first.id.localeCompare(second.id);
}

/** Splits the models into those this GPU can run and those it cannot, each in the screen's order. */
export function arrangeModels(models: readonly ModelView[]): ArrangedModels {
  const runnable = models.filter((model) => model.notRunnableBecause === undefined).sort(byRecommendationThenSize);
  const notRunnable = models
    .filter((model) => model.notRunnableBecause !== undefined)
    .sort((first, second) => first.vramMB - second.vramMB || first.id.localeCompare(second.id));
  return { runnable, notRunnable };
}

/** Models that cannot run here for one reason: the reason is said once, above them. */
export type NotRunnableGroup = { reason: string; heading: string; models: ModelView[] };

/**
 * The models that cannot run here, grouped by why (no usable GPU, f16 weights without shader-f16,
 * ...): one sentence a reason, not one a model. Groups in the order their first model comes;
 * models keep their order.
 */
export function groupByReason(models: readonly ModelView[]): NotRunnableGroup[] {
  const byReason = new Map<string, ModelView[]>();
  for (const model of models) {
    const reason = withoutFinalStop(model.notRunnableBecause ?? '');
    if (reason === '') continue;
    const group = byReason.get(reason);
    if (group) group.push(model);
    else byReason.set(reason, [model]);
  }
  return [...byReason].map(([reason, grouped]) => ({
    reason,
    heading: `${grouped.length.toLocaleString('en')} ${grouped.length === 1 ? 'model cannot' : 'models cannot'} run here: ${reason}.`,
    models: grouped,
  }));
}

/** The toggle that shows the models this GPU cannot run: "Show 8 models this GPU cannot run". */
export function hiddenModelsToggleText(count: number, isShowing: boolean, hasGpu: boolean): string {
  const what = `${count.toLocaleString('en')} ${count === 1 ? 'model' : 'models'} ${hasGpu ? 'this GPU cannot run' : 'that cannot run here'}`;
  return `${isShowing ? 'Hide' : 'Show'} ${what}`;
}

/** "f16 weights (need shader-f16)" or "f32 weights". */
export function weightsText(model: Pick<ModelView, 'needsShaderF16'>): string {
  return model.needsShaderF16 ? 'f16 (needs shader-f16)' : 'f32';
}

/** "4,096 tokens". */
export function contextText(model: Pick<ModelView, 'contextTokens'>): string {
  return `${model.contextTokens.toLocaleString('en')} tokens`;
}

/** "Downloaded", "Partly downloaded" (a download stopped, and left some files) or "Not downloaded". */
export function cacheStateText(model: Pick<ModelView, 'cached' | 'partial'>): string {
  if (model.cached) return 'Downloaded';
  return model.partial ? 'Partly downloaded' : 'Not downloaded';
}

/** A download's progress as a whole percentage, 0 to 100 (WebLLM's fraction may stray out of 0..1). */
export function progressPercent(progress: DownloadProgress | undefined): number {
  const fraction = progress?.fraction ?? 0;
  if (!Number.isFinite(fraction)) return 0;
  return Math.round(Math.min(1, Math.max(0, fraction)) * 100);
}

/** What a download is doing: "Starting the download…", or "42%: " and WebLLM's own words (shown as text only). */
export function progressText(progress: DownloadProgress | undefined): string {
  const text = progress?.text.trim() ?? '';
  if (!progress || (progress.fraction <= 0 && text === '')) return 'Starting the download…';
  const percent = `${progressPercent(progress)}%`;
  return text === '' ? percent : `${percent}: ${text}`;
}

/** What the screen says about a change to a model once it ends. `canRepair`: a download stopped, and Repair and Try again are offered. */
export type ModelReport =
  | { tone: 'success'; message: string }
  | { tone: 'cancelled'; message: string; canRepair: true }
  | { tone: 'failure'; message: string; problems: string[]; canRepair: boolean };

/** "SmolLM2 360M (SmolLM2-360M-Instruct-q4f32_1-MLC)". */
export function modelTitle(model: Pick<ModelView, 'id' | 'name'>): string {
  return `${model.name} (${model.id})`;
}

/** Says how a download went, from modelDownload's answer. */
export function describeDownload(
  result: Awaited<ReturnType<AgentApi['modelDownload']>>,
  model: Pick<ModelView, 'id' | 'name'>,
): ModelReport {
  if (result.ok)
    return { tone: 'success', message: `Downloaded ${modelTitle(model)}: it now runs on this device, offline too.` };
  if (result.cancelled)
    return {
      tone: 'cancelled',
      message: 'The download was cancelled. What was fetched stays: Try again goes on from there, Repair deletes it.',
      canRepair: true,
    };
  return {
    tone: 'failure',
    message: `${model.name} was not downloaded:`,
    problems: result.problems.map(describeProblem),
    canRepair: true,
  };
}

/** Says how a download went when the call itself failed (the worker stopped, say). */
export function downloadError(model: Pick<ModelView, 'name'>, message: string): ModelReport {
  return { tone: 'failure', message: `${model.name} was not downloaded: ${message}`, problems: [], canRepair: true };
}

/** Says how a deletion or a repair went, from modelDelete's answer. */
export function describeDelete(
  result: Awaited<ReturnType<AgentApi['modelDelete']>>,
  model: Pick<ModelView, 'id' | 'name'>,
  isRepair: boolean,
): ModelReport {
  if (result.ok) {
    return isRepair
      ? { tone: 'success', message: `Deleted what was fetched of ${model.name}: a new download starts clean.` }
      : { tone: 'success', message: `Deleted ${modelTitle(model)} from this device.` };
  }
  return {
    tone: 'failure',
    message: `${model.name} was not ${isRepair ? 'repaired' : 'deleted'}:`,
    problems: result.problems.map(describeProblem),
    canRepair: isRepair,
  };
}

/** The question asked before a deletion; it says what happens to runs when the model is the one in use. */
export function deleteQuestion(model: Pick<ModelView, 'id' | 'name'>, isInUse: boolean): string {
  const runs = isInUse
    ? ' Runs bind it: until it is downloaded again, or you choose another, they use the symbolic engine alone.'
    : '';
  return `Delete ${modelTitle(model)}? Its files leave this device; using it again takes a new download.${runs}`;
}

/** Says how removing an added model went, from modelForget's answer. */
export function describeRemoval(
  result: Awaited<ReturnType<AgentApi['modelForget']>>,
  model: Pick<ModelView, 'id' | 'name'>,
): ModelReport {
  if (result.ok) return { tone: 'success', message: `Removed ${modelTitle(model)} and its files from this device.` };
  return {
    tone: 'failure',
    message: `${model.name} was not removed:`,
    problems: result.problems.map(describeProblem),
    canRepair: false,
  };
}

/** The question asked before an added model is removed from the list. */
export function removeQuestion(model: Pick<ModelView, 'id' | 'name'>, isInUse: boolean): string {
  const runs = isInUse
    ? ' Runs bind it: until you add it again or choose another, they use the symbolic engine alone.'
    : '';
  return `Remove ${modelTitle(model)} from the list? Its downloaded files leave this device too; using it again means adding it again.${runs}`;
}

/** Says how "Use this model" went, from inferenceSet's answer. */
export function describeChoice(
  result: Awaited<ReturnType<AgentApi['inferenceSet']>>,
  model: Pick<ModelView, 'id' | 'name'>,
): ModelReport {
  if (result.ok)
    return {
      tone: 'success',
      message: `Runs now bind ${model.name} (WebLLM). Your limits and other settings stay as they were.`,
    };
  // The settings' field names mean nothing on this screen: the messages alone say what is wrong.
  return {
    tone: 'failure',
    message: `${model.name} was not chosen:`,
    problems: result.problems.map((problem) => problem.message),
    canRepair: false,
  };
}

/** Whether a model is the one runs bind: WebLLM is the provider, and this is its model. */
export function isModelInUse(
  model: Pick<ModelView, 'id'>,
  inference: { provider: string; webllmModel?: string | undefined } | undefined,
): boolean {
  return inference?.provider === 'webllm' && inference.webllmModel === model.id;
}

/** What a model of WebLLM's list is good for, its size and speed, and whether it suits limited devices; undefined for a model added here. */
export function webLlmModelNote(
  model: Pick<ModelView, 'id'>,
): { goodFor: string; size: string; speed: string; lowResource: boolean } | undefined {
  const note = (WEBLLM_MODEL_NOTES as Record<string, WebLlmModelNote | undefined>)[model.id];
  if (!note) return undefined;
  const speed = speedClassOf(note.parameters);
  return {
    goodFor: `Good for ${note.goodFor}.`,
    size: `${parametersText(note.parameters)} parameters`,
    speed: speedText(speed, 'GPU'),
    lowResource: note.lowResource,
  };
}
