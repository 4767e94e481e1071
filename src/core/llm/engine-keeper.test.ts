import { describe, expect, it } from 'vitest';
import { ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { ScriptedWebLlmHost } from '#core/testing/scripted-webllm-host.ts';
import type { ChatEngine } from './chat-engine.ts';
import { engineProvider } from './chat-engine.ts';
import { ENGINE_GONE, LOST_WHILE_IDLE } from './engine-keeper.ts';

const SMALL = { id: 'SmolLM2-360M-Instruct-q4f16_1-MLC' };
const OTHER = { id: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC' };
const question = { messages: [{ role: 'user' as const, content: 'Which volcano?' }] };

function hostWith(script: ConstructorParameters<typeof ScriptedEngine>[0]) {
  const engine = new ScriptedEngine(script);
  const host = new ScriptedWebLlmHost(engine);
  host.cached.add(SMALL.id).add(OTHER.id);
  return { engine, host };
}

const ask = (chat: ChatEngine, signal?: AbortSignal) =>
  engineProvider(chat, { name: 'webllm', model: 'scripted' }).complete({ ...question, ...(signal ? { signal } : {}) });

describe('the engine keeper', () => {
  it('hands out the engine it keeps while its model is loaded, and loads it again once the GPU lost it while idle, saying why', async () => {
    const { host } = hostWith([{ text: 'Olympus Mons' }]);
    await host.load(SMALL);
    await host.load(SMALL);
    expect(host.loads).toEqual([SMALL.id]);
    host.loseModels();
    const reloads: string[] = [];
    const chat = await host.load(SMALL, { onReload: (why) => reloads.push(why) });
    expect(reloads).toEqual([LOST_WHILE_IDLE]);
    expect(host.loads).toEqual([SMALL.id, SMALL.id]);
    expect(await ask(chat)).toMatchObject({ text: 'Olympus Mons' });
    expect(host.liveEngines).toBe(1);
  });

  it('gives two loads at once their turns: one engine on the GPU afterwards, the later one', async () => {
    const { host } = hostWith([]);
    const [first, second] = await Promise.all([host.load(SMALL), host.load(OTHER)]);
    expect(host.loads).toEqual([SMALL.id, OTHER.id]);
    expect(host.liveEngines).toBe(1);
    await expect(ask(first)).rejects.toMatchObject({ message: expect.stringContaining(ENGINE_GONE) });
    await expect(ask(second)).rejects.toMatchObject({ message: 'the scripted engine has no more replies' });
  });

  it('lets a request end before a download unloads its engine, and the requests after the download wait for it', async () => {
    const { engine, host } = hostWith([{ text: 'Olympus Mons', delayMs: 50 }]);
    const chat = await host.load(SMALL);
    const events: string[] = [];
    const answering = ask(chat).then((completion) => events.push(`answered: ${completion.text}`));
    await expect.poll(() => engine.requests.length).toBe(1);
    const downloading = host.load(OTHER).then(() => events.push(`loaded ${host.loads.at(-1)}`));
    const late = ask(chat).catch((error: Error) => events.push(`refused: ${error.message}`));
    await Promise.all([answering, downloading, late]);
    expect(events).toEqual([
      'answered: Olympus Mons',
      `loaded ${OTHER.id}`,
      expect.stringContaining(`refused: ${ENGINE_GONE}`),
    ]);
    expect(engine.interrupts).toBe(0);
  });

  it('answers a cancelled load at once, and unloads what it went on to load: no engine is left on the GPU', async () => {
    const { host } = hostWith([{ text: 'Olympus Mons' }]);
    host.uploadWaits = true;
    const controller = new AbortController();
    const loading = host.load(SMALL, { signal: controller.signal });
    await expect.poll(() => host.loads.length).toBe(1);
    controller.abort();
    await expect(loading).rejects.toMatchObject({ name: 'AbortError' });
    // WebLLM finishes the upload it cannot stop; the keeper unloads it in the load's turn.
    host.finishUpload();
    host.uploadWaits = false;
    const chat = await host.load(SMALL);
    expect(host.loads).toEqual([SMALL.id, SMALL.id]);
    expect(host.liveEngines).toBe(1);
    expect(await ask(chat)).toMatchObject({ text: 'Olympus Mons' });
  });

  it('takes a cancelled request that waits out of the queue, without interrupting the one running', async () => {
    const { engine, host } = hostWith([{ text: 'the cycle', delayMs: 50 }, { text: 'after' }]);
    const chat = await host.load(SMALL);
    const running = ask(chat);
    await expect.poll(() => engine.requests.length).toBe(1);
    const controller = new AbortController();
    const waiting = ask(chat, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(await running).toMatchObject({ text: 'the cycle' });
    expect(engine.interrupts).toBe(0);
    expect(engine.requests).toHaveLength(1);
    expect(await ask(chat)).toMatchObject({ text: 'after' });
  });

  it('interrupts the engine for a cancelled request that is the one running', async () => {
    const { engine, host } = hostWith([{ text: 'the write-up', delayMs: 10_000 }, { text: 'the cycle' }]);
    const chat = await host.load(SMALL);
    const controller = new AbortController();
    const writing = ask(chat, controller.signal);
    const cycle = ask(chat);
    await expect.poll(() => engine.requests.length).toBe(1);
    controller.abort();
    await expect(writing).rejects.toMatchObject({ name: 'AbortError' });
    expect(engine.interrupts).toBe(1);
    expect(await cycle).toMatchObject({ text: 'the cycle' });
  });

  it('forgets an engine that failed because it was lost, so the next load is fresh', async () => {
    const { host } = hostWith([{ fail: 'GPUDeviceLostInfo: device was lost' }, { text: 'Olympus Mons' }]);
    const chat = await host.load(SMALL);
    await expect(ask(chat)).rejects.toMatchObject({ kind: 'device-lost' });
    expect(host.liveEngines).toBe(0);
    expect(await ask(await host.load(SMALL))).toMatchObject({ text: 'Olympus Mons' });
    expect(host.loads).toEqual([SMALL.id, SMALL.id]);
  });

  it('unloads the engine before its model is deleted, in its turn', async () => {
    const { host } = hostWith([]);
    const chat = await host.load(SMALL);
    await host.remove(SMALL);
    expect(host.liveEngines).toBe(0);
    expect(host.removals).toEqual([SMALL.id]);
    await expect(ask(chat)).rejects.toMatchObject({ message: expect.stringContaining(ENGINE_GONE) });
  });
});
