import { describe, expect, it } from 'vitest';
import { testService } from '../testing/test-database.ts';
import { ScriptedEngine } from '../testing/scripted-engine.ts';
import { ScriptedWebLlmHost } from '../testing/scripted-webllm-host.ts';

const SOFTWARE_GPU = { available: true as const, adapter: 'Google SwiftShader', shaderF16: false, maxBufferMB: 1024 };

describe('the model manager', () => {
  it('says why there is no WebLLM where there is none, and offers nothing to download', async () => {
    const { service } = testService();
    const listed = await service.modelList({});
    expect(listed.gpu).toEqual({ available: false, reason: 'WebLLM runs only in the browser, on WebGPU' });
    expect(listed.models.every((model) => model.notRunnableBecause === 'WebLLM runs only in the browser, on WebGPU' && !model.cached && !model.recommended)).toBe(true);
    expect(await service.modelDownload({ operationId: 'd', modelId: 'SmolLM2-360M-Instruct-q4f32_1-MLC' })).toEqual({ ok: false, problems: [{ message: 'WebLLM runs only in the browser, on WebGPU' }] });
  });

  it('on a GPU without shader-f16: f16 models cannot run, small f32 ones are recommended, an f16 download is refused', async () => {
    const host = new ScriptedWebLlmHost(new ScriptedEngine([]), SOFTWARE_GPU);
    const { service } = testService({ providerReach: { webLlm: host } });
    const { gpu, models } = await service.modelList({});
    expect(gpu).toEqual(SOFTWARE_GPU);
    expect(models.find((model) => model.id === 'Llama-3.2-1B-Instruct-q4f16_1-MLC')).toMatchObject({ notRunnableBecause: 'its f16 weights need shader-f16, which this GPU lacks', recommended: false });
    expect(models.filter((model) => model.recommended).map((model) => model.id)).toEqual(['SmolLM2-360M-Instruct-q4f32_1-MLC', 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', 'Llama-3.2-1B-Instruct-q4f32_1-MLC']);
    expect(await service.modelDownload({ operationId: 'd', modelId: 'Llama-3.2-1B-Instruct-q4f16_1-MLC' })).toEqual({
      ok: false,
      problems: [{ message: 'Llama-3.2-1B-Instruct-q4f16_1-MLC has f16 weights, which need shader-f16; this GPU lacks it, so choose an f32 model' }],
    });
    expect(host.loads).toEqual([]);
  });

  it('downloads with progress, lists the model as downloaded, deletes it; a failed download says why; a cancel stops one', async () => {
    const host = new ScriptedWebLlmHost(new ScriptedEngine([]));
    const { service } = testService({ providerReach: { webLlm: host } });
    const progress: number[] = [];
    const id = 'SmolLM2-360M-Instruct-q4f16_1-MLC';
    expect(await service.modelDownload({ operationId: 'd', modelId: id }, (report) => progress.push(report.fraction))).toEqual({ ok: true, modelId: id });
    expect(progress).toEqual([0.25, 0.5, 1]);
    expect((await service.modelList({})).models.find((model) => model.id === id)).toMatchObject({ cached: true, recommended: true });
    expect(await service.modelDelete({ modelId: id })).toEqual({ ok: true, modelId: id });
    expect((await service.modelList({})).models.find((model) => model.id === id)!.cached).toBe(false);

    host.downloadFails = 'could not download SmolLM2-360M-Instruct-q4f16_1-MLC: the network cannot be reached';
    expect(await service.modelDownload({ operationId: 'd', modelId: id })).toEqual({ ok: false, problems: [{ message: host.downloadFails }] });
    host.downloadFails = undefined;
    host.downloadWaits = true;
    const downloading = service.modelDownload({ operationId: 'slow', modelId: id });
    await expect.poll(() => host.loads.length).toBe(3);
    await service.cancel({ operationId: 'slow' });
    expect(await downloading).toMatchObject({ ok: false, cancelled: true });
  });

  it('a run never starts a download: a chosen model that is not downloaded leaves the run to the symbolic engine', async () => {
    const host = new ScriptedWebLlmHost(new ScriptedEngine([]));
    const { service } = testService({ providerReach: { webLlm: host } });
    const { session } = await service.open({});
    await service.goalAdd({ sessionId: session.id, description: 'Learn about Mars', criteria: 'volcano' });
    await service.inferenceSet({ settings: { provider: 'webllm', webllmModel: 'SmolLM2-360M-Instruct-q4f16_1-MLC' } });
    const run = await service.agentRun({ sessionId: session.id, operationId: 'run', maxCycles: 1 });
    expect(run).toMatchObject({ ok: true, usage: { provider: 'none', fellBackBecause: 'SmolLM2-360M-Instruct-q4f16_1-MLC is not downloaded yet: download it on the Models screen' } });
    expect(host.loads).toEqual([]);
  });
});
