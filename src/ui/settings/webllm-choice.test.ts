import { describe, expect, it } from 'vitest';
import type { ModelView } from '#core/api.ts';
import { webLlmNote, webLlmOptions } from './webllm-choice.ts';

const QWEN: ModelView = {
  id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
  name: 'Qwen2.5 0.5B',
  vramMB: 1060,
  contextTokens: 4096,
  needsShaderF16: false,
  cached: true,
  partial: false,
  recommended: true,
};
const GPU = { available: true as const, adapter: 'google swiftshader', shaderF16: false, maxBufferMB: 1024 };

describe('the WebLLM model field', () => {
  it('offers the downloaded models by name, weights and GPU memory', () => {
    expect(webLlmOptions([QWEN], '')).toEqual([
      { value: QWEN.id, label: 'Qwen2.5 0.5B: f32, 1 GB (Qwen2.5-0.5B-Instruct-q4f32_1-MLC)' },
    ]);
    expect(webLlmOptions([QWEN], QWEN.id)).toHaveLength(1);
  });

  it('keeps a chosen model that is not downloaded, and says so', () => {
    expect(webLlmOptions([], 'SmolLM2-360M-Instruct-q4f32_1-MLC')).toEqual([
      { value: 'SmolLM2-360M-Instruct-q4f32_1-MLC', label: 'SmolLM2-360M-Instruct-q4f32_1-MLC (not downloaded)' },
    ]);
  });

  it('says why there is nothing to choose: no usable GPU, or nothing downloaded yet', () => {
    expect(webLlmNote({ available: false, reason: 'WebGPU found no usable GPU' }, 0)).toBe(
      'WebGPU cannot run a model here: WebGPU found no usable GPU.',
    );
    expect(webLlmNote(GPU, 0)).toBe('No model is downloaded on this device yet.');
    expect(webLlmNote(GPU, 1)).toBeUndefined();
  });
});
