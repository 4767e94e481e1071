import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { modelsFor, WEBLLM_MODELS } from './webllm-models.ts';

describe('the WebLLM models offered', () => {
  it('are in the installed WebLLM\'s prebuilt list, with its memory and context, and say truly whether they need shader-f16', () => {
    for (const model of WEBLLM_MODELS) {
      const record = prebuiltAppConfig.model_list.find((candidate) => candidate.model_id === model.id);
      expect(record, model.id).toBeDefined();
      expect(Math.abs(record!.vram_required_MB! - model.vramMB), model.id).toBeLessThan(1);
      expect(record!.overrides?.context_window_size, model.id).toBe(model.contextTokens);
      expect(model.needsShaderF16, model.id).toBe(/q\df16/.test(model.id) || (record!.required_features ?? []).includes('shader-f16'));
    }
  });

  it('hides f16 models from a GPU without shader-f16 and recommends small f32 ones; none without WebGPU', () => {
    const software = modelsFor({ available: true, adapter: 'SwiftShader', shaderF16: false, maxBufferMB: 1024 });
    expect(software.runnable.every((model) => !model.needsShaderF16)).toBe(true);
    expect(software.recommended).toEqual(['SmolLM2-360M-Instruct-q4f32_1-MLC', 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', 'Llama-3.2-1B-Instruct-q4f32_1-MLC']);
    const laptop = modelsFor({ available: true, adapter: 'Apple M2', shaderF16: true, maxBufferMB: 4096 });
    expect(laptop.runnable).toHaveLength(WEBLLM_MODELS.length);
    expect(laptop.recommended).toEqual(['SmolLM2-360M-Instruct-q4f16_1-MLC', 'Llama-3.2-1B-Instruct-q4f16_1-MLC', 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', 'Qwen3-0.6B-q4f16_1-MLC']);
    expect(modelsFor({ available: false, reason: 'no adapter' })).toEqual({ runnable: [], recommended: [] });
  });
});
