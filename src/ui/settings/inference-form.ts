import type { AgentApi } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import { countText } from '#core/api.ts';
import { type InferenceView, boundModelText, bottleneckText, providerLabel } from '../common/model-messages.ts';

/** The providers a run can bind. */
export type ProviderChoice = InferenceView['provider'];

/** The provider choices of the form, in order, each with its label and a hint. */
export const PROVIDER_CHOICES = [
  { value: 'none', label: 'None (symbolic engine alone)', hint: 'The agent works with its own tools only, as before.' },
  {
    value: 'openai-compatible',
    label: 'OpenAI-compatible endpoint',
    hint: 'A server that speaks the OpenAI chat API: llama.cpp, vLLM, Ollama, or a hosted one.',
  },
  {
    value: 'webllm',
    label: "WebLLM (on this device's GPU)",
    hint: 'A model that runs in this browser with WebGPU, once downloaded.',
  },
  {
    value: 'gguf',
    label: 'CPU engine (llama.cpp, any browser)',
    hint: 'A GGUF model that runs in this browser on the CPU, once added: slower than a GPU, but it needs none.',
  },
] as const satisfies readonly { value: ProviderChoice; label: string; hint: string }[];

/** The limits of a run, each with its label; whole numbers except the wall time. */
export const LIMIT_FIELDS = {
  requests: { label: 'Requests', isWholeNumber: true },
  toolCalls: { label: 'Tool calls', isWholeNumber: true },
  inputTokens: { label: 'Input tokens', isWholeNumber: true },
  outputTokens: { label: 'Output tokens', isWholeNumber: true },
  wallSeconds: { label: 'Wall time (seconds)', isWholeNumber: false },
} as const;
export type LimitField = keyof typeof LIMIT_FIELDS;
export const LIMIT_FIELD_NAMES = Object.keys(LIMIT_FIELDS) as LimitField[];

/** The settings as the form holds them: an emptied number field holds null; the API key field is empty unless a new key is typed. */
export type InferenceForm = {
  provider: ProviderChoice;
  baseUrl: string;
  model: string;
  apiKey: string;
  /** The endpoint's model is marked as seeing images: tools' image artifacts are shown to it. */
  vision: boolean;
  webllmModel: string;
  /** The id of the chosen GGUF model ('' for none yet). */
  ggufModel: string;
  limits: Record<LimitField, number | null>;
  confidenceCap: number | null;
};

/** The fields a problem can name, by the path the agent gives it. */
export const INFERENCE_FIELD_LABELS = {
  provider: 'Provider',
  openAi: 'OpenAI-compatible endpoint',
  'openAi.baseUrl': 'Base URL',
  'openAi.model': 'Model',
  'openAi.apiKey': 'API key',
  webllmModel: 'WebLLM model',
  ggufModel: 'GGUF model',
  'limits.requests': 'Requests',
  'limits.toolCalls': 'Tool calls',
  'limits.inputTokens': 'Input tokens',
  'limits.outputTokens': 'Output tokens',
  'limits.wallSeconds': 'Wall time (seconds)',
  confidenceCap: 'Confidence cap',
} as const satisfies Record<string, string> & Record<`limits.${LimitField}`, string>;
export type InferenceField = keyof typeof INFERENCE_FIELD_LABELS;

export const INFERENCE_READ_ONLY_REASON =
  'Anima is open in another tab, and only that tab can change settings: close it to change the language model here.';

/** The lowest and highest confidence cap the agent takes. */
export const CONFIDENCE_CAP_RANGE = { min: 0.05, max: 1 } as const;

/** A problem found before or after saving, located at a field when it names one. */
export type InferenceProblem = { path?: string; message: string };

/** How a save went, in words: a failure has the problems by field (shown next to each) and all of them in a list. */
export type InferenceSaveReport =
  | { tone: 'success'; message: string }
  | { tone: 'failure'; message: string; problems: string[]; byField: Partial<Record<InferenceField, string[]>> };

