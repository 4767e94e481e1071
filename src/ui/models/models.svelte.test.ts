import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { AgentApi, ModelView } from '#core/api.ts';
import type { InferenceView } from '../common/model-messages.ts';
import type { DownloadProgress } from './model-messages.ts';
import { type ModelsHost, ModelsView } from './models.svelte.ts';

const SMOL_F32: ModelView = {
  id: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
  name: 'SmolLM2 360M',
  vramMB: 580,
  contextTokens: 4096,
  needsShaderF16: false,
  cached: false,
  partial: false,
  recommended: true,
};
const SMOL_F16: ModelView = {
  ...SMOL_F32,
  id: 'SmolLM2-360M-Instruct-q4f16_1-MLC',
  vramMB: 376,
  needsShaderF16: true,
  recommended: false,
  notRunnableBecause: 'its f16 weights need shader-f16, which this GPU lacks',
};
const QWEN_F32: ModelView = {
  id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
  name: 'Qwen2.5 0.5B',
  vramMB: 1060,
  contextTokens: 4096,
  needsShaderF16: false,
  cached: true,
  partial: false,
  recommended: true,
};

type DownloadScript = { progress: DownloadProgress[]; outcome: 'ok' | 'offline' | 'wait-for-cancel' };

/**
 * A fake agent with the model manager's calls: downloads play a script (progress reports, then an
 * outcome, or waiting for a cancel), a finished download marks the model cached, a deletion
 * clears it, and the inference settings are stored as the service stores them. Records its calls.
 */
