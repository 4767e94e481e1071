import { z } from 'zod';

/**
 * The WebLLM models Anima offers (ids of WebLLM 0.2.86's prebuilt list, small to large), with the
 * GPU memory WebLLM says each needs. Kept here, not read from WebLLM, so the Models screen shows
 * them without downloading WebLLM's 6 MB code; a test checks them against WebLLM's own list.
 * Models with f16 weights need the GPU's shader-f16 feature; the f32 ones run without it.
 */
export const WEBLLM_MODELS = [
  { id: 'SmolLM2-360M-Instruct-q4f16_1-MLC', name: 'SmolLM2 360M', vramMB: 376, contextTokens: 4096, needsShaderF16: true },
  { id: 'SmolLM2-360M-Instruct-q4f32_1-MLC', name: 'SmolLM2 360M', vramMB: 580, contextTokens: 4096, needsShaderF16: false },
  { id: 'Llama-3.2-1B-Instruct-q4f16_1-MLC', name: 'Llama 3.2 1B', vramMB: 879, contextTokens: 4096, needsShaderF16: true },
  { id: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', name: 'Qwen2.5 0.5B', vramMB: 945, contextTokens: 4096, needsShaderF16: true },
  { id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', name: 'Qwen2.5 0.5B', vramMB: 1060, contextTokens: 4096, needsShaderF16: false },
  { id: 'Llama-3.2-1B-Instruct-q4f32_1-MLC', name: 'Llama 3.2 1B', vramMB: 1129, contextTokens: 4096, needsShaderF16: false },
  { id: 'Qwen3-0.6B-q4f16_1-MLC', name: 'Qwen3 0.6B', vramMB: 1403, contextTokens: 4096, needsShaderF16: true },
  { id: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', name: 'Qwen2.5 1.5B', vramMB: 1630, contextTokens: 4096, needsShaderF16: true },
  { id: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC', name: 'Qwen2.5 1.5B', vramMB: 1889, contextTokens: 4096, needsShaderF16: false },
  { id: 'Llama-3.2-3B-Instruct-q4f16_1-MLC', name: 'Llama 3.2 3B', vramMB: 2264, contextTokens: 4096, needsShaderF16: true },
  { id: 'Qwen2.5-3B-Instruct-q4f32_1-MLC', name: 'Qwen2.5 3B', vramMB: 2894, contextTokens: 4096, needsShaderF16: false },
  { id: 'Phi-3.5-mini-instruct-q4f16_1-MLC', name: 'Phi-3.5 mini', vramMB: 3672, contextTokens: 4096, needsShaderF16: true },
  { id: 'Llama-3.1-8B-Instruct-q4f16_1-MLC', name: 'Llama 3.1 8B', vramMB: 5001, contextTokens: 4096, needsShaderF16: true },
] as const satisfies readonly WebLlmModel[];

export type WebLlmModel = { id: string; name: string; vramMB: number; contextTokens: number; needsShaderF16: boolean };

/** What the GPU offers WebGPU, as the worker found it by requesting an adapter. */
export const gpuReportSchema = z.discriminatedUnion('available', [
  z.object({ available: z.literal(true), adapter: z.string(), shaderF16: z.boolean(), maxBufferMB: z.number() }),
  z.object({ available: z.literal(false), reason: z.string() }),
]);
export type GpuReport = z.infer<typeof gpuReportSchema>;

/** Models a user can run on this GPU, and the smallest few recommended: f16 where the GPU has shader-f16, f32 where not. */
export function modelsFor(gpu: GpuReport): { runnable: readonly WebLlmModel[]; recommended: readonly string[] } {
  if (!gpu.available) return { runnable: [], recommended: [] };
  const runnable = WEBLLM_MODELS.filter((model) => gpu.shaderF16 || !model.needsShaderF16);
  // With shader-f16, an f16 model needs less memory than its f32 twin and is as good: offer that.
  const preferred = runnable.filter((model) => model.needsShaderF16 === gpu.shaderF16);
  return { runnable, recommended: preferred.filter((model) => model.vramMB <= 1500).map((model) => model.id) };
}