export function formOf(view: InferenceView): InferenceForm {
  const limits = {} as Record<LimitField, number | null>;
  for (const field of LIMIT_FIELD_NAMES) limits[field] = view.limits[field] ?? null;
  return {
    provider: view.provider,
    baseUrl: view.openAi?.baseUrl ?? '',
    model: view.openAi?.model ?? '',
    apiKey: '',
    vision: view.openAi?.vision ?? false,
    webllmModel: view.webllmModel ?? '',
    ggufModel: view.ggufModel ?? '',
    limits,
    confidenceCap: view.confidenceCap,
  };
}

function isEmpty(value: number | null | undefined): value is null | undefined {
  return value === null || value === undefined || Number.isNaN(value);
}

/**
 * The settings a form asks for, as the agent takes them. The endpoint is sent when it is the
 * chosen provider, or when it is filled in (so choosing another provider keeps it, and its key);
 * an empty key field keeps the stored key, and `removeKey` removes it. The WebLLM and GGUF models
 * are sent whenever chosen, so switching provider keeps the other's. Empty limits are no limits.
 */
export function settingsOf(form: InferenceForm, options: { removeKey?: boolean } = {}): Record<string, unknown> {
  const baseUrl = form.baseUrl.trim();
  const model = form.model.trim();
  const hasEndpoint = form.provider === 'openai-compatible' || (baseUrl !== '' && model !== '');
  const apiKey = options.removeKey ? '' : form.apiKey.trim() === '' ? undefined : form.apiKey.trim();
  const webllmModel = form.webllmModel.trim();
  const ggufModel = form.ggufModel.trim();
  const limits: Partial<Record<LimitField, number>> = {};
  for (const field of LIMIT_FIELD_NAMES) {
    const value = form.limits[field];
    if (!isEmpty(value)) limits[field] = value;
  }
  return {
    provider: form.provider,
    ...(hasEndpoint
      ? {
          openAi: {
            baseUrl,
            model,
            ...(apiKey !== undefined ? { apiKey } : {}),
            ...(form.vision ? { vision: true } : {}),
          },
        }
      : {}),
    ...(webllmModel !== '' ? { webllmModel } : {}),
    ...(ggufModel !== '' ? { ggufModel } : {}),
    limits,
    confidenceCap: form.confidenceCap,
  };
}

/** Whether the form asks for something other than the saved settings (the check uses the saved ones). */
export function hasUnsavedChanges(form: InferenceForm, saved: InferenceView): boolean {
  return JSON.stringify(settingsOf(form)) !== JSON.stringify(settingsOf(formOf(saved)));
}

/** "Leave it empty for no limit; otherwise a whole number above 0." */
export function limitHint(field: LimitField): string {
  return LIMIT_FIELDS[field].isWholeNumber
    ? 'Enter a whole number above 0, or leave it empty for no limit.'
    : 'Enter a number of seconds above 0, or leave it empty for no limit.';
}

export const CONFIDENCE_CAP_HINT = `Facts a model adds get at most this confidence until something confirms them: from ${CONFIDENCE_CAP_RANGE.min} to ${CONFIDENCE_CAP_RANGE.max}.`;

/** The problems the form can see before asking the agent: a limit that is not above 0 (or not whole), an empty confidence cap. */
export function formProblems(form: InferenceForm): InferenceProblem[] {
  const problems: InferenceProblem[] = [];
  for (const field of LIMIT_FIELD_NAMES) {
    const value = form.limits[field];
    if (isEmpty(value)) continue;
    if (value <= 0 || !Number.isFinite(value) || (LIMIT_FIELDS[field].isWholeNumber && !Number.isInteger(value)))
      problems.push({ path: `limits.${field}`, message: limitHint(field) });
  }
  if (isEmpty(form.confidenceCap))
    problems.push({
      path: 'confidenceCap',
      message: `enter a confidence from ${CONFIDENCE_CAP_RANGE.min} to ${CONFIDENCE_CAP_RANGE.max}`,
    });
  return problems;
}

