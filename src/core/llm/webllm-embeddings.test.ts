import { ModelType, prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { scriptedWebLlmEmbeddings } from '#core/testing/scripted-webllm-embeddings.ts';
import { WEBLLM_EMBEDDING_MODELS, webLlmEmbeddings } from './webllm-embeddings.ts';

const MODEL = 'snowflake-arctic-embed-s-q0f32-MLC-b4';
const lengthVector = (text: string) => [text.length, 1];

describe("WebLLM's embedding models", () => {
  it("are exactly the installed WebLLM's embedding models, with the GPU memory it gives", () => {
    const embedding = prebuiltAppConfig.model_list.filter((record) => record.model_type === ModelType.embedding);
    expect(WEBLLM_EMBEDDING_MODELS.map((model) => model.id).sort()).toEqual(
      embedding.map((record) => record.model_id).sort(),
    );
    for (const model of WEBLLM_EMBEDDING_MODELS) {
      const record = embedding.find((candidate) => candidate.model_id === model.id)!;
      expect(Math.abs(record.vram_required_MB! - model.vramMB), model.id).toBeLessThan(1);
    }
  });

  it("embed through engine.embeddings.create: one vector per text in order, a batch a request, '' sent so WebLLM takes it", async () => {
    const engine = scriptedWebLlmEmbeddings(MODEL, lengthVector);
    const texts = Array.from({ length: 20 }, (_, index) => 'x'.repeat(index));
    const vectors = await webLlmEmbeddings(engine).embed(texts);
    expect(vectors.map((vector) => vector[0])).toEqual([1, ...texts.slice(1).map((text) => text.length)]);
    expect(vectors.every((vector) => vector instanceof Float32Array)).toBe(true);
    expect(engine.requests.map((request) => (request.input as string[]).length)).toEqual([16, 4]);
    // WebLLM itself refuses an empty text: the scripted engine runs WebLLM's own check.
    await expect(engine.embeddings.create({ input: ['a', ''] })).rejects.toThrow(/empty/i);
  });

  it('stop between requests when cancelled, and say so when WebLLM gives fewer vectors than texts', async () => {
    const engine = scriptedWebLlmEmbeddings(MODEL, lengthVector);
    const controller = new AbortController();
    const embedder = webLlmEmbeddings({
      embeddings: {
        create: async (request) => {
          controller.abort();
          return engine.embeddings.create(request);
        },
      },
    });
    await expect(embedder.embed(Array(20).fill('a'), controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(engine.requests).toHaveLength(1);

    const short = webLlmEmbeddings({
      embeddings: {
        create: async (request) => {
          const response = await engine.embeddings.create(request);
          return { ...response, data: response.data.slice(1) };
        },
      },
    });
    await expect(short.embed(['a', 'b'])).rejects.toThrow(
      'WebLLM gave 1 embeddings for 2 texts, or embeddings of different sizes',
    );
  });
});
