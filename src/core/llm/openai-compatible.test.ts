import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startOpenAiServer, type ServerReply } from '#core/testing/openai-server.ts';
import { openAiCompatibleProvider, openAiEndpointSchema } from './openai-compatible.ts';
import { structuredCall } from './structured-call.ts';

const city = z.object({ city: z.string() });
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serverWith(script: ServerReply[]) {
  const server = await startOpenAiServer(script);
  close = server.close;
  return server;
}

describe('the openai-compatible provider', () => {
  it('sends the schema the standard way, with the key, and returns the typed value and the tokens used', async () => {
    const server = await serverWith([{ text: '{"city":"Paris"}', promptTokens: 21, completionTokens: 6 }]);
    const provider = openAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'tiny', apiKey: 'sk-local' });
    const outcome = await structuredCall(provider, city, { name: 'capital', prompt: 'The capital of France?' });
    expect(outcome).toMatchObject({
      ok: true,
      value: { city: 'Paris' },
      usage: { promptTokens: 21, completionTokens: 6 },
    });
    expect(server.requests[0]).toEqual({
      url: '/v1/chat/completions',
      authorization: 'Bearer sk-local',
      body: {
        model: 'tiny',
        messages: [{ role: 'user', content: 'The capital of France?' }],
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'capital',
            strict: true,
            schema: expect.objectContaining({ type: 'object', required: ['city'] }),
          },
        },
      },
    });
  });

  it('sends the model settings in the request body: temperature, top_p, max_tokens and seed', async () => {
    const server = await serverWith([{ text: '{"city":"Paris"}' }, { text: '{"city":"Paris"}' }]);
    const provider = openAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'tiny' });
    await structuredCall(provider, city, {
      name: 'capital',
      prompt: 'The capital of France?',
      maxTokens: 64,
      settings: { temperature: 0.3, topP: 0.9, seed: 7, maxTokens: 200 },
    });
    await structuredCall(provider, city, { name: 'capital', prompt: 'The capital of France?' });
    expect(server.requests[0]!.body).toMatchObject({ temperature: 0.3, top_p: 0.9, seed: 7, max_tokens: 200 });
    // None set: the server's defaults, no field sent.
    expect(Object.keys(server.requests[1]!.body).sort()).toEqual(['messages', 'model', 'response_format']);
  });

  it('asks again with the schema as guidance when the server refuses strict mode (as OpenAI does for unions), and keeps to that; then json_object with the schema in words', async () => {
    const strictRefused = {
      status: 400,
      body: JSON.stringify({
        error: { message: "Invalid schema for response_format 'capital': 'oneOf' is not permitted." },
      }),
    };
    const schemaRefused = {
      status: 400,
      body: JSON.stringify({ error: { message: 'response_format.type json_schema is not supported by this model' } }),
    };
    const server = await serverWith([
      strictRefused,
      { text: '{"city":"Paris"}' },
      { text: '{"city":"Rome"}' },
      schemaRefused,
      { text: '{"city":"Bern"}' },
    ]);
    const provider = openAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'tiny' });
    const ask = { name: 'capital', system: 'You are Anima.', prompt: 'The capital of France?' };
    expect(await structuredCall(provider, city, ask)).toMatchObject({
      ok: true,
      value: { city: 'Paris' },
      attempts: [{ text: '{"city":"Paris"}' }],
    });
    expect(await structuredCall(provider, city, ask)).toMatchObject({ ok: true, value: { city: 'Rome' } });
    expect(await structuredCall(provider, city, ask)).toMatchObject({ ok: true, value: { city: 'Bern' } });
    const formats = server.requests.map(
      (request) => request.body.response_format as { type: string; json_schema?: { strict: boolean } },
    );
    expect(
      formats.map((format) =>
        format.type === 'json_schema' ? `json_schema strict=${format.json_schema!.strict}` : format.type,
      ),
    ).toEqual([
      'json_schema strict=true',
      'json_schema strict=false',
      'json_schema strict=false',
      'json_schema strict=false',
      'json_object',
    ]);
    const last = server.requests.at(-1)!.body.messages as { role: string; content: string }[];
    expect(last[0]!.content).toMatch(
      /^You are Anima\.\n\nAnswer with only a JSON object that follows this JSON Schema: \{.*"city"/,
    );
  });

  it('steps down one format at a time, even for requests sent at once', async () => {
    const strictRefused = {
      status: 400,
      body: JSON.stringify({
        error: { message: "Invalid schema for response_format 'capital': 'oneOf' is not permitted." },
      }),
    };
    const server = await serverWith([
      strictRefused,
      strictRefused,
      { text: '{"city":"Paris"}' },
      { text: '{"city":"Rome"}' },
    ]);
    const provider = openAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'tiny' });
    const ask = { name: 'capital', prompt: 'The capital of France?' };
    const outcomes = await Promise.all([structuredCall(provider, city, ask), structuredCall(provider, city, ask)]);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true]);
    expect(server.requests.map((request) => (request.body.response_format as { type: string }).type)).toEqual([
      'json_schema',
      'json_schema',
      'json_schema',
      'json_schema',
    ]);
  });

  it('does not take any other refusal for a refused format', async () => {
    const server = await serverWith([{ status: 400, body: '{"error":{"message":"the model tiny does not exist"}}' }]);
    const outcome = await structuredCall(openAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'tiny' }), city, {
      name: 'capital',
      prompt: 'The capital of France?',
    });
    expect(outcome).toMatchObject({
      ok: false,
      bottleneck: {
        kind: 'dependency_unavailable',
        detail: expect.stringContaining('answered HTTP 400: the model tiny does not exist'),
      },
    });
    expect(server.requests).toHaveLength(1);
  });

  it('validates what comes back even so: invalid, then valid', async () => {
    const server = await serverWith([{ text: '{"town":"Paris"}' }, { text: '{"city":"Paris"}' }]);
    const outcome = await structuredCall(openAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'tiny' }), city, {
      name: 'capital',
      prompt: 'The capital of France?',
    });
    expect(outcome).toMatchObject({ ok: true, value: { city: 'Paris' } });
    expect(outcome.attempts).toHaveLength(2);
    expect(server.requests[1]!.authorization).toBeUndefined();
  });

  it('streams server-sent events, split anywhere, into the same text', async () => {
    const server = await serverWith([
      { text: '{"city": "Ulaanbaatar, the coldest capital"}', promptTokens: 3, completionTokens: 9 },
    ]);
    const pieces: string[] = [];
    const completion = await openAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'tiny' }).complete({
      messages: [{ role: 'user', content: 'hi' }],
      onText: (piece) => pieces.push(piece),
    });
    expect(completion).toEqual({
      text: '{"city": "Ulaanbaatar, the coldest capital"}',
      finishReason: 'stop',
      usage: { promptTokens: 3, completionTokens: 9 },
    });
    expect(pieces.length).toBeGreaterThan(4);
    expect(server.requests[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('turns HTTP errors and an unreachable server into a dependency_unavailable bottleneck that says what happened', async () => {
    const server = await serverWith([
      { status: 500, body: '{"error":{"message":"model tiny is not loaded"}}' },
      { status: 401, body: 'bad key' },
    ]);
    const provider = openAiCompatibleProvider({ baseUrl: `${server.baseUrl}/`, model: 'tiny' });
    expect(await structuredCall(provider, city, { name: 'capital', prompt: 'x' })).toMatchObject({
      ok: false,
      attempts: [],
      bottleneck: {
        kind: 'dependency_unavailable',
        detail: `openai-compatible (tiny): ${server.baseUrl}/chat/completions answered HTTP 500: model tiny is not loaded`,
      },
    });
    expect(await structuredCall(provider, city, { name: 'capital', prompt: 'x' })).toMatchObject({
      ok: false,
      bottleneck: { detail: expect.stringContaining('answered HTTP 401: bad key') },
    });
    await close!();
    close = undefined;
    expect(await structuredCall(provider, city, { name: 'capital', prompt: 'x' })).toMatchObject({
      ok: false,
      bottleneck: {
        kind: 'dependency_unavailable',
        detail: expect.stringContaining(`cannot reach ${server.baseUrl}/chat/completions`),
      },
    });
  });

  it("keeps the base URL's query (an API version, a key) when it asks for completions", async () => {
    const server = await serverWith([{ text: '{"city":"Paris"}' }]);
    const provider = openAiCompatibleProvider({ baseUrl: `${server.baseUrl}/?api-version=2024-06-01`, model: 'tiny' });
    expect(await structuredCall(provider, city, { name: 'capital', prompt: 'x' })).toMatchObject({ ok: true });
    expect(server.requests[0]!.url).toBe('/v1/chat/completions?api-version=2024-06-01');
  });

  it("returns and throws nothing of the key or the base URL's key, even where the server echoes them: errors, answers, streamed pieces", async () => {
    const key = 'sk-echoed-0123456789';
    const echo = (request: { authorization?: string; url: string }) =>
      JSON.stringify({
        error: { message: `Incorrect API key provided: ${request.authorization?.slice(7)} at ${request.url}` },
      });
    const server = await serverWith([
      { status: 401, body: echo },
      { text: `{"city":"${key}"}` },
      { text: `{"city": "Paris, said ${key}"}` },
    ]);
    const provider = openAiCompatibleProvider({
      baseUrl: `${server.baseUrl}?key=qk-in-the-url`,
      model: 'tiny',
      apiKey: key,
    });
    const refused = await structuredCall(provider, city, { name: 'capital', prompt: 'x' });
    expect(refused).toMatchObject({
      ok: false,
      bottleneck: {
        detail: `openai-compatible (tiny): ${server.baseUrl}/chat/completions?key=[redacted] answered HTTP 401: Incorrect API key provided: [redacted] at /v1/chat/completions?key=[redacted]`,
      },
    });
    expect(await structuredCall(provider, city, { name: 'capital', prompt: 'x' })).toMatchObject({
      ok: true,
      value: { city: '[redacted]' },
      attempts: [{ text: '{"city":"[redacted]"}' }],
    });
    const pieces: string[] = [];
    const streamed = await provider.complete({
      messages: [{ role: 'user', content: 'hi' }],
      onText: (piece) => pieces.push(piece),
    });
    expect(streamed.text).toBe('{"city": "Paris, said [redacted]"}');
    expect(pieces.join('')).toBe(streamed.text);
    expect(server.requests.map((request) => request.authorization)).toEqual([
      `Bearer ${key}`,
      `Bearer ${key}`,
      `Bearer ${key}`,
    ]);
  });

  it('checks an endpoint before it is used', () => {
    expect(openAiEndpointSchema.safeParse({ baseUrl: 'ftp://x', model: 'm' }).error?.issues[0]?.message).toBe(
      'the base URL must be an http(s) address, like http://localhost:8080/v1',
    );
    expect(
      openAiEndpointSchema.safeParse({ baseUrl: 'http://localhost:8080/v1', model: ' ' }).error?.issues[0]?.message,
    ).toBe('name the model');
  });
});