function isField(path: string | undefined): path is InferenceField {
  return path !== undefined && Object.hasOwn(INFERENCE_FIELD_LABELS, path);
}

/** The report of problems: each named by its field's label in the list, and kept by field to show next to it. */
export function describeProblems(
  problems: readonly InferenceProblem[],
): Extract<InferenceSaveReport, { tone: 'failure' }> {
  const byField: Partial<Record<InferenceField, string[]>> = {};
  const listed = problems.map((problem) => {
    if (!isField(problem.path)) return describeProblem(problem);
    (byField[problem.path] ??= []).push(problem.message);
    return `${INFERENCE_FIELD_LABELS[problem.path]}: ${problem.message}`;
  });
  return { tone: 'failure', message: 'The language model settings were not changed:', problems: listed, byField };
}

/** The limits of a run in words: "5 requests and 30 s of wall time", or undefined when there are none. */
export function limitsText(limits: InferenceView['limits']): string | undefined {
  const parts = [
    limits.requests !== undefined ? countText(limits.requests, 'request') : undefined,
    limits.toolCalls !== undefined ? countText(limits.toolCalls, 'tool call') : undefined,
    limits.inputTokens !== undefined ? countText(limits.inputTokens, 'input token') : undefined,
    limits.outputTokens !== undefined ? countText(limits.outputTokens, 'output token') : undefined,
    limits.wallSeconds !== undefined ? `${limits.wallSeconds.toLocaleString('en')} s of wall time` : undefined,
  ].filter((part) => part !== undefined);
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** How a save went, in words. */
export function describeSave(result: Awaited<ReturnType<AgentApi['inferenceSet']>>): InferenceSaveReport {
  if (!result.ok) return describeProblems(result.problems);
  const { settings } = result;
  if (settings.provider === 'none') return { tone: 'success', message: 'Saved: runs use the symbolic engine alone.' };
  const limits = limitsText(settings.limits);
  return {
    tone: 'success',
    message: `Saved: runs bind ${boundModelText(settings)}, ${limits ? `within ${limits} each` : 'with no limits'}.`,
  };
}

/** How a removal of the API key went, in words. */
export function describeKeyRemoval(result: Awaited<ReturnType<AgentApi['inferenceSet']>>): InferenceSaveReport {
  if (!result.ok) return { ...describeProblems(result.problems), message: 'The API key was not removed:' };
  return { tone: 'success', message: 'The API key is removed from this device.' };
}

/** What a check of the model found: its answer or its bottleneck (with attempts and tokens), a cancelled check, or why none could run. */
export type CheckReport =
  | { tone: 'answer'; answer: string; summary: string }
  | { tone: 'bottleneck'; bottleneck: string; summary: string }
  | { tone: 'cancelled'; message: string }
  | { tone: 'failure'; message: string; problems: string[] };

type CheckResult = Awaited<ReturnType<AgentApi['inferenceCheck']>>;

/** "tiny-test (OpenAI-compatible): 1 attempt, 12 prompt + 5 completion tokens." */
export function checkSummary(check: Extract<CheckResult, { ok: true }>['check']): string {
  return `${check.model} (${providerLabel(check.provider)}): ${countText(check.attempts, 'attempt')}, ${check.promptTokens.toLocaleString('en')} prompt + ${check.completionTokens.toLocaleString('en')} completion tokens.`;
}

/** How a check went, in words; `wasCancelled` when the user cancelled it. */
export function describeCheck(result: CheckResult, wasCancelled = false): CheckReport {
  if (!result.ok) {
    if (wasCancelled) return { tone: 'cancelled', message: 'The check was cancelled.' };
    return { tone: 'failure', message: 'The check could not run:', problems: result.problems.map(describeProblem) };
  }
  const { check } = result;
  const summary = checkSummary(check);
  if (check.bottleneck) return { tone: 'bottleneck', bottleneck: bottleneckText(check.bottleneck), summary };
  return { tone: 'answer', answer: check.answer ?? '', summary };
}
