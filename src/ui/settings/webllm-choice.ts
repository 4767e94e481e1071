import type { ModelView } from '#core/api.ts';
import { type GpuReport, gpuSummary, megabytesText, weightsText } from '../models/model-messages.ts';

/** A model the WebLLM field offers. */
export type WebLlmOption = { value: string; label: string };

/**
 * The models the Settings form offers for WebLLM: the downloaded ones this GPU can run, and the
 * one already chosen when it is not among them (so saving other changes keeps it).
 */
export function webLlmOptions(downloaded: readonly ModelView[], current: string): WebLlmOption[] {
  const options = downloaded.map((model) => ({
    value: model.id,
    label: `${model.name}: ${weightsText(model)}, ${megabytesText(model.vramMB)} (${model.id})`,
  }));
  const chosen = current.trim();
  if (chosen !== '' && !options.some((option) => option.value === chosen))
    options.push({ value: chosen, label: `${chosen} (not downloaded)` });
  return options;
}

/** Why there is no downloaded model to choose: no usable GPU (and why), or none downloaded yet; undefined when there is one. */
export function webLlmNote(gpu: GpuReport, downloadedCount: number): string | undefined {
  if (!gpu.available) return gpuSummary(gpu);
  if (downloadedCount === 0) return 'No model is downloaded on this device yet.';
  return undefined;
}

/** The field's hint when a chosen model is not downloaded: what runs do meanwhile. */
export const NOT_DOWNLOADED_HINT =
  'A run never downloads a model: until the chosen one is downloaded, runs use the symbolic engine alone, and say so.';
