import type { AgentApi, ModelView } from '#core/api.ts';
import { parseDecimal } from '#core/api.ts';
import { describeProblem, type Problem } from '#core/result.ts';

/**
 * The form that adds a WebLLM model not in WebLLM's list, kept apart from its component so it can
 * be tested: what it holds, what it sends, and where the agent's problems go.
 */

/** The form as the user fills it: numbers as typed, the weights' kind as chosen. */
export type CustomModelForm = {
  id: string;
  name: string;
  modelUrl: string;
  modelLibUrl: string;
  vramMB: string;
  contextTokens: string;
  weights: 'f32' | 'f16';
};

export const EMPTY_CUSTOM_MODEL_FORM: CustomModelForm = {
  id: '',
  name: '',
  modelUrl: '',
  modelLibUrl: '',
  vramMB: '',
  contextTokens: '4096',
  weights: 'f32',
};

/** The fields, by the path the agent's problems name, with their labels. */
export const CUSTOM_MODEL_FIELDS = {
  id: 'Model id',
  name: 'Name (optional)',
  modelUrl: 'Weights address',
  modelLibUrl: 'Model library address (.wasm)',
  vramMB: 'GPU memory needed (MB)',
  contextTokens: 'Context window (tokens)',
  needsShaderF16: 'Weights',
} as const;
export type CustomModelField = keyof typeof CUSTOM_MODEL_FIELDS;

/** A number as typed: blank is absent (the agent says what is missing), anything else is read as a plain decimal (NaN when it is not one, 0x10 included, which the agent refuses). */
function numberOf(text: string): number | undefined {
  const trimmed = text.trim().replace(/[,_\s]/g, '');
  return trimmed === '' ? undefined : (parseDecimal(trimmed) ?? Number.NaN);
}

/** What the form sends to modelAdd: blank optional fields left out, so the agent's defaults and messages apply. */
export function customModelInput(form: CustomModelForm): Record<string, unknown> {
  const name = form.name.trim();
  const vramMB = numberOf(form.vramMB);
  const contextTokens = numberOf(form.contextTokens);
  return {
    id: form.id.trim(),
    ...(name !== '' ? { name } : {}),
    modelUrl: form.modelUrl.trim(),
    modelLibUrl: form.modelLibUrl.trim(),
    ...(vramMB !== undefined ? { vramMB } : {}),
    ...(contextTokens !== undefined ? { contextTokens } : {}),
    needsShaderF16: form.weights === 'f16',
  };
}

/** How an addition went: added, or refused with each problem beside its field (and those of no field above the form). */
export type CustomModelReport =
  | { tone: 'success'; message: string }
  | { tone: 'failure'; message: string; problems: string[]; byField: Partial<Record<CustomModelField, string[]>> };

function isField(path: string | undefined): path is CustomModelField {
  return path !== undefined && Object.hasOwn(CUSTOM_MODEL_FIELDS, path);
}

/** Says how modelAdd went. */
export function describeAddition(result: Awaited<ReturnType<AgentApi['modelAdd']>>): CustomModelReport {
  if (result.ok) return { tone: 'success', message: addedMessage(result.model) };
  const byField: Partial<Record<CustomModelField, string[]>> = {};
  const problems: string[] = [];
  for (const problem of result.problems as Problem[]) {
    if (isField(problem.path)) (byField[problem.path] ??= []).push(problem.message);
    else problems.push(describeProblem(problem));
  }
  return { tone: 'failure', message: 'The model was not added:', problems, byField };
}

function addedMessage(model: ModelView): string {
  const next = model.notRunnableBecause
    ? `It cannot run here: ${model.notRunnableBecause}.`
    : 'Download it to run it: nothing is fetched before.';
  return `Added ${model.name} (${model.id}) to the list. ${next}`;
}