function fakeHost(options: { canWrite?: boolean; downloads?: DownloadScript[] } = {}) {
  const calls: string[] = [];
  const cached = new Set([QWEN_F32.id]);
  const cancels = new Map<string, () => void>();
  const downloads = [...(options.downloads ?? [])];
  let settings: InferenceView = {
    provider: 'openai-compatible',
    openAi: {
      baseUrl: 'http://localhost:8080/v1',
      model: 'llama-3',
      apiKeyStored: true,
      baseUrlCredentialsStored: false,
    },
    limits: { requests: 5 },
    confidenceCap: 0.6,
  };
  const sent: unknown[] = [];
  const client = {
    modelList: async () => {
      calls.push('modelList');
      return {
        gpu: { available: true as const, adapter: 'google swiftshader', shaderF16: false, maxBufferMB: 1024 },
        models: [SMOL_F16, SMOL_F32, QWEN_F32].map((model) => ({ ...model, cached: cached.has(model.id) })),
      };
    },
    modelDownload: async (
      { operationId, modelId }: { operationId: string; modelId: string },
      onProgress?: (progress: DownloadProgress) => void,
    ) => {
      calls.push(`modelDownload ${modelId}`);
      const script = downloads.shift() ?? { progress: [], outcome: 'ok' };
      for (const report of script.progress) onProgress?.(report);
      if (script.outcome === 'wait-for-cancel') {
        await new Promise<void>((resolve) => cancels.set(operationId, resolve));
        return { ok: false as const, cancelled: true, problems: [{ message: 'cancelled' }] };
      }
      if (script.outcome === 'offline')
        return {
          ok: false as const,
          problems: [{ message: `could not download ${modelId}: the network cannot be reached` }],
        };
      cached.add(modelId);
      return { ok: true as const, modelId };
    },
    cancel: async ({ operationId }: { operationId: string }) => {
      calls.push(`cancel ${operationId}`);
      cancels.get(operationId)?.();
      return { isCancelled: cancels.has(operationId) };
    },
    modelDelete: async ({ modelId }: { modelId: string }) => {
      calls.push(`modelDelete ${modelId}`);
      cached.delete(modelId);
      return { ok: true as const, modelId };
    },
    inferenceGet: async () => {
      calls.push('inferenceGet');
      return settings;
    },
    inferenceSet: async ({ settings: given }: { settings: unknown }) => {
      calls.push('inferenceSet');
      sent.push(given);
      if (options.canWrite === false) return { ok: false as const, problems: [{ message: 'open in another tab' }] };
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
  const models = new ModelsView(host, () => `download-${nextId++}`);
  return { models, calls, sent, run };
}

describe('ModelsView', () => {
  it('lists the models this GPU can run, recommended first, and keeps the others apart', async () => {
    const { models } = fakeHost();
    await models.load();
    flushSync();
    expect(models.status).toBe('ready');
    expect(models.arranged.runnable.map((model) => model.id)).toEqual([SMOL_F32.id, QWEN_F32.id]);
    expect(models.arranged.notRunnable.map((model) => model.id)).toEqual([SMOL_F16.id]);
    expect(models.downloaded.map((model) => model.id)).toEqual([QWEN_F32.id]);
  });

  it('downloads a model with its progress, then lists it as downloaded', async () => {
    const { models, calls } = fakeHost({
      downloads: [{ progress: [{ fraction: 0.5, text: 'Fetching param cache[1/2]' }], outcome: 'ok' }],
    });
    await models.load();
    const download = models.download(SMOL_F32);
    flushSync();
    expect(models.change).toEqual({
      status: 'downloading',
      modelId: SMOL_F32.id,
      operationId: 'download-1',
      progress: { fraction: 0.5, text: 'Fetching param cache[1/2]' },
      isCancelling: false,
    });
    expect(models.isChanging).toBe(true);
    await download;
    flushSync();
    expect(models.reportOf(SMOL_F32)).toMatchObject({ tone: 'success' });
    expect(models.downloaded.map((model) => model.id)).toEqual([SMOL_F32.id, QWEN_F32.id]);
    expect(calls).toEqual(['modelList', 'inferenceGet', `modelDownload ${SMOL_F32.id}`, 'modelList', 'inferenceGet']);
  });

  it('says why a download failed and offers repair; the model stays not downloaded', async () => {
    const { models } = fakeHost({ downloads: [{ progress: [], outcome: 'offline' }] });
    await models.load();
    await models.download(SMOL_F32);
    flushSync();
    expect(models.reportOf(SMOL_F32)).toEqual({
      tone: 'failure',
      message: 'SmolLM2 360M was not downloaded:',
      problems: [`could not download ${SMOL_F32.id}: the network cannot be reached`],
      canRepair: true,
    });
    expect(models.reportOf(QWEN_F32)).toBeUndefined();
    expect(models.downloaded.map((model) => model.id)).toEqual([QWEN_F32.id]);
  });

  it('cancels a download, offers repair, and repairs by deleting what was fetched', async () => {
    const { models, calls } = fakeHost({
      downloads: [{ progress: [{ fraction: 0.1, text: '' }], outcome: 'wait-for-cancel' }],
    });
    await models.load();
    const download = models.download(SMOL_F32);
    // One change at a time: WebLLM loads one model at a time.
    await models.download(QWEN_F32);
    await models.cancelDownload();
    await download;
    flushSync();
    expect(models.reportOf(SMOL_F32)).toMatchObject({ tone: 'cancelled', canRepair: true });
    await models.deleteModel(SMOL_F32, { isRepair: true });
    flushSync();
    expect(models.reportOf(SMOL_F32)).toEqual({
      tone: 'success',
      message: 'Deleted what was fetched of SmolLM2 360M: a new download starts clean.',
    });
    expect(calls.filter((call) => !['modelList', 'inferenceGet'].includes(call))).toEqual([
      `modelDownload ${SMOL_F32.id}`,
      'cancel download-1',
      `modelDelete ${SMOL_F32.id}`,
    ]);
  });

  it('deletes a downloaded model, which leaves the list of downloaded ones', async () => {
    const { models } = fakeHost();
    await models.load();
    await models.deleteModel(QWEN_F32);
    flushSync();
    expect(models.reportOf(QWEN_F32)?.message).toBe(`Deleted Qwen2.5 0.5B (${QWEN_F32.id}) from this device.`);
    expect(models.downloaded).toEqual([]);
  });

  it('uses a model for runs, keeping the limits, the cap and the endpoint with its stored key', async () => {
    const { models, sent, run } = fakeHost();
    await models.load();
    expect(models.isInUse(QWEN_F32)).toBe(false);
    await models.useModel(QWEN_F32);
    flushSync();
    expect(sent).toEqual([
      {
        provider: 'webllm',
        openAi: { baseUrl: 'http://localhost:8080/v1', model: 'llama-3' },
        webllmModel: QWEN_F32.id,
        limits: { requests: 5 },
        confidenceCap: 0.6,
      },
    ]);
    expect(run.inference).toMatchObject({
      provider: 'webllm',
      webllmModel: QWEN_F32.id,
      openAi: { apiKeyStored: true },
    });
    expect(models.isInUse(QWEN_F32)).toBe(true);
    expect(models.reportOf(QWEN_F32)).toMatchObject({ tone: 'success' });
  });

  it('does not change settings from a tab that only shows the session', async () => {
    const { models, sent } = fakeHost({ canWrite: false });
    await models.load();
    expect(models.blockedReason).toContain('open in another tab');
    await models.useModel(QWEN_F32);
    expect(sent).toEqual([]);
  });
});
