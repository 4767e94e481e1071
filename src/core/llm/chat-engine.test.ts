import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedEngine } from '#core/testing/scripted-engine.ts';
import {
  type ChatEngine,
  type EngineChunk,
  type EngineCompletion,
  type EngineRequest,
  engineLossOf,
  engineProvider,
} from './chat-engine.ts';
import { structuredCall } from './structured-call.ts';

/** WebLLM's words when the device goes while it loads (its DeviceLostError). */
const DEVICE_LOST =
  'The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM).';
/** WebLLM's words once it has unloaded its model after the device went (its ModelNotLoadedError). */
const MODEL_UNLOADED =
  'Model not loaded before trying to complete ChatCompletionRequest. Please ensure you have called MLCEngine.reload(model) to load the model before initiating APIs.';

/** An engine whose streams give one piece, then fail with this message. */
function engineFailingMidStream(message: string): ChatEngine {
  const create = async (): Promise<EngineCompletion | AsyncIterable<EngineChunk>> =>
    (async function* (): AsyncIterable<EngineChunk> {
      yield { choices: [{ delta: { content: 'Olympus ' } }] };
      throw new Error(message);
    })();
  return {
    chat: { completions: { create: create as ChatEngine['chat']['completions']['create'] } },
    interruptGenerate: () => undefined,
  };
}

describe('a lost engine', () => {
  it('is told apart from other failures by its message', () => {
    expect(engineLossOf(new Error(DEVICE_LOST))).toBe('device-lost');
    expect(engineLossOf(new Error('GPUDeviceLost: destroyed'))).toBe('device-lost');
    expect(engineLossOf(new Error('Buffer allocation failed'))).toBe('out-of-memory');
    expect(engineLossOf(new Error(MODEL_UNLOADED))).toBe('model-unloaded');
    expect(engineLossOf(new Error('the scripted engine has no more replies'))).toBeUndefined();
    expect(engineLossOf(new Error('WebGPU: OOM in createBuffer'))).toBe('out-of-memory');
    expect(engineLossOf(new Error('no room left in the prompt for the zoom level'))).toBeUndefined();
    expect(engineLossOf('device is lost')).toBe('device-lost');
  });

  it('is named in the error a completion fails with, and the run hears why', async () => {
    const provider = engineProvider(
      new ScriptedEngine([
        { fail: 'the tokenizer choked' },
        { fail: DEVICE_LOST },
        { fail: MODEL_UNLOADED },
        { text: 'Olympus Mons' },
      ]),
      { name: 'webllm', model: 'SmolLM2-360M-Instruct-q4f32_1-MLC' },
    );
    const messages = [{ role: 'user' as const, content: 'Which volcano?' }];
    await expect(provider.complete({ messages })).rejects.toMatchObject({ kind: 'unavailable' });
    await expect(provider.complete({ messages })).rejects.toMatchObject({
      kind: 'device-lost',
      message: expect.stringContaining('the GPU device was lost'),
    });
    await expect(provider.complete({ messages })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(await provider.complete({ messages })).toMatchObject({ text: 'Olympus Mons' });
  });

  it('is named when a streamed completion fails part way, after the text that came', async () => {
    const provider = engineProvider(engineFailingMidStream('out of memory'), {
      name: 'webllm',
      model: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
    });
    const pieces: string[] = [];
    await expect(
      provider.complete({
        messages: [{ role: 'user', content: 'Which volcano?' }],
        onText: (piece) => pieces.push(piece),
      }),
    ).rejects.toMatchObject({ kind: 'out-of-memory' });
    expect(pieces).toEqual(['Olympus ']);
  });
});

/** WebLLM's words when xgrammar cannot build a request's grammar (its GrammarMatcherInitError). */
const GRAMMAR_FAILED =
  'Failed to initialize the grammar matcher for response format `grammar`: EBNF parse error at line 3';
/** WebLLM's words for a prompt past the context window (its ContextWindowSizeExceededError). */
const CONTEXT_EXCEEDED =
  'Prompt tokens exceed context window size: number of prompt tokens: 4200; context window size: 4096\nConsider shortening the prompt, or increase `context_window_size`, or using sliding window via `sliding_window_size`.';

describe('a request the engine cannot constrain', () => {
  const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
  const asked = {
    messages: [
      { role: 'system' as const, content: 'Answer with JSON.' },
      { role: 'user' as const, content: 'Which city?' },
    ],
    jsonSchema: { name: 'city', schema },
  };

  it('is sent again once without the grammar, the schema in words, and that schema goes without one from then on', async () => {
    const engine = new ScriptedEngine([
      { fail: GRAMMAR_FAILED },
      { text: '{"city":"Paris"}' },
      { text: '{"city":"Lyon"}' },
    ]);
    const provider = engineProvider(engine, { name: 'webllm', model: 'tiny' });
    expect(await provider.complete(asked)).toMatchObject({ text: '{"city":"Paris"}' });
    expect(engine.requests[0]!.response_format).toEqual({ type: 'json_object', schema: JSON.stringify(schema) });
    expect(engine.requests[1]!.response_format).toBeUndefined();
    expect(engine.requests[1]!.messages[0]!.content).toBe(
      `Answer with JSON.\n\nAnswer with only a JSON object that follows this JSON Schema: ${JSON.stringify(schema)}`,
    );
    expect(await provider.complete(asked)).toMatchObject({ text: '{"city":"Lyon"}' });
    expect(engine.requests[2]!.response_format).toBeUndefined();
    expect(engine.requests).toHaveLength(3);
  });

  it('fails as before when the second try fails too, and a failure of another kind is not retried', async () => {
    const twice = new ScriptedEngine([{ fail: GRAMMAR_FAILED }, { fail: 'the tokenizer choked' }]);
    await expect(engineProvider(twice, { name: 'webllm', model: 'tiny' }).complete(asked)).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'the tokenizer choked',
    });
    const other = new ScriptedEngine([{ fail: 'the tokenizer choked' }, { text: '{"city":"Paris"}' }]);
    await expect(engineProvider(other, { name: 'webllm', model: 'tiny' }).complete(asked)).rejects.toMatchObject({
      kind: 'unavailable',
    });
    expect(other.requests).toHaveLength(1);
  });
});

