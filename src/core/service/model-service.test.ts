import { describe, expect, it } from 'vitest';
import type { GgufModelRecord } from '#core/records/gguf-model.ts';
import { testService } from '#core/testing/test-database.ts';
import { ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { ScriptedWebLlmHost } from '#core/testing/scripted-webllm-host.ts';
import { answerDecodingSchemas } from '#core/agent/answer-schemas.ts';
import type { LoadProgress } from '#core/llm/chat-engine.ts';

const SOFTWARE_GPU = { available: true as const, adapter: 'Google SwiftShader', shaderF16: false, maxBufferMB: 1024 };

describe('the model manager', () => {
  it('says why there is no WebLLM where there is none, and offers nothing to download', async () => {
    const { service } = testService();
    const listed = await service.modelList({});
    expect(listed.gpu).toEqual({ available: false, reason: 'WebLLM runs only in the browser, on WebGPU' });
    expect(
      listed.models.every(
        (model) =>
          model.notRunnableBecause === 'WebLLM runs only in the browser, on WebGPU' &&
          !model.cached &&
          !model.recommended,
      ),
    ).toBe(true);
    expect(await service.modelDownload({ operationId: 'd', modelId: 'SmolLM2-360M-Instruct-q4f32_1-MLC' })).toEqual({
      ok: false,
      problems: [{ message: 'WebLLM runs only in the browser, on WebGPU' }],
    });
  });

  it('on a GPU without shader-f16: f16 models cannot run, small f32 ones are recommended, an f16 download is refused', async () => {
    const host = new ScriptedWebLlmHost(new ScriptedEngine([]), SOFTWARE_GPU);
    const { service } = testService({ providerReach: { webLlm: host } });
    const { gpu, models } = await service.modelList({});
    expect(gpu).toEqual(SOFTWARE_GPU);
    expect(models.find((model) => model.id === 'Llama-3.2-1B-Instruct-q4f16_1-MLC')).toMatchObject({
      notRunnableBecause: 'its f16 weights need shader-f16, which this GPU lacks',
      recommended: false,
    });
    expect(models.filter((model) => model.recommended).map((model) => model.id)).toEqual([
      'SmolLM2-360M-Instruct-q4f32_1-MLC',
      'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
      'Llama-3.2-1B-Instruct-q4f32_1-MLC',
    ]);
    expect(await service.modelDownload({ operationId: 'd', modelId: 'Llama-3.2-1B-Instruct-q4f16_1-MLC' })).toEqual({
      ok: false,
      problems: [
        {
          message:
            'Llama-3.2-1B-Instruct-q4f16_1-MLC has f16 weights, which need shader-f16; this GPU lacks it, so choose an f32 model',
        },
      ],
    });
    expect(host.loads).toEqual([]);
  });

  it('downloads with progress, lists the model as downloaded, deletes it; a failed download says why; a cancel stops one', async () => {
    const host = new ScriptedWebLlmHost(new ScriptedEngine([]));
    const { service } = testService({ providerReach: { webLlm: host } });
    const progress: LoadProgress[] = [];
    const id = 'SmolLM2-360M-Instruct-q4f16_1-MLC';
    expect(await service.modelDownload({ operationId: 'd', modelId: id }, (report) => progress.push(report))).toEqual({
      ok: true,
      modelId: id,
    });
    expect(progress.map((report) => report.fraction)).toEqual([0.25, 0.5, 1, 1, 1, 1, 1, 1]);
    // Once loaded, the engine builds the grammars of the app's answers, and the progress says so.
    expect(progress.slice(3).map((report) => report.text)).toEqual(
      [0, 1, 2, 3, 4].map((count) => `Preparing the answer formats (${count} of 4)`),
    );
    expect(host.prepared).toEqual([answerDecodingSchemas()]);
    expect((await service.modelList({})).models.find((model) => model.id === id)).toMatchObject({
      cached: true,
      recommended: true,
    });
    expect(await service.modelDelete({ modelId: id })).toEqual({ ok: true, modelId: id });
    expect((await service.modelList({})).models.find((model) => model.id === id)!.cached).toBe(false);

    host.downloadFails = 'could not download SmolLM2-360M-Instruct-q4f16_1-MLC: the network cannot be reached';
    expect(await service.modelDownload({ operationId: 'd', modelId: id })).toEqual({
      ok: false,
      problems: [{ message: host.downloadFails }],
    });
    host.downloadFails = undefined;
    host.downloadWaits = true;
    const downloading = service.modelDownload({ operationId: 'slow', modelId: id });
    await expect.poll(() => host.loads.length).toBe(3);
    await service.cancel({ operationId: 'slow' });
    expect(await downloading).toMatchObject({ ok: false, cancelled: true });
  });

  it('lists a model whose download stopped as partly downloaded, after a reload too; a new download goes on, a repair deletes what was fetched', async () => {
    const host = new ScriptedWebLlmHost(new ScriptedEngine([]));
    const id = 'SmolLM2-360M-Instruct-q4f16_1-MLC';
    const stateOf = async (service: ReturnType<typeof testService>['service']) => {
      const model = (await service.modelList({})).models.find((candidate) => candidate.id === id)!;
      return { cached: model.cached, partial: model.partial };
    };
    const first = testService({ providerReach: { webLlm: host } }).service;
    expect(await stateOf(first)).toEqual({ cached: false, partial: false });
    host.downloadFails = 'could not download SmolLM2-360M-Instruct-q4f16_1-MLC: the network cannot be reached';
    expect(await first.modelDownload({ operationId: 'd', modelId: id })).toMatchObject({ ok: false });
    expect(await stateOf(first)).toEqual({ cached: false, partial: true });

    // A new page view (a fresh service over the same cache) still sees what the download left.
    const afterReload = testService({ providerReach: { webLlm: host } }).service;
    expect(await stateOf(afterReload)).toEqual({ cached: false, partial: true });
    expect(await afterReload.modelDelete({ modelId: id })).toEqual({ ok: true, modelId: id });
    expect(await stateOf(afterReload)).toEqual({ cached: false, partial: false });

    // A cancelled download leaves its files too; the next one ends it.
    host.downloadFails = undefined;
    host.downloadWaits = true;
    const downloading = afterReload.modelDownload({ operationId: 'slow', modelId: id });
    await expect.poll(() => host.loads.length).toBe(2);
    await afterReload.cancel({ operationId: 'slow' });
    expect(await downloading).toMatchObject({ ok: false, cancelled: true });
    expect(await stateOf(afterReload)).toEqual({ cached: false, partial: true });
    host.downloadWaits = false;
    expect(await afterReload.modelDownload({ operationId: 'again', modelId: id })).toEqual({ ok: true, modelId: id });
    expect(await stateOf(afterReload)).toEqual({ cached: true, partial: false });
  });

  it('a run never starts a download: a chosen model that is not downloaded leaves the run to the symbolic engine', async () => {
    const host = new ScriptedWebLlmHost(new ScriptedEngine([]));
    const { service } = testService({ providerReach: { webLlm: host } });
    const { session } = await service.open({});
    await service.goalAdd({ sessionId: session.id, description: 'Learn about Mars', criteria: 'volcano' });
    await service.inferenceSet({ settings: { provider: 'webllm', webllmModel: 'SmolLM2-360M-Instruct-q4f16_1-MLC' } });
    const run = await service.agentRun({ sessionId: session.id, operationId: 'run', maxCycles: 1 });
    expect(run).toMatchObject({
      ok: true,
      usage: {
        provider: 'none',
        fellBack: {
          kind: 'not-downloaded',
          because: 'SmolLM2-360M-Instruct-q4f16_1-MLC is not downloaded yet: download it on the Models screen',
        },
      },
    });
    expect(host.loads).toEqual([]);
  });

  describe("a model added by address (not in WebLLM's list)", () => {
    const TINY = {
      id: 'Tiny-Chat-q4f32_1-MLC',
      name: 'Tiny Chat',
      modelUrl: 'https://models.example/Tiny-Chat-q4f32_1-MLC',
      modelLibUrl: 'https://models.example/libs/tiny-q4f32_1-webgpu.wasm',
      vramMB: 300,
      contextTokens: 2048,
      needsShaderF16: false,
    };

    it('is listed with its addresses, downloaded through WebLLM with them, used by a run, and removed with its files', async () => {
      const engine = new ScriptedEngine([]);
      const host = new ScriptedWebLlmHost(engine, SOFTWARE_GPU);
      const { service } = testService({ providerReach: { webLlm: host } });
      const added = await service.modelAdd({ model: TINY });
      expect(added).toEqual({
        ok: true,
        model: {
          id: TINY.id,
          name: 'Tiny Chat',
          vramMB: 300,
          contextTokens: 2048,
          needsShaderF16: false,
          cached: false,
          partial: false,
          recommended: false,
          custom: { modelUrl: TINY.modelUrl, modelLibUrl: TINY.modelLibUrl },
        },
      });
      const listed = (await service.modelList({})).models.find((model) => model.id === TINY.id);
      expect(listed).toMatchObject({ custom: { modelUrl: TINY.modelUrl }, cached: false });

      expect(await service.modelDownload({ operationId: 'd', modelId: TINY.id })).toEqual({
        ok: true,
        modelId: TINY.id,
      });
      expect(host.customLoads.get(TINY.id)).toEqual({
        modelUrl: TINY.modelUrl,
        modelLibUrl: TINY.modelLibUrl,
        vramMB: 300,
        contextTokens: 2048,
        needsShaderF16: false,
      });
      expect((await service.modelList({})).models.find((model) => model.id === TINY.id)!.cached).toBe(true);

      // A run binds it with its addresses, and records it as the model used.
      const { session } = await service.open({});
      await service.goalAdd({ sessionId: session.id, description: 'Learn about Mars', criteria: 'volcano' });
      expect(await service.inferenceSet({ settings: { provider: 'webllm', webllmModel: TINY.id } })).toMatchObject({
        ok: true,
      });
      const run = await service.agentRun({ sessionId: session.id, operationId: 'run', maxCycles: 1 });
      expect(run).toMatchObject({ ok: true, usage: { provider: 'webllm', model: TINY.id } });
      expect(host.loads.at(-1)).toBe(TINY.id);

      // Delete keeps it listed (files only); forget removes it, with its library, and a run then says why it has no model.
      expect(await service.modelDelete({ modelId: TINY.id })).toEqual({ ok: true, modelId: TINY.id });
      expect((await service.modelList({})).models.find((model) => model.id === TINY.id)).toMatchObject({
        cached: false,
      });
      expect(await service.modelForget({ modelId: TINY.id })).toEqual({ ok: true, modelId: TINY.id });
      expect(host.removals).toEqual([TINY.id, `${TINY.id}+library`]);
      expect((await service.modelList({})).models.some((model) => model.id === TINY.id)).toBe(false);
      const after = await service.agentRun({ sessionId: session.id, operationId: 'run-2', maxCycles: 1 });
      expect(after).toMatchObject({
        ok: true,
        usage: {
          provider: 'none',
          fellBack: {
            kind: 'not-on-device',
            because: `there is no WebLLM model ${TINY.id} on this device: choose one of the list, or add it on the Models screen`,
          },
        },
      });
      expect(await service.modelDownload({ operationId: 'd2', modelId: TINY.id })).toMatchObject({
        ok: false,
        problems: [{ message: expect.stringContaining(`there is no WebLLM model ${TINY.id} on this device`) }],
      });
    });

    it('is listed without credentials in its addresses', async () => {
      const host = new ScriptedWebLlmHost(new ScriptedEngine([]), SOFTWARE_GPU);
      const { service } = testService({ providerReach: { webLlm: host } });
      await service.modelAdd({
        model: {
          ...TINY,
          modelUrl: 'https://ada:pw-secret-1@models.example/Tiny-Chat-q4f32_1-MLC',
          modelLibUrl: `${TINY.modelLibUrl}?token=tok-secret-2`,
        },
      });
      const listed = (await service.modelList({})).models.find((model) => model.id === TINY.id);
      expect(listed?.custom).toEqual({
        modelUrl: 'https://[redacted]@models.example/Tiny-Chat-q4f32_1-MLC',
        modelLibUrl: `${TINY.modelLibUrl}?token=[redacted]`,
      });
    });

    it('refuses bad fields with their place, ids taken, and f16 weights on a GPU without shader-f16; nothing is stored', async () => {
      const host = new ScriptedWebLlmHost(new ScriptedEngine([]), SOFTWARE_GPU);
      const { service, db } = testService({ providerReach: { webLlm: host } });
      const bad = await service.modelAdd({
        model: {
          ...TINY,
          id: 'has space',
          modelUrl: 'ftp://models.example/x',
          modelLibUrl: 'https://models.example/lib.js',
          vramMB: -1,
          contextTokens: 100,
        },
      });
      expect(bad).toEqual({
        ok: false,
        problems: [
          {
            path: 'id',
            message:
              'an id is letters, digits, ".", "_" and "-" (as WebLLM names models), starting with a letter or digit',
          },
          {
            path: 'modelUrl',
            message: "give the weights' address (the folder with mlc-chat-config.json) as an http(s) address",
          },
          { path: 'modelLibUrl', message: 'the model library is a .wasm file compiled for these weights' },
          { path: 'vramMB', message: 'the GPU memory it needs is more than 0 MB' },
          { path: 'contextTokens', message: 'a context window of fewer than 256 tokens holds no prompt' },
        ],
      });
      expect(await service.modelAdd({ model: { ...TINY, id: 'SmolLM2-360M-Instruct-q4f32_1-MLC' } })).toEqual({
        ok: false,
        problems: [
          {
            path: 'id',
            message: "SmolLM2-360M-Instruct-q4f32_1-MLC is one of WebLLM's own models: it is already in the list",
          },
        ],
      });
      expect(await db.models.count()).toBe(0);

      expect(
        await service.modelAdd({ model: { ...TINY, name: undefined, id: 'Tiny-f16', needsShaderF16: true } }),
      ).toMatchObject({
        ok: true,
        model: { name: 'Tiny-f16', notRunnableBecause: 'its f16 weights need shader-f16, which this GPU lacks' },
      });
      expect(await service.modelAdd({ model: { ...TINY, id: 'Tiny-f16' } })).toEqual({
        ok: false,
        problems: [{ path: 'id', message: 'a model with the id Tiny-f16 is already on this device: give another id' }],
      });
      expect(await service.modelDownload({ operationId: 'd', modelId: 'Tiny-f16' })).toEqual({
        ok: false,
        problems: [
          { message: 'Tiny-f16 has f16 weights, which need shader-f16; this GPU lacks it, so choose an f32 model' },
        ],
      });
      expect(host.loads).toEqual([]);
      // Only added WebLLM models can be removed from the list: not WebLLM's own, not a GGUF model.
      expect(await service.modelForget({ modelId: 'SmolLM2-360M-Instruct-q4f32_1-MLC' })).toMatchObject({ ok: false });
      const gguf: GgufModelRecord = {
        id: 'tiny.gguf',
        engine: 'gguf',
        fileName: 'tiny.gguf',
        sizeBytes: 1,
        architecture: 'llama',
        quantisation: 'Q4_K_M',
        parameters: 1,
        source: { kind: 'file' },
        addedAt: 1,
      };
      await db.models.add(gguf);
      expect(await service.modelForget({ modelId: 'tiny.gguf' })).toEqual({
        ok: false,
        problems: [{ message: 'tiny.gguf is not a WebLLM model added here: only those can be removed from this list' }],
      });
      expect(await db.models.count()).toBe(2);
      expect(host.removals).toEqual([]);
    });

    it('is listed as partly downloaded when a download of it stopped, and Repair deletes its files but keeps it listed', async () => {
      const host = new ScriptedWebLlmHost(new ScriptedEngine([]), SOFTWARE_GPU);
      const { service } = testService({ providerReach: { webLlm: host } });
      await service.modelAdd({ model: TINY });
      host.downloadFails = `could not download ${TINY.id}: the network cannot be reached`;
      expect(await service.modelDownload({ operationId: 'd', modelId: TINY.id })).toMatchObject({ ok: false });
      expect((await service.modelList({})).models.find((model) => model.id === TINY.id)).toMatchObject({
        cached: false,
        partial: true,
      });
      expect(await service.modelDelete({ modelId: TINY.id })).toEqual({ ok: true, modelId: TINY.id });
      expect((await service.modelList({})).models.find((model) => model.id === TINY.id)).toMatchObject({
        cached: false,
        partial: false,
        custom: { modelUrl: TINY.modelUrl },
      });
    });

    it("refuses weights that another model's deletion would take: a prebuilt model's folder, or an added model's (or one inside it)", async () => {
      const host = new ScriptedWebLlmHost(new ScriptedEngine([]));
      const { service, db } = testService({ providerReach: { webLlm: host } });
      expect(
        await service.modelAdd({
          model: { ...TINY, modelUrl: 'https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f32_1-MLC' },
        }),
      ).toEqual({
        ok: false,
        problems: [
          {
            path: 'modelUrl',
            message:
              "this is where WebLLM's own Qwen2.5-0.5B-Instruct-q4f32_1-MLC is kept: that model is already in the list",
          },
        ],
      });
      expect(await service.modelAdd({ model: TINY })).toMatchObject({ ok: true });
      for (const modelUrl of [TINY.modelUrl, `${TINY.modelUrl}/`, `${TINY.modelUrl}/resolve/main/extra`]) {
        expect(await service.modelAdd({ model: { ...TINY, id: 'Tiny-Copy', modelUrl } }), modelUrl).toEqual({
          ok: false,
          problems: [
            {
              path: 'modelUrl',
              message: `the added model ${TINY.id} is kept there: two models cannot share their weights' folder`,
            },
          ],
        });
      }
      expect(
        await service.modelAdd({
          model: { ...TINY, id: 'Tiny-Other', modelUrl: 'https://models.example/Tiny-Chat-q4f32_1-MLC-v2' },
        }),
      ).toMatchObject({ ok: true });
      expect(await db.models.count()).toBe(2);
    });

    it('a library two added models share stays until the last of them is removed', async () => {
      const host = new ScriptedWebLlmHost(new ScriptedEngine([]));
      const { service } = testService({ providerReach: { webLlm: host } });
      await service.modelAdd({ model: TINY });
      await service.modelAdd({ model: { ...TINY, id: 'Tiny-Chat-2', modelUrl: 'https://models.example/Tiny-Chat-2' } });
      await service.modelForget({ modelId: TINY.id });
      await service.modelForget({ modelId: 'Tiny-Chat-2' });
      expect(host.removals).toEqual([TINY.id, 'Tiny-Chat-2+library']);
    });

    it('cannot be added where there is no WebLLM', async () => {
      const { service } = testService();
      expect(await service.modelAdd({ model: TINY })).toEqual({
        ok: false,
        problems: [{ message: 'WebLLM runs only in the browser, on WebGPU' }],
      });
    });
  });
});
