import { ModelType, prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  gpuReportOf,
  mlcModelRecordOf,
  modelFilesPrefix,
  modelsFor,
  WEBLLM_MODELS,
  WEBLLM_VERSION,
  webLlmModelSeesImages,
} from './webllm-models.ts';

describe('the WebLLM models offered', () => {
  it('are for the WebLLM installed, whose version the add-model form names', () => {
    const installed = JSON.parse(
      readFileSync(createRequire(import.meta.url).resolve('@mlc-ai/web-llm/package.json'), 'utf8'),
    ) as { version: string };
    expect(WEBLLM_VERSION).toBe(installed.version);
  });

  it("are in the installed WebLLM's prebuilt list, with its memory and context, and say truly whether they need shader-f16", () => {
    for (const model of WEBLLM_MODELS) {
      const record = prebuiltAppConfig.model_list.find((candidate) => candidate.model_id === model.id);
      expect(record, model.id).toBeDefined();
      expect(Math.abs(record!.vram_required_MB! - model.vramMB), model.id).toBeLessThan(1);
      expect(record!.overrides?.context_window_size, model.id).toBe(model.contextTokens);
      expect(model.needsShaderF16, model.id).toBe(
        /q\df16/.test(model.id) || (record!.required_features ?? []).includes('shader-f16'),
      );
      // A model sees images exactly when WebLLM loads it as a vision-language model.
      expect(webLlmModelSeesImages(model.id), model.id).toBe(record!.model_type === ModelType.VLM);
    }
  });

  it('hides f16 models from a GPU without shader-f16 and recommends small f32 ones; none without WebGPU', () => {
    const software = modelsFor({ available: true, adapter: 'SwiftShader', shaderF16: false, maxBufferMB: 1024 });
    expect(software.runnable.every((model) => !model.needsShaderF16)).toBe(true);
    expect(software.recommended).toEqual([
      'SmolLM2-360M-Instruct-q4f32_1-MLC',
      'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
      'Llama-3.2-1B-Instruct-q4f32_1-MLC',
    ]);
    const laptop = modelsFor({ available: true, adapter: 'Apple M2', shaderF16: true, maxBufferMB: 4096 });
    expect(laptop.runnable).toHaveLength(WEBLLM_MODELS.length);
    expect(laptop.recommended).toEqual([
      'SmolLM2-360M-Instruct-q4f16_1-MLC',
      'Llama-3.2-1B-Instruct-q4f16_1-MLC',
      'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
      'Qwen3-0.6B-q4f16_1-MLC',
    ]);
    expect(modelsFor({ available: false, reason: 'no adapter' })).toEqual({ runnable: [], recommended: [] });
  });

  it("a custom model's files are found where WebLLM fetches them: under resolve/main/ unless the address names a revision", () => {
    for (const record of prebuiltAppConfig.model_list.slice(0, 5))
      expect(modelFilesPrefix(record.model)).toBe(`${record.model.replace(/\/$/, '')}/resolve/main/`);
    expect(modelFilesPrefix('https://models.example/Tiny-MLC/')).toBe('https://models.example/Tiny-MLC/resolve/main/');
    expect(modelFilesPrefix('https://huggingface.co/me/Tiny-MLC/resolve/v2/')).toBe(
      'https://huggingface.co/me/Tiny-MLC/resolve/v2/',
    );
  });

  it("a custom model's record for WebLLM's app config has the fields WebLLM reads, shader-f16 among its required features when its weights are f16", () => {
    const custom = {
      modelUrl: 'https://models.example/Tiny-MLC',
      modelLibUrl: 'https://models.example/tiny.wasm',
      vramMB: 300,
      contextTokens: 2048,
      needsShaderF16: true,
    };
    const record: (typeof prebuiltAppConfig.model_list)[number] = mlcModelRecordOf('Tiny-MLC', custom);
    expect(record).toEqual({
      model: custom.modelUrl,
      model_id: 'Tiny-MLC',
      model_lib: custom.modelLibUrl,
      vram_required_MB: 300,
      overrides: { context_window_size: 2048, sliding_window_size: -1 },
      required_features: ['shader-f16'],
    });
    expect(mlcModelRecordOf('Tiny-MLC', { ...custom, needsShaderF16: false })).not.toHaveProperty('required_features');
  });

  it('a custom model built for a sliding window loads with the context window given: WebLLM refuses a config with both', () => {
    const custom = {
      modelUrl: 'https://models.example/Mistral-MLC',
      modelLibUrl: 'https://models.example/mistral.wasm',
      vramMB: 4000,
      contextTokens: 4096,
      needsShaderF16: false,
    };
    // As WebLLM reads a model's config: its mlc-chat-config.json, then the record's overrides.
    const config = {
      ...{ context_window_size: -1, sliding_window_size: 4096, attention_sink_size: 4 },
      ...mlcModelRecordOf('Mistral-MLC', custom).overrides,
    };
    // WebLLM's check (its WindowSizeConfigurationError): only one of the two may be set.
    expect(config.context_window_size !== -1 && config.sliding_window_size !== -1).toBe(false);
    expect(config.context_window_size).toBe(4096);
  });

  it('asks for the adapter WebLLM will use (high-performance), and says what it offers or why there is none', async () => {
    const asked: unknown[] = [];
    const adapter = {
      features: new Set(['shader-f16']),
      limits: { maxBufferSize: 2 ** 31 },
      info: { vendor: 'nvidia', architecture: 'ampere', description: '' },
    };
    const gpu = (answer: () => Promise<typeof adapter | null>) => ({
      requestAdapter: async (options?: unknown) => (asked.push(options), answer()),
    });
    expect(await gpuReportOf(gpu(async () => adapter))).toEqual({
      available: true,
      adapter: 'nvidia ampere',
      shaderF16: true,
      maxBufferMB: 2048,
    });
    expect(asked).toEqual([{ powerPreference: 'high-performance' }]);
    expect(await gpuReportOf(gpu(async () => null))).toMatchObject({
      available: false,
      reason: expect.stringContaining('WebGPU found no usable GPU'),
    });
    expect(await gpuReportOf(gpu(async () => Promise.reject(new Error('blocked by policy'))))).toEqual({
      available: false,
      reason: 'WebGPU refused an adapter: blocked by policy',
    });
    expect(await gpuReportOf(undefined)).toMatchObject({
      available: false,
      reason: expect.stringContaining('this browser has no WebGPU'),
    });
  });
});