describe("a prompt past the engine's context window", () => {
  it('is a context overflow, not a lost engine', async () => {
    const provider = engineProvider(new ScriptedEngine([{ fail: CONTEXT_EXCEEDED }]), {
      name: 'webllm',
      model: 'tiny',
    });
    await expect(provider.complete({ messages: [{ role: 'user', content: 'A long question' }] })).rejects.toMatchObject(
      { kind: 'context-overflow', message: CONTEXT_EXCEEDED },
    );
    expect(engineLossOf(new Error(CONTEXT_EXCEEDED))).toBeUndefined();
  });

  it("is a context overflow in llama.cpp's words too (the CPU engine)", async () => {
    const words = 'request (2050 tokens) exceeds the available context size (1024 tokens), try increasing it';
    const provider = engineProvider(new ScriptedEngine([{ fail: words }]), { name: 'gguf', model: 'tiny' });
    await expect(provider.complete({ messages: [{ role: 'user', content: 'A long question' }] })).rejects.toMatchObject(
      { kind: 'context-overflow', message: words },
    );
  });
});

describe('an engine that counts tokens', () => {
  it('tells its context window through the provider, and the usage counts the whole prompt when the engine read only the new part', async () => {
    // An engine that reuses its cache: it reports only the last message as read.
    const scripted = new ScriptedEngine([{ text: 'Paris' }], { contextTokens: 4096 });
    const reusing: ChatEngine = {
      context: scripted.context!,
      interruptGenerate: () => scripted.interruptGenerate(),
      chat: {
        completions: {
          create: (async (request: EngineRequest) => {
            const completion = (await scripted.chat.completions.create({
              ...request,
              stream: false,
            })) as EngineCompletion;
            return { ...completion, usage: { prompt_tokens: 2, completion_tokens: 1 } };
          }) as ChatEngine['chat']['completions']['create'],
        },
      },
    };
    const provider = engineProvider(reusing, { name: 'webllm', model: 'tiny' });
    expect(provider.context?.tokens).toBe(4096);
    const completion = await provider.complete({
      messages: [
        { role: 'system', content: 'You are Anima, here to help.' },
        { role: 'user', content: 'Which city?' },
      ],
    });
    expect(completion.usage).toEqual({ promptTokens: 8, completionTokens: 1 });
  });
});