describe('images for a model marked as seeing them', () => {
  const png = Uint8Array.from(
    atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='),
    (character) => character.charCodeAt(0),
  );
  const withImage = [
    { role: 'user' as const, content: 'What does the chart show?', images: [{ mediaType: 'image/png', bytes: png }] },
  ];

  it('sends an image as image_url content, a data URL after the text', async () => {
    const server = await serverWith([{ text: 'one red pixel' }]);
    const provider = openAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'llava', vision: true });
    expect(provider.seesImages).toBe(true);
    const completion = await provider.complete({ messages: withImage });
    expect(completion.text).toBe('one red pixel');
    expect(server.requests[0]!.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What does the chart show?' },
          {
            type: 'image_url',
            image_url: {
              url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
            },
          },
        ],
      },
    ]);
  });

  it('shows an image artifact with the prompt of a structured call, and validates the answer as always', async () => {
    const server = await serverWith([{ text: '{"city":"Pixelton"}' }]);
    const provider = openAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'llava', vision: true });
    const outcome = await structuredCall(provider, city, {
      name: 'place',
      prompt: 'Which city is drawn?',
      images: [{ mediaType: 'image/png', bytes: png }],
    });
    expect(outcome).toMatchObject({ ok: true, value: { city: 'Pixelton' } });
    const [message] = server.requests[0]!.body.messages as { content: { type: string }[] }[];
    expect(message!.content.map((part) => part.type)).toEqual(['text', 'image_url']);
  });

  it('keeps a message without images as plain text', async () => {
    const server = await serverWith([{ text: 'ok' }]);
    const provider = openAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'llava', vision: true });
    await provider.complete({ messages: [{ role: 'user', content: 'Hello' }] });
    expect(server.requests[0]!.body.messages).toEqual([{ role: 'user', content: 'Hello' }]);
  });

  it('sends no image to a model not marked as seeing them, nor an SVG to one that is', async () => {
    const server = await serverWith([]);
    const blind = openAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'tiny' });
    expect(blind.seesImages).toBe(false);
    await expect(blind.complete({ messages: withImage })).rejects.toThrow(
      'the model tiny is not marked as seeing images, so no image is sent to it',
    );
    const seeing = openAiCompatibleProvider({ baseUrl: server.baseUrl, model: 'llava', vision: true });
    const svg = { mediaType: 'image/svg+xml', bytes: new TextEncoder().encode('<svg/>') };
    await expect(
      seeing.complete({ messages: [{ role: 'user', content: 'And this?', images: [svg] }] }),
    ).rejects.toThrow('a model is shown only PNG, JPEG, GIF and WebP images, not image/svg+xml');
    expect(server.requests).toEqual([]);
  });
});
