import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { AgentApi, GgufModelView } from '#core/api.ts';
import type { InferenceView } from '../common/model-messages.ts';
import type { GgufProgress, GgufSource } from './gguf-messages.ts';
import { GgufModels } from './gguf-models.svelte.ts';
import type { ModelsHost } from './models.svelte.ts';

/** What the fake agent makes of a source: a model with these facts, a refusal, or an addition that waits to be cancelled. */
type AddScript = { progress: GgufProgress[]; outcome: 'ok' | 'not-a-model' | 'wait-for-cancel' };

function modelOf(id: string, fileName: string, source: GgufModelView['source'], addedAt: number): GgufModelView {
  return {
    id,
    engine: 'gguf',
    fileName,
    sizeBytes: 2 ** 20,
    architecture: 'llama',
    name: `anima-${id}`,
    contextLength: 256,
    quantisation: 'F32',
    parameters: 128_000,
    source,
    addedAt,
    memoryBytes: 27 * 2 ** 20,
  };
}

/**
 * A fake agent with the CPU engine's calls: additions play a script (progress reports, then a
 * model, a refusal, or waiting for a cancel), deletions remove the model, and the inference
 * settings are stored as the service stores them. Records its calls and the sources it was given.
 */
function fakeHost(options: { canWrite?: boolean; isAvailable?: boolean; adds?: AddScript[] } = {}) {
  const calls: string[] = [];
  const sources: GgufSource[] = [];
  const sent: unknown[] = [];
  const cancels = new Map<string, () => void>();
  const adds = [...(options.adds ?? [])];
  const added: GgufModelView[] = [modelOf('first.gguf', 'first.gguf', { kind: 'file' }, 1)];
  let settings: InferenceView = {
    provider: 'openai-compatible',
    openAi: {
      baseUrl: 'http://localhost:8080/v1',
      model: 'llama-3',
      apiKeyStored: true,
      baseUrlCredentialsStored: false,
    },
    webllmModel: 'Qwen',
    limits: { requests: 5 },
    confidenceCap: 0.6,
  };
  const client = {
    ggufList: async () => {
      calls.push('ggufList');
      if (options.isAvailable === false)
        return {
          isAvailable: false,
          unavailableBecause: 'the CPU engine (llama.cpp in WebAssembly) runs only in the browser',
          models: [],
        };
      return { isAvailable: true, models: [...added], ...(settings.ggufModel ? { chosen: settings.ggufModel } : {}) };
    },
    ggufAdd: async (
      { operationId, source }: { operationId: string; source: GgufSource },
      onProgress?: (progress: GgufProgress) => void,
    ) => {
      calls.push(`ggufAdd ${operationId}`);
      sources.push(source);
      const script = adds.shift() ?? { progress: [], outcome: 'ok' };
      for (const report of script.progress) onProgress?.(report);
      const fileName = source.kind === 'file' ? source.fileName : (source.url.split('/').at(-1) ?? 'model.gguf');
      if (script.outcome === 'wait-for-cancel') {
        await new Promise<void>((resolve) => cancels.set(operationId, resolve));
        return {
          ok: false as const,
          cancelled: true,
          problems: [{ message: `adding ${fileName} was cancelled; nothing was kept` }],
        };
      }
      if (script.outcome === 'not-a-model')
        return {
          ok: false as const,
          problems: [{ message: `${fileName}: not a GGUF model: the file starts with "<htm", not "GGUF"` }],
        };
      const model = modelOf(
        fileName.toLowerCase(),
        fileName,
        source.kind === 'file' ? { kind: 'file' } : { kind: 'url', url: source.url },
        added.length + 1,
      );
      added.push(model);
      return { ok: true as const, model };
    },
    cancel: async ({ operationId }: { operationId: string }) => {
      calls.push(`cancel ${operationId}`);
      cancels.get(operationId)?.();
      return { isCancelled: cancels.has(operationId) };
    },
    ggufDelete: async ({ id }: { id: string }) => {
      calls.push(`ggufDelete ${id}`);
      const index = added.findIndex((model) => model.id === id);
      if (index < 0) return { ok: false as const, problems: [{ message: `there is no GGUF model ${id}` }] };
      added.splice(index, 1);
      return { ok: true as const, id };
    },
    inferenceGet: async () => {
      calls.push('inferenceGet');
      return settings;
    },
    inferenceSet: async ({ settings: given }: { settings: unknown }) => {
      calls.push('inferenceSet');
      sent.push(given);
      const { openAi, ...rest } = given as InferenceView & { openAi?: { baseUrl: string; model: string } };
      settings = {
        ...rest,
        ...(openAi ? { openAi: { ...openAi, apiKeyStored: true, baseUrlCredentialsStored: false } } : {}),
      };
      return { ok: true as const, settings };
    },
  } satisfies Partial<AgentApi>;
  const run = {
    inference: undefined as InferenceView | undefined,
    async loadInference() {
      run.inference = await client.inferenceGet();
    },
    putInference(view: InferenceView) {
      run.inference = view;
    },
  };
  const host: ModelsHost = { client: client as unknown as AgentApi, canWrite: options.canWrite ?? true, run };
  let nextId = 1;
  const gguf = new GgufModels(host, () => `add-${nextId++}`);
  return { gguf, calls, sources, sent, run, added };
}

