import { z } from 'zod';
import { displayUrl, redactSecrets } from '#core/secrets.ts';
import type { Embedder } from './embedder.ts';
import { credentialHeaders, endpointSecrets, errorDetail, type OpenAiEndpoint, routeUrl } from './openai-compatible.ts';
import { cancelled, ProviderError } from './provider.ts';

/** Texts sent in one request: servers cap a batch (OpenAI at 2,048 inputs; llama.cpp's server by its batch size). */
export const EMBEDDING_BATCH = 64;

const embeddingsSchema = z.object({
  data: z
    .array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number().finite()).min(1) }))
    .min(1),
});

/**
 * An embedder over an OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, llama.cpp's server
 * with `--embeddings`, vLLM, Ollama): the same base URL and key as the chat provider, and the
 * same care with them: nothing it throws holds the key or the base URL's credentials.
 */
export function openAiEmbedder(endpoint: OpenAiEndpoint, fetchImpl: typeof fetch = fetch): Embedder {
  const url = routeUrl(endpoint.baseUrl, '/embeddings');
  const secrets = endpointSecrets(endpoint);
  const shownUrl = displayUrl(url);
  const redact = (text: string) => redactSecrets(text, secrets);

  async function embedBatch(texts: readonly string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...credentialHeaders(endpoint) },
        body: JSON.stringify({ model: endpoint.model, input: texts, encoding_format: 'float' }),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw cancelled(signal);
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : '';
      throw new ProviderError('unavailable', redact(`cannot reach ${shownUrl}: ${reason || String(error)}`));
    }
    if (!response.ok)
      throw new ProviderError(
        response.status === 401 || response.status === 403 ? 'refused' : 'unavailable',
        `${shownUrl} answered HTTP ${response.status}${await errorDetail(response, redact)}`,
      );
    let json: unknown;
    try {
      json = await response.json();
    } catch (error) {
      if (signal?.aborted) throw cancelled(signal);
      throw new ProviderError('unavailable', `${shownUrl} sent an answer that is not JSON`);
    }
    const parsed = embeddingsSchema.safeParse(json);
    if (!parsed.success)
      throw new ProviderError(
        'unavailable',
        redact(`${shownUrl} sent an answer that is not a list of embeddings (${parsed.error.issues[0]?.message})`),
      );
    const vectors: Float32Array[] = [];
    for (const item of parsed.data.data) vectors[item.index] = Float32Array.from(item.embedding);
    const dimensions = vectors[0]?.length;
    if (vectors.length !== texts.length || texts.some((_text, index) => vectors[index]?.length !== dimensions))
      throw new ProviderError(
        'unavailable',
        `${shownUrl} sent ${parsed.data.data.length} embeddings for ${texts.length} texts, or embeddings of different sizes`,
      );
    return vectors;
  }

  return {
    name: 'openai-compatible',
    model: endpoint.model,
    identity: `openai-compatible ${displayUrl(endpoint.baseUrl)} ${endpoint.model}`,
    async embed(texts, signal) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += EMBEDDING_BATCH)
        vectors.push(...(await embedBatch(texts.slice(start, start + EMBEDDING_BATCH), signal)));
      return vectors;
    },
  };
}
