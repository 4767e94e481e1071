import {
  type CreateEmbeddingResponse,
  type EmbeddingCreateParams,
  Embeddings,
  type MLCEngineInterface,
  postInitAndCheckFieldsEmbedding,
} from '@mlc-ai/web-llm';
import type { WebLlmEmbed } from '#core/llm/webllm-embeddings.ts';

/**
 * An embedding model behind WebLLM's own API, for tests (no GPU here): WebLLM's `Embeddings`
 * class (what `engine.embeddings` is on an MLCEngine) over an engine whose `embedding` checks each
 * request with WebLLM's own check (an empty text, an unsupported field are refused as WebLLM
 * refuses them), then answers the vectors `vectorOf` gives, in WebLLM's response shape.
 */
export function scriptedWebLlmEmbeddings(
  modelId: string,
  vectorOf: (text: string) => number[],
): WebLlmEmbed & { requests: EmbeddingCreateParams[] } {
  const requests: EmbeddingCreateParams[] = [];
  const engine = {
    async embedding(request: EmbeddingCreateParams): Promise<CreateEmbeddingResponse> {
      postInitAndCheckFieldsEmbedding(request, modelId);
      requests.push(request);
      const texts = typeof request.input === 'string' ? [request.input] : (request.input as string[]);
      const tokens = texts.reduce((sum, text) => sum + text.split(/\s+/).length, 0);
      return {
        data: texts.map((text, index) => ({ embedding: vectorOf(text), index, object: 'embedding' })),
        model: modelId,
        object: 'list',
        usage: { prompt_tokens: tokens, total_tokens: tokens, extra: { prefill_tokens_per_s: 1000 } },
      };
    },
  };
  return { embeddings: new Embeddings(engine as unknown as MLCEngineInterface), requests };
}
