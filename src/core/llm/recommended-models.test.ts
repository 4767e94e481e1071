import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import {
  GGUF_RECOMMENDATIONS,
  ggufRecommendationMemoryBytes,
  ggufRecommendationUrl,
  speedClassOf,
  WEBLLM_MODEL_NOTES,
} from './recommended-models.ts';
import { WEBLLM_MODELS } from './webllm-models.ts';

describe('the recommended models', () => {
  it('are GGUF files at https "resolve" addresses of Hugging Face, each with a size, smallest first', () => {
    expect(GGUF_RECOMMENDATIONS.length).toBeGreaterThanOrEqual(3);
    for (const model of GGUF_RECOMMENDATIONS) {
      const url = new URL(ggufRecommendationUrl(model));
      expect(url.protocol, model.name).toBe('https:');
      expect(url.host, model.name).toBe('huggingface.co');
      expect(url.pathname, model.name).toMatch(/^\/[\w.-]+\/[\w.-]+\/resolve\/main\/[\w.-]+\.gguf$/);
      expect(url.pathname.endsWith(`/${model.fileName}`), model.name).toBe(true);
      // The quantisation a file's name says is the one listed.
      expect(model.fileName, model.name).toContain(model.quantisation);
      expect(model.downloadBytes, model.name).toBeGreaterThan(0);
      expect(model.parameters, model.name).toBeGreaterThan(0);
      expect(model.goodFor.trim(), model.name).not.toBe('');
      expect(ggufRecommendationMemoryBytes(model), model.name).toBeGreaterThan(model.downloadBytes);
    }
    const sizes = GGUF_RECOMMENDATIONS.map((model) => model.downloadBytes);
    expect(sizes).toEqual([...sizes].sort((left, right) => left - right));
    expect(new Set(GGUF_RECOMMENDATIONS.map(ggufRecommendationUrl)).size).toBe(GGUF_RECOMMENDATIONS.length);
  });

  it("say of every WebLLM model offered what it is good for, and whether it suits limited devices as WebLLM's list says", () => {
    expect(Object.keys(WEBLLM_MODEL_NOTES).sort()).toEqual(WEBLLM_MODELS.map((model) => model.id).sort());
    for (const [id, note] of Object.entries(WEBLLM_MODEL_NOTES)) {
      const record = prebuiltAppConfig.model_list.find((candidate) => candidate.model_id === id);
      expect(note.lowResource, id).toBe(record?.low_resource_required ?? false);
      expect(note.goodFor.trim(), id).not.toBe('');
    }
  });

  it('class a model as fast under 1B parameters, moderate under 2B, slow above', () => {
    expect(speedClassOf(362e6)).toBe('fast');
    expect(speedClassOf(1.23e9)).toBe('moderate');
    expect(speedClassOf(3.8e9)).toBe('slow');
  });
});
