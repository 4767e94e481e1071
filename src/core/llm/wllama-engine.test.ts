import { describe, expect, it } from 'vitest';
import type { ChatCompletionParams } from '@wllama/wllama/esm/types/oai-compat';
import { engineProvider } from './chat-engine.ts';
import { type WllamaChat, wllamaEngine } from './wllama-engine.ts';

/** A stand-in for wllama's `Wllama` that keeps what each chat completion was asked with. */
function recordingWllama() {
  const calls: ChatCompletionParams[] = [];
  const wllama = {
    async createChatCompletion(options: ChatCompletionParams) {
      calls.push(options);
      return {
        id: 'x',
        object: 'chat.completion',
        created: 0,
        model: 'tiny',
        choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
      };
    },
  } as unknown as WllamaChat;
  return { wllama, calls };
}

describe('model settings on the CPU engine', () => {
  it("reach llama.cpp's chat completion: temperature, top-p, max tokens and seed", async () => {
    const { wllama, calls } = recordingWllama();
    const provider = engineProvider(wllamaEngine(wllama), { name: 'gguf', model: 'tiny' });
    await provider.complete({
      messages: [{ role: 'user', content: 'Hi' }],
      settings: { temperature: 0.7, topP: 0.9, maxTokens: 32, seed: 42 },
    });
    expect(calls[0]).toMatchObject({ temperature: 0.7, top_p: 0.9, max_tokens: 32, seed: 42 });
  });

  it('decodes greedily when no temperature is set, and sends no top-p or seed of its own', async () => {
    const { wllama, calls } = recordingWllama();
    await engineProvider(wllamaEngine(wllama), { name: 'gguf', model: 'tiny' }).complete({
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(calls[0]!.temperature).toBe(0);
    expect(calls[0]).not.toHaveProperty('top_p');
    expect(calls[0]).not.toHaveProperty('seed');
  });
});
