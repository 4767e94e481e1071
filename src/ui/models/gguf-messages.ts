import {
  type AgentApi,
  type GgufModelView,
  type GgufRecommendation,
  ggufRecommendationMemoryBytes,
  ggufRecommendationUrl,
  speedClassOf,
} from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import { bytesText } from './model-messages.ts';
import { parametersText, speedText } from './model-size-words.ts';

/**
 * The words of the CPU engine's part of the Models screen (llama.cpp in WebAssembly, running GGUF
 * models): a model's header facts, where it came from, adding one with its progress, and what an
 * addition, a deletion or a choice did. Names and addresses come from files and users: the
 * components show them as text only.
 */

/** What the agent says about the CPU engine and the GGUF models added here. */
export type GgufList = Awaited<ReturnType<AgentApi['ggufList']>>;

/** Where an addition stands, as the agent reports it. */
export type GgufProgress = { phase: 'storing' | 'downloading'; bytesWritten: number; totalBytes?: number | undefined };

/** Where a model comes from, as `ggufAdd` takes it. */
export type GgufSource = { kind: 'file'; file: Blob; fileName: string } | { kind: 'url'; url: string };

/** What the screen says when a change to the GGUF models ends. */
export type GgufReport =
  | { tone: 'success'; message: string }
  | { tone: 'cancelled'; message: string }
  | { tone: 'failure'; message: string; problems: string[] };

/** What the section says the CPU engine is. */
export const GGUF_INTRO =
  'llama.cpp, built for WebAssembly, runs any GGUF model on the CPU, in every browser: no GPU needed, but slower than one. Add a model file once: it is kept on this device and runs offline.';

/** What the section adds when WebGPU cannot run a model here. */
export const GGUF_RECOMMENDED = 'WebGPU cannot run a model in this browser: the CPU engine is the way to run one here.';

/** Which model sizes suit which memory. */
export const GGUF_SIZE_NOTE =
  'Which size suits which memory: 135M–360M parameters need under 1 GB; 0.5B–1B at Q4 need 1–2 GB; 3B at Q4 needs about 3 GB.';

/** Why the Models screen's CPU engine controls are disabled in a tab that only shows the session. */
export const GGUF_READ_ONLY_REASON =
  'Anima is open in another tab, and only that tab can add, delete or choose a model: close it to change them here.';

/** Why the CPU engine cannot run here, in one sentence, from the agent's reason. */
export function ggufUnavailableText(reason: string | undefined): string {
  const because = reason?.trim().replace(/\.$/, '') ?? '';
  return because === '' ? 'The CPU engine cannot run here.' : `The CPU engine cannot run here: ${because}.`;
}

/** A model's name: the name its file gives (general.name), else its file name. */
export function ggufName(model: Pick<GgufModelView, 'name' | 'fileName'>): string {
  const name = model.name?.trim() ?? '';
  return name === '' ? model.fileName : name;
}

/** "anima-tiny-7 (tiny.gguf)"; just the file name when it is the name. */
export function ggufTitle(model: Pick<GgufModelView, 'name' | 'fileName'>): string {
  const name = ggufName(model);
  return name === model.fileName ? name : `${name} (${model.fileName})`;
}

/** "256 tokens", or that the file does not say. */
export function ggufContextText(model: Pick<GgufModelView, 'contextLength'>): string {
  return model.contextLength === undefined ? 'not given' : `${model.contextLength.toLocaleString('en')} tokens`;
}

/** "about 1.2 GB": the memory a model takes loaded. */
export function memoryText(model: Pick<GgufModelView, 'memoryBytes'>): string {
  return `about ${bytesText(model.memoryBytes)}`;
}

/** "a file picked on this device", or the address it was downloaded from. */
export function sourceText(model: Pick<GgufModelView, 'source'>): string {
  return model.source.kind === 'file' ? 'a file picked on this device' : model.source.url;
}

/** The file name an address names: its last path segment, else the host. */
export function fileNameOfUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const last = parsed.pathname
      .split('/')
      .filter((part) => part !== '')
      .at(-1);
    if (last === undefined) return parsed.host;
    try {
      return decodeURIComponent(last);
    } catch {
      return last;
    }
  } catch {
    return url;
  }
}

/** Why an address cannot be downloaded from, before asking the agent; undefined when it can. */
export function urlProblem(text: string): string | undefined {
  const url = text.trim();
  if (url === '') return 'Enter the address of a .gguf file.';
  if (url.length > 2000) return 'The address is longer than 2,000 characters.';
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return 'Enter a whole address, starting with https://.';
  }
  if (protocol !== 'https:' && protocol !== 'http:') return 'Enter an http(s) address.';
  return undefined;
}

