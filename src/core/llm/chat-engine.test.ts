import { describe, expect, it } from 'vitest';
import { ScriptedEngine } from '../testing/scripted-engine.ts';
import { type ChatEngine, type EngineChunk, type EngineCompletion, engineLossOf, engineProvider, reportingLoss } from './chat-engine.ts';

/** WebLLM's words when the device goes while it loads (its DeviceLostError). */
const DEVICE_LOST = 'The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM).';
/** WebLLM's words once it has unloaded its model after the device went (its ModelNotLoadedError). */
const MODEL_UNLOADED = 'Model not loaded before trying to complete ChatCompletionRequest. Please ensure you have called MLCEngine.reload(model) to load the model before initiating APIs.';

/** An engine whose streams give one piece, then fail with this message. */
function engineFailingMidStream(message: string): ChatEngine {
  const create = async (): Promise<EngineCompletion | AsyncIterable<EngineChunk>> =>
    (async function* (): AsyncIterable<EngineChunk> {
      yield { choices: [{ delta: { content: 'Olympus ' } }] };
      throw new Error(message);
    })();
  return { chat: { completions: { create: create as ChatEngine['chat']['completions']['create'] } }, interruptGenerate: () => undefined };
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

  it('is reported to its keeper when a completion fails for that reason, and the run still hears why', async () => {
    let losses = 0;
    const engine = reportingLoss(new ScriptedEngine([{ fail: 'the tokenizer choked' }, { fail: DEVICE_LOST }, { fail: MODEL_UNLOADED }, { text: 'Olympus Mons' }]), () => losses++);
    const provider = engineProvider(engine, { name: 'webllm', model: 'SmolLM2-360M-Instruct-q4f32_1-MLC' });
    const messages = [{ role: 'user' as const, content: 'Which volcano?' }];

    await expect(provider.complete({ messages })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(losses).toBe(0);
    await expect(provider.complete({ messages })).rejects.toMatchObject({ kind: 'device-lost', message: expect.stringContaining('the GPU device was lost') });
    expect(losses).toBe(1);
    await expect(provider.complete({ messages })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(losses).toBe(2);
    expect(await provider.complete({ messages })).toMatchObject({ text: 'Olympus Mons' });
    expect(losses).toBe(2);
  });

  it('is reported when a streamed completion fails part way, after the text that came', async () => {
    let losses = 0;
    const provider = engineProvider(reportingLoss(engineFailingMidStream('out of memory'), () => losses++), { name: 'webllm', model: 'SmolLM2-360M-Instruct-q4f32_1-MLC' });
    const pieces: string[] = [];
    await expect(provider.complete({ messages: [{ role: 'user', content: 'Which volcano?' }], onText: (piece) => pieces.push(piece) })).rejects.toMatchObject({ kind: 'out-of-memory' });
    expect(pieces).toEqual(['Olympus ']);
    expect(losses).toBe(1);
  });

  it('passes interrupts on to the engine', () => {
    const scripted = new ScriptedEngine([]);
    reportingLoss(scripted, () => undefined).interruptGenerate();
    expect(scripted.interrupts).toBe(1);
  });
});