describe('model settings on an engine', () => {
  it("reach the engine in its own names, a structured call's merged from the call's override, the session's settings and the call's default", async () => {
    const engine = new ScriptedEngine([{ text: '{"city":"Paris"}' }, { text: 'plain' }]);
    const provider = engineProvider(engine, { name: 'webllm', model: 'SmolLM2-360M-Instruct-q4f32_1-MLC' });
    await structuredCall(provider, z.object({ city: z.string() }), {
      name: 'capital',
      prompt: 'The capital of France?',
      maxTokens: 64,
      settings: { temperature: 0.9, topP: 0.8, seed: 11 },
      override: { temperature: 0.1 },
    });
    await provider.complete({ messages: [{ role: 'user', content: 'Hello' }] });
    expect(engine.requests[0]).toMatchObject({ temperature: 0.1, top_p: 0.8, seed: 11, max_tokens: 64 });
    // Nothing set: every field is the engine's default.
    expect(
      Object.keys(engine.requests[1]!).filter((key) => ['temperature', 'top_p', 'seed', 'max_tokens'].includes(key)),
    ).toEqual([]);
  });
});

describe('images and an in-browser engine', () => {
  it('reach a vision model (WebLLM VLM) as image_url parts after the text', async () => {
    const requests: EngineRequest[] = [];
    const create = async (request: EngineRequest) => {
      requests.push(request);
      return { choices: [{ message: { content: 'a red pixel' }, finish_reason: 'stop' }] };
    };
    const engine: ChatEngine = {
      chat: { completions: { create: create as ChatEngine['chat']['completions']['create'] } },
      interruptGenerate: () => undefined,
    };
    const provider = engineProvider(engine, {
      name: 'webllm',
      model: 'Phi-3.5-vision-instruct-q4f16_1-MLC',
      seesImages: true,
    });
    expect(provider.seesImages).toBe(true);
    const completion = await provider.complete({
      messages: [
        { role: 'system', content: 'Describe images.' },
        {
          role: 'user',
          content: 'What is drawn?',
          images: [{ mediaType: 'image/png', bytes: Uint8Array.of(1, 2, 3) }],
        },
      ],
    });
    expect(completion.text).toBe('a red pixel');
    expect(requests[0]!.messages).toEqual([
      { role: 'system', content: 'Describe images.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is drawn?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AQID' } },
        ],
      },
    ]);
  });

  it('are refused before the engine is asked when its model does not see them', async () => {
    const requests: EngineRequest[] = [];
    const create = async (request: EngineRequest) => {
      requests.push(request);
      return { choices: [{ message: { content: 'no' }, finish_reason: 'stop' }] };
    };
    const engine: ChatEngine = {
      chat: { completions: { create: create as ChatEngine['chat']['completions']['create'] } },
      interruptGenerate: () => undefined,
    };
    const provider = engineProvider(engine, { name: 'webllm', model: 'Qwen3-0.6B-q4f16_1-MLC' });
    expect(provider.seesImages).toBeUndefined();
    await expect(
      provider.complete({
        messages: [
          { role: 'user', content: 'What is drawn?', images: [{ mediaType: 'image/png', bytes: new Uint8Array(4) }] },
        ],
      }),
    ).rejects.toThrow('the model Qwen3-0.6B-q4f16_1-MLC is not marked as seeing images, so no image is sent to it');
    expect(requests).toEqual([]);
  });
});