function ggufFile(name: string): File {
  return new File([new Uint8Array([0x47, 0x47, 0x55, 0x46])], name);
}

describe('GgufModels', () => {
  it('lists the models added here, and says whether runs bind one', async () => {
    const { gguf, calls } = fakeHost();
    await gguf.load();
    flushSync();
    expect(gguf.status).toBe('ready');
    expect(gguf.list?.isAvailable).toBe(true);
    expect(gguf.models.map((model) => model.id)).toEqual(['first.gguf']);
    expect(gguf.isInUse({ id: 'first.gguf' })).toBe(false);
    expect(calls).toEqual(['ggufList', 'inferenceGet']);
  });

  it('says why the CPU engine cannot run here', async () => {
    const { gguf } = fakeHost({ isAvailable: false });
    await gguf.load();
    expect(gguf.list).toMatchObject({
      isAvailable: false,
      unavailableBecause: expect.stringContaining('only in the browser'),
    });
  });

  it('adds a picked file with its name and progress, then lists it', async () => {
    const { gguf, sources } = fakeHost({
      adds: [{ progress: [{ phase: 'storing', bytesWritten: 512, totalBytes: 1024 }], outcome: 'ok' }],
    });
    await gguf.load();
    const file = ggufFile('Tiny.gguf');
    const adding = gguf.addFile(file);
    flushSync();
    expect(gguf.change).toEqual({
      status: 'adding',
      operationId: 'add-1',
      sourceName: 'Tiny.gguf',
      progress: { phase: 'storing', bytesWritten: 512, totalBytes: 1024 },
      isCancelling: false,
    });
    expect(gguf.isChanging).toBe(true);
    await adding;
    flushSync();
    expect(sources).toEqual([{ kind: 'file', file, fileName: 'Tiny.gguf' }]);
    expect(gguf.listReport).toEqual({
      tone: 'success',
      message: 'Added anima-tiny.gguf (Tiny.gguf): it runs on the CPU, offline too.',
    });
    expect(gguf.models.map((model) => model.id)).toEqual(['first.gguf', 'tiny.gguf']);
  });

  it("refuses a file that is not a model with the agent's reason, and lists nothing new", async () => {
    const { gguf } = fakeHost({ adds: [{ progress: [], outcome: 'not-a-model' }] });
    await gguf.load();
    await gguf.addFile(ggufFile('page.html'));
    flushSync();
    expect(gguf.listReport).toEqual({
      tone: 'failure',
      message: 'The model was not added:',
      problems: ['page.html: not a GGUF model: the file starts with "<htm", not "GGUF"'],
    });
    expect(gguf.models.map((model) => model.id)).toEqual(['first.gguf']);
  });

  it('downloads from an address, and refuses one that is not an http(s) address without asking the agent', async () => {
    const { gguf, calls, sources } = fakeHost();
    await gguf.load();
    await gguf.addUrl('huggingface.co/model.gguf');
    expect(gguf.listReport).toEqual({
      tone: 'failure',
      message: 'The model was not added:',
      problems: ['Enter a whole address, starting with https://.'],
    });
    expect(calls.filter((call) => call.startsWith('ggufAdd'))).toEqual([]);
    await gguf.addUrl(' https://example.org/models/Small.gguf ');
    expect(sources).toEqual([{ kind: 'url', url: 'https://example.org/models/Small.gguf' }]);
    expect(gguf.models.at(-1)).toMatchObject({
      id: 'small.gguf',
      source: { kind: 'url', url: 'https://example.org/models/Small.gguf' },
    });
  });

  it('cancels an addition, one change at a time meanwhile', async () => {
    const { gguf, calls } = fakeHost({
      adds: [{ progress: [{ phase: 'downloading', bytesWritten: 10 }], outcome: 'wait-for-cancel' }],
    });
    await gguf.load();
    const adding = gguf.addUrl('https://example.org/big.gguf');
    flushSync();
    // One change at a time: nothing else starts while it is added.
    await gguf.addFile(ggufFile('other.gguf'));
    await gguf.deleteModel(gguf.models[0]!);
    await gguf.cancelAdd();
    await adding;
    flushSync();
    expect(gguf.listReport).toEqual({ tone: 'cancelled', message: 'Adding big.gguf was cancelled; nothing was kept.' });
    expect(calls.filter((call) => !['ggufList', 'inferenceGet'].includes(call))).toEqual([
      'ggufAdd add-1',
      'cancel add-1',
    ]);
    expect(gguf.models.map((model) => model.id)).toEqual(['first.gguf']);
  });

  it('deletes a model, which leaves the list; the section says so', async () => {
    const { gguf } = fakeHost();
    await gguf.load();
    const [first] = gguf.models;
    await gguf.deleteModel(first!);
    flushSync();
    expect(gguf.listReport).toEqual({
      tone: 'success',
      message: 'Deleted anima-first.gguf (first.gguf) from this device.',
    });
    expect(gguf.models).toEqual([]);
    // Deleting it again (from another tab's stale list, say) says why not, on its card.
    await gguf.deleteModel(first!);
    expect(gguf.reportOf(first!)).toEqual({
      tone: 'failure',
      message: 'anima-first.gguf was not deleted:',
      problems: ['there is no GGUF model first.gguf'],
    });
  });

  it('uses a model for runs, keeping the limits, the cap, the endpoint and the WebLLM model', async () => {
    const { gguf, sent, run } = fakeHost();
    await gguf.load();
    await gguf.useModel(gguf.models[0]!);
    flushSync();
    expect(sent).toEqual([
      {
        provider: 'gguf',
        openAi: { baseUrl: 'http://localhost:8080/v1', model: 'llama-3' },
        webllmModel: 'Qwen',
        ggufModel: 'first.gguf',
        limits: { requests: 5 },
        confidenceCap: 0.6,
      },
    ]);
    expect(run.inference).toMatchObject({ provider: 'gguf', ggufModel: 'first.gguf', openAi: { apiKeyStored: true } });
    expect(gguf.isInUse({ id: 'first.gguf' })).toBe(true);
    expect(gguf.reportOf({ id: 'first.gguf' })).toEqual({
      tone: 'success',
      message: 'Runs now bind anima-first.gguf (CPU engine). Your limits and other settings stay as they were.',
    });
  });

  it('changes nothing from a tab that only shows the session', async () => {
    const { gguf, calls } = fakeHost({ canWrite: false });
    await gguf.load();
    expect(gguf.blockedReason).toContain('open in another tab');
    await gguf.addFile(ggufFile('tiny.gguf'));
    await gguf.addUrl('https://example.org/tiny.gguf');
    await gguf.useModel(gguf.models[0]!);
    await gguf.deleteModel(gguf.models[0]!);
    expect(calls).toEqual(['ggufList', 'inferenceGet']);
  });
});
