import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAiServer } from '#core/testing/openai-server.ts';
import { cosineSimilarity } from './embedder.ts';
import { EMBEDDING_BATCH, openAiEmbedder } from './openai-embeddings.ts';
import { ProviderError } from './provider.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A vector of letter counts: texts that share letters point the same way. */
const letters = (text: string) => [...'abcdefghijklmnopqrstuvwxyz'].map((letter) => text.split(letter).length - 1);

describe('the openai-compatible embedder', () => {
  it('posts the texts to /embeddings with the key, in batches, and returns one vector per text in order', async () => {
    const server = await startOpenAiServer([], { embeddings: (input) => input.map(letters) });
    close = server.close;
    const embedder = openAiEmbedder({ baseUrl: server.baseUrl, model: 'letters', apiKey: 'sk-embed-key' });
    const texts = Array.from({ length: EMBEDDING_BATCH + 3 }, (_, index) => `text number ${index}`);
    const vectors = await embedder.embed(['abc', 'abd', 'xyz', ...texts]);
    expect(vectors).toHaveLength(EMBEDDING_BATCH + 6);
    expect([...vectors[0]!.slice(0, 4)]).toEqual([1, 1, 1, 0]);
    expect(cosineSimilarity(vectors[0]!, vectors[1]!)).toBeGreaterThan(cosineSimilarity(vectors[0]!, vectors[2]!));
    expect(server.requests.map((request) => (request.body.input as string[]).length)).toEqual([EMBEDDING_BATCH, 6]);
    expect(server.requests[0]).toMatchObject({
      url: '/v1/embeddings',
      authorization: 'Bearer sk-embed-key',
      body: { model: 'letters', encoding_format: 'float' },
    });
    expect(embedder.identity).toBe(`openai-compatible ${server.baseUrl} letters`);
  });

  it('says a refusal in words with the key redacted, even where the server echoes it', async () => {
    const server = await startOpenAiServer([], {
      embeddings: (_input, request) => ({
        status: 401,
        body: JSON.stringify({ error: { message: `invalid key ${request.authorization}` } }),
      }),
    });
    close = server.close;
    const embedder = openAiEmbedder({ baseUrl: server.baseUrl, model: 'letters', apiKey: 'sk-secret-embed-9' });
    const error = await embedder.embed(['abc']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('refused');
    expect((error as Error).message).toBe(
      `${server.baseUrl}/embeddings answered HTTP 401: invalid key Bearer [redacted]`,
    );
    expect((error as Error).message).not.toContain('sk-secret-embed-9');
  });

  it('says an answer that is no list of embeddings, and an address it cannot reach, without the credentials in the address', async () => {
    const server = await startOpenAiServer([], { embeddings: () => [[1, 2]] });
    close = server.close;
    const short = await openAiEmbedder({ baseUrl: server.baseUrl, model: 'm' })
      .embed(['one', 'two'])
      .catch((caught: unknown) => (caught as Error).message);
    expect(short).toBe(`${server.baseUrl}/embeddings sent 1 embeddings for 2 texts, or embeddings of different sizes`);
    await close();
    close = undefined;
    const gone = await openAiEmbedder({ baseUrl: server.baseUrl.replace('//', '//user:pa55word@'), model: 'm' })
      .embed(['one'])
      .catch((caught: unknown) => (caught as Error).message);
    expect(gone).toMatch(/^cannot reach http:\/\/\[redacted\]@127\.0\.0\.1:\d+\/v1\/embeddings: /);
    expect(gone).not.toContain('pa55word');
  });
});
