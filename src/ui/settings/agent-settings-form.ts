import type { AgentApi } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import type { AgentSettingsView } from '../cycles/reflection-messages.ts';

/** The agent settings as the form holds them: an emptied number field holds null. */
export type AgentSettingsForm = {
  planning: boolean;
  reflectionInterval: number | null;
  maxFailedPlans: number | null;
  memoryCapacity: number | null;
  consolidationThreshold: number | null;
};

/** The form's number fields, each with its label and range (the agent checks them again). */
export const AGENT_NUMBER_FIELDS = {
  reflectionInterval: { label: 'Reflection interval (cycles)', min: 1, max: 1000, step: 1 },
  maxFailedPlans: { label: 'Failed plans before a goal is abandoned', min: 1, max: 20, step: 1 },
  memoryCapacity: { label: 'Working memory capacity (entries)', min: 10, max: 10_000, step: 1 },
  consolidationThreshold: { label: 'Consolidate working memory above (share full)', min: 0.5, max: 0.95, step: 0.05 },
} as const;
export type AgentNumberField = keyof typeof AGENT_NUMBER_FIELDS;

/** The fields a problem can name: the number fields and the planning switch. */
export type AgentSettingsField = AgentNumberField | 'planning';

export const AGENT_SETTINGS_READ_ONLY_REASON =
  'Anima is open in another tab, and only that tab can change settings: close it to change the agent settings here.';

/** A problem found before or after saving, located at a field when it names one. */
export type AgentSettingsProblem = { path?: string; message: string };

/** How a save went, in words: a failure has the problems by field (shown next to each) and all of them in a list. */
export type AgentSettingsSaveReport =
  | { tone: 'success'; message: string }
  | { tone: 'failure'; message: string; problems: string[]; byField: Partial<Record<AgentSettingsField, string[]>> };

export function formOf(settings: AgentSettingsView): AgentSettingsForm {
  const { planning, reflectionInterval, maxFailedPlans, memoryCapacity, consolidationThreshold } = settings;
  return { planning, reflectionInterval, maxFailedPlans, memoryCapacity, consolidationThreshold };
}

/** "Enter a whole number from 1 to 1,000.", "Enter a number from 0.5 to 0.95." */
export function rangeHint(field: AgentNumberField): string {
  const { min, max, step } = AGENT_NUMBER_FIELDS[field];
  return `Enter a ${step === 1 ? 'whole ' : ''}number from ${min.toLocaleString('en')} to ${max.toLocaleString('en')}.`;
}

/** The problems the form can see before asking the agent: an empty number field. */
export function emptyFieldProblems(form: AgentSettingsForm): AgentSettingsProblem[] {
  const problems: AgentSettingsProblem[] = [];
  for (const field of Object.keys(AGENT_NUMBER_FIELDS) as AgentNumberField[])
    if (form[field] === null || Number.isNaN(form[field])) problems.push({ path: field, message: rangeHint(field) });
  return problems;
}

function isField(path: string | undefined): path is AgentSettingsField {
  return path === 'planning' || (path !== undefined && path in AGENT_NUMBER_FIELDS);
}

function labelOf(field: AgentSettingsField): string {
  return field === 'planning' ? 'Planning' : AGENT_NUMBER_FIELDS[field].label;
}

/** The report of problems: each named by its field's label in the list, and kept by field to show next to it. */
export function describeProblems(
  problems: readonly AgentSettingsProblem[],
): Extract<AgentSettingsSaveReport, { tone: 'failure' }> {
  const byField: Partial<Record<AgentSettingsField, string[]>> = {};
  const listed = problems.map((problem) => {
    if (!isField(problem.path)) return describeProblem(problem);
    (byField[problem.path] ??= []).push(problem.message);
    return `${labelOf(problem.path)}: ${problem.message}`;
  });
  return { tone: 'failure', message: 'The agent settings were not changed:', problems: listed, byField };
}

/** How a save went, in words. */
export function describeSave(result: Awaited<ReturnType<AgentApi['agentSettingsSet']>>): AgentSettingsSaveReport {
  if (!result.ok) return describeProblems(result.problems);
  const { planning, reflectionInterval, maxFailedPlans, memoryCapacity, consolidationThreshold } = result.settings;
  const reflecting =
    reflectionInterval === 1
      ? 'a reflection every cycle'
      : `a reflection every ${reflectionInterval.toLocaleString('en')} cycles`;
  const failing = `a goal is abandoned after ${maxFailedPlans === 1 ? '1 failed plan' : `${maxFailedPlans.toLocaleString('en')} failed plans`}`;
  const memory = `working memory holds ${memoryCapacity.toLocaleString('en')} entries and is consolidated above ${Math.round(consolidationThreshold * 100)}%`;
  return {
    tone: 'success',
    message: `Saved: planning ${planning ? 'on' : 'off'}, ${reflecting}, ${failing}, ${memory}.`,
  };
}
