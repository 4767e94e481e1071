import type { AgentApi } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';

type ModelSettingsView = Awaited<ReturnType<AgentApi['modelSettingsGet']>>;
type ModelSettings = ModelSettingsView['settings'];

/** The form's fields, each with its label and the range the agent checks (an empty field is the engine's default). */
export const MODEL_SETTING_FIELDS = {
  temperature: {
    label: 'Temperature',
    min: 0,
    max: 2,
    step: 0.05,
    hint: 'From 0 (always the likeliest word) to 2 (most varied).',
  },
  topP: {
    label: 'Top-p',
    min: 0.01,
    max: 1,
    step: 0.01,
    hint: 'Above 0 and at most 1: the share of likeliest words the model picks from.',
  },
  maxTokens: {
    label: 'Max tokens',
    min: 1,
    max: 131_072,
    step: 1,
    hint: "A whole number from 1, within the model's context window: the longest answer.",
  },
  seed: {
    label: 'Seed',
    min: -2_147_483_648,
    max: 2_147_483_647,
    step: 1,
    hint: 'A whole number: the same seed and prompt give the same answer where the engine honours it.',
  },
} as const;
export type ModelSettingField = keyof typeof MODEL_SETTING_FIELDS;
export const MODEL_SETTING_FIELD_NAMES = Object.keys(MODEL_SETTING_FIELDS) as ModelSettingField[];

/** The settings as the form holds them: an empty field holds null (the engine's default). */
export type ModelSettingsForm = Record<ModelSettingField, number | null>;

export const MODEL_SETTINGS_READ_ONLY_REASON =
  'Anima is open in another tab, and only that tab can change settings: close it to change the model settings here.';

export type ModelSettingsSaveReport =
  | { tone: 'success'; message: string }
  | { tone: 'failure'; message: string; problems: string[]; byField: Partial<Record<ModelSettingField, string[]>> };

export function formOf({ settings }: Pick<ModelSettingsView, 'settings'>): ModelSettingsForm {
  return {
    temperature: settings.temperature ?? null,
    topP: settings.topP ?? null,
    maxTokens: settings.maxTokens ?? null,
    seed: settings.seed ?? null,
  };
}

/** What the form asks for: the fields filled in (an emptied or unreadable one is left to the engine). */
export function settingsOf(form: ModelSettingsForm): ModelSettings {
  const settings: ModelSettings = {};
  for (const field of MODEL_SETTING_FIELD_NAMES) {
    const value = form[field];
    if (value !== null && !Number.isNaN(value)) settings[field] = value;
  }
  return settings;
}

const isField = (path: string | undefined): path is ModelSettingField =>
  path !== undefined && path in MODEL_SETTING_FIELDS;

/** The agent's problems, each named by its field's label in the list and kept by field to show next to it. */
export function describeSave(result: Awaited<ReturnType<AgentApi['modelSettingsSet']>>): ModelSettingsSaveReport {
  if (!result.ok) {
    const byField: Partial<Record<ModelSettingField, string[]>> = {};
    const problems = result.problems.map((problem) => {
      if (!isField(problem.path)) return describeProblem(problem);
      (byField[problem.path] ??= []).push(problem.message);
      return `${MODEL_SETTING_FIELDS[problem.path].label}: ${problem.message}`;
    });
    return { tone: 'failure', message: 'The model settings were not changed:', problems, byField };
  }
  const set = MODEL_SETTING_FIELD_NAMES.filter((field) => result.settings[field] !== undefined).map(
    (field) => `${MODEL_SETTING_FIELDS[field].label.toLowerCase()} ${result.settings[field]!.toLocaleString('en')}`,
  );
  return {
    tone: 'success',
    message:
      set.length === 0
        ? "Saved: every setting is the engine's default."
        : `Saved: ${set.join(', ')}; the rest are the engine's defaults.`,
  };
}
