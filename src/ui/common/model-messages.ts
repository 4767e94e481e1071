import type { AgentApi, CycleRecord, RunUsage } from '#core/api.ts';
import { countText } from '#core/api.ts';

/** Which model runs bind, as the agent shows it (whether an API key is stored, never the key). */
export type InferenceView = Awaited<ReturnType<AgentApi['inferenceGet']>>;

/** What a tool's model calls used in one cycle (the cycle record's `model`). */
export type ModelUse = NonNullable<CycleRecord['model']>;

/** A model's truthful stop, as the core reports it. */
export type Bottleneck = NonNullable<ModelUse['bottleneck']>;

/** A bottleneck's kind in words. */
export const BOTTLENECK_KIND_LABELS = {
  contradiction: 'contradiction',
  missing_input: 'missing input',
  invalid_output: 'invalid output',
  policy_block: 'policy block',
  dependency_unavailable: 'dependency unavailable',
  budget_exhausted: 'budget exhausted',
} as const satisfies Record<Bottleneck['kind'], string>;

/** The providers a run can bind, as the UI names them. */
export const PROVIDER_LABELS = {
  none: 'none',
  'openai-compatible': 'OpenAI-compatible',
  webllm: 'WebLLM',
  gguf: 'CPU engine',
} as const satisfies Record<InferenceView['provider'], string>;

/** A provider's name in words; a name the UI does not know is shown as it came. */
export function providerLabel(provider: string): string {
  return Object.hasOwn(PROVIDER_LABELS, provider)
    ? PROVIDER_LABELS[provider as keyof typeof PROVIDER_LABELS]
    : provider;
}

/** "invalid output — the answer is not JSON". */
export function bottleneckText(bottleneck: Bottleneck): string {
  const detail = bottleneck.detail.trim();
  return detail === ''
    ? BOTTLENECK_KIND_LABELS[bottleneck.kind]
    : `${BOTTLENECK_KIND_LABELS[bottleneck.kind]} — ${detail}`;
}

/** A cycle's model use: "llama-3 (OpenAI-compatible): 2 requests, 120 prompt + 30 completion tokens (50 + 10, 70 + 20)", each request's tokens last. */
export function modelUseText(use: ModelUse): string {
  const total = `${use.model} (${providerLabel(use.provider)}): ${countText(use.requests, 'request')}, ${use.promptTokens.toLocaleString('en')} prompt + ${use.completionTokens.toLocaleString('en')} completion tokens`;
  // With more than one request, each one's share: which step read the most.
  if (!use.steps || use.steps.length < 2) return total;
  return `${total} (${use.steps.map((step) => `${step.promptTokens.toLocaleString('en')} + ${step.completionTokens.toLocaleString('en')}`).join(', ')})`;
}

/** "4 requests, 1,200 tokens in, 300 out". */
function requestsAndTokensText(usage: { requests: number; inputTokens: number; outputTokens: number }): string {
  return `${countText(usage.requests, 'request')}, ${countText(usage.inputTokens, 'token')} in, ${usage.outputTokens.toLocaleString('en')} out`;
}

/** A run's use of its model: "llama-3 (OpenAI-compatible): 4 requests, 1,200 tokens in, 300 out"; undefined when it bound none. */
export function runUsageText(usage: RunUsage): string | undefined {
  if (usage.model === undefined || usage.provider === 'none') return undefined;
  return `${usage.model} (${providerLabel(usage.provider)}): ${requestsAndTokensText(usage)}`;
}

/** The model runs bind, as the run controls show it: "none", or "llama-3 (OpenAI-compatible)". */
export function boundModelText(view: InferenceView): string {
  switch (view.provider) {
    case 'none':
      return 'none';
    case 'openai-compatible':
      return view.openAi
        ? `${view.openAi.model} (${PROVIDER_LABELS['openai-compatible']})`
        : `${PROVIDER_LABELS['openai-compatible']}, no endpoint set`;
    case 'webllm':
      return view.webllmModel
        ? `${view.webllmModel} (${PROVIDER_LABELS.webllm})`
        : `${PROVIDER_LABELS.webllm}, no model chosen`;
    case 'gguf':
      return view.ggufModel
        ? `${view.ggufModel} (${PROVIDER_LABELS.gguf})`
        : `${PROVIDER_LABELS.gguf}, no model chosen`;
  }
}
