import type { GgufModelView } from '#core/api.ts';
import { type GgufList, ggufName, ggufUnavailableText, memoryText } from '../models/gguf-messages.ts';
import { parametersText } from '../models/model-size-words.ts';

/** A model the CPU engine's field offers. */
export type GgufOption = { value: string; label: string };

/**
 * The models the Settings form offers for the CPU engine: the GGUF models added here, and the one
 * already chosen when it is not among them (so saving other changes keeps it).
 */
export function ggufOptions(models: readonly GgufModelView[], current: string): GgufOption[] {
  const options = models.map((model) => ({
    value: model.id,
    label: `${ggufName(model)}: ${parametersText(model.parameters)} ${model.quantisation}, ${memoryText(model)} of memory (${model.fileName})`,
  }));
  const chosen = current.trim();
  if (chosen !== '' && !options.some((option) => option.value === chosen))
    options.push({ value: chosen, label: `${chosen} (not on this device)` });
  return options;
}

/** Why there is no model to choose: the CPU engine is not here (and why), or none is added yet; undefined when there is one. */
export function ggufNote(
  list: Pick<GgufList, 'isAvailable' | 'unavailableBecause'>,
  modelCount: number,
): string | undefined {
  if (!list.isAvailable) return ggufUnavailableText(list.unavailableBecause);
  if (modelCount === 0) return 'No GGUF model is added on this device yet.';
  return undefined;
}

/** The field's hint when the chosen model is not on this device: what runs do meanwhile. */
export const GGUF_NOT_ADDED_HINT =
  'Until the chosen model is added again, runs use the symbolic engine alone, and say so.';