/** A whole percentage of an addition, when its total is known. */
export function ggufProgressPercent(progress: GgufProgress | undefined): number | undefined {
  if (!progress?.totalBytes || progress.totalBytes <= 0) return undefined;
  return Math.round(Math.min(1, Math.max(0, progress.bytesWritten / progress.totalBytes)) * 100);
}

/** "Downloading: 12 MB of 40 MB (30%)", "Storing the file: 3 MB so far", or "Starting…". */
export function ggufProgressText(progress: GgufProgress | undefined): string {
  if (!progress) return 'Starting…';
  const doing = progress.phase === 'downloading' ? 'Downloading' : 'Storing the file';
  const percent = ggufProgressPercent(progress);
  if (percent === undefined || progress.totalBytes === undefined)
    return `${doing}: ${bytesText(progress.bytesWritten)} so far`;
  return `${doing}: ${bytesText(progress.bytesWritten)} of ${bytesText(progress.totalBytes)} (${percent}%)`;
}

/** Says how an addition went, from ggufAdd's answer. */
export function describeAdd(result: Awaited<ReturnType<AgentApi['ggufAdd']>>, sourceName: string): GgufReport {
  if (result.ok)
    return { tone: 'success', message: `Added ${ggufTitle(result.model)}: it runs on the CPU, offline too.` };
  if (result.cancelled) return { tone: 'cancelled', message: `Adding ${sourceName} was cancelled; nothing was kept.` };
  // The agent's problems name the file ("page.html: not a GGUF model: …").
  return { tone: 'failure', message: 'The model was not added:', problems: result.problems.map(describeProblem) };
}

/** Says how a deletion went, from ggufDelete's answer. */
export function describeGgufDelete(
  result: Awaited<ReturnType<AgentApi['ggufDelete']>>,
  model: Pick<GgufModelView, 'name' | 'fileName'>,
): GgufReport {
  if (result.ok) return { tone: 'success', message: `Deleted ${ggufTitle(model)} from this device.` };
  return {
    tone: 'failure',
    message: `${ggufName(model)} was not deleted:`,
    problems: result.problems.map(describeProblem),
  };
}

/** The question asked before a deletion; it says what happens to runs when the model is the one in use. */
export function ggufDeleteQuestion(model: Pick<GgufModelView, 'name' | 'fileName'>, isInUse: boolean): string {
  const runs = isInUse
    ? ' Runs bind it: until it is added again, or you choose another, they use the symbolic engine alone.'
    : '';
  return `Delete ${ggufTitle(model)}? Its file leaves this device; using it again means adding it again.${runs}`;
}

/** Says how "Use this model" went, from inferenceSet's answer. */
export function describeGgufChoice(
  result: Awaited<ReturnType<AgentApi['inferenceSet']>>,
  model: Pick<GgufModelView, 'name' | 'fileName'>,
): GgufReport {
  if (result.ok)
    return {
      tone: 'success',
      message: `Runs now bind ${ggufName(model)} (CPU engine). Your limits and other settings stay as they were.`,
    };
  return {
    tone: 'failure',
    message: `${ggufName(model)} was not chosen:`,
    problems: result.problems.map((problem) => problem.message),
  };
}

/** Whether a GGUF model is the one runs bind: the CPU engine is the provider, and this is its model. */
export function isGgufInUse(
  model: Pick<GgufModelView, 'id'>,
  inference: { provider: string; ggufModel?: string | undefined } | undefined,
): boolean {
  return inference?.provider === 'gguf' && inference.ggufModel === model.id;
}

/** A size in decimal units, as Hugging Face lists a file's: "386 MB", "2.39 GB". */
export function downloadSizeText(bytes: number): string {
  return bytes < 1e9 ? `${Math.round(bytes / 1e6).toLocaleString('en')} MB` : `${(bytes / 1e9).toFixed(2)} GB`;
}

/** A recommended model's facts in words, for its card. */
export function recommendationFacts(model: GgufRecommendation): { name: string; value: string }[] {
  return [
    { name: 'Download', value: downloadSizeText(model.downloadBytes) },
    { name: 'Memory needed', value: `about ${downloadSizeText(ggufRecommendationMemoryBytes(model))}` },
    { name: 'Speed', value: speedText(speedClassOf(model.parameters), 'CPU') },
    { name: 'Size', value: `${parametersText(model.parameters)} parameters, ${model.quantisation}` },
  ];
}

/** Whether a recommended model is added here already: a model added from its address, or a file of its name. */
export function isRecommendationAdded(model: GgufRecommendation, added: readonly GgufModelView[]): boolean {
  const url = ggufRecommendationUrl(model);
  return added.some(
    (candidate) =>
      (candidate.source.kind === 'url' && candidate.source.url === url) || candidate.fileName === model.fileName,
  );
}

/** Says, above the list, that sizes are what is downloaded. */
export const RECOMMENDED_NOTE =
  'Models that run well on the CPU, smallest first. Download is the size of the file fetched once; memory is what the model takes while it runs.';
