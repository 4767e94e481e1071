import { describe, expect, it } from 'vitest';
import type { ModelView } from '#core/api.ts';
import {
  arrangeModels,
  groupByReason,
  bytesText,
  cacheStateText,
  deleteQuestion,
  describeChoice,
  describeDelete,
  describeDownload,
  gpuDetails,
  gpuSummary,
  hiddenModelsToggleText,
  isModelInUse,
  megabytesText,
  progressPercent,
  progressText,
  weightsText,
  webLlmModelNote,
} from './model-messages.ts';

function model(id: string, overrides: Partial<ModelView> = {}): ModelView {
  return {
    id,
    name: id.split('-')[0]!,
    vramMB: 1000,
    contextTokens: 4096,
    needsShaderF16: false,
    cached: false,
    partial: false,
    recommended: false,
    ...overrides,
  };
}

const SMOL = { id: 'SmolLM2-360M-Instruct-q4f32_1-MLC', name: 'SmolLM2 360M' };

describe('sizes', () => {
  it('says GPU memory in MB below a GB, and in GB with one decimal above', () => {
    expect(megabytesText(376)).toBe('376 MB');
    expect(megabytesText(1023.6)).toBe('1,024 MB');
    expect(megabytesText(1129)).toBe('1.1 GB');
    expect(megabytesText(5001)).toBe('4.9 GB');
    expect(megabytesText(1024)).toBe('1 GB');
  });

  it('says stored bytes in MB or GB, and a little as a tenth of a MB rather than nothing', () => {
    expect(bytesText(0)).toBe('0 MB');
    expect(bytesText(1000)).toBe('0.1 MB');
    expect(bytesText(400 * 2 ** 10)).toBe('0.4 MB');
    expect(bytesText(120 * 2 ** 20)).toBe('120 MB');
    expect(bytesText(1.5 * 2 ** 30)).toBe('1.5 GB');
  });
});

describe("a WebLLM model's note", () => {
  it('says what a model of the list is good for, its size, its speed and whether it suits limited devices', () => {
    expect(webLlmModelNote({ id: 'SmolLM2-360M-Instruct-q4f32_1-MLC' })).toEqual({
      goodFor: 'Good for trying WebLLM: short answers, quickly, on any GPU.',
      size: '362M parameters',
      speed: 'fast on the GPU (under 1B parameters)',
      lowResource: true,
    });
    expect(webLlmModelNote({ id: 'Llama-3.1-8B-Instruct-q4f16_1-MLC' })).toMatchObject({
      speed: 'slow on the GPU (over 2B parameters)',
      lowResource: false,
    });
    // A model added here by address has no note: nothing is known of it but what the user gave.
    expect(webLlmModelNote({ id: 'My-Model-q4f32_1-MLC' })).toBeUndefined();
  });
});

describe('the GPU', () => {
  it('names the adapter, whether it has shader-f16 and what that means, and its largest buffer', () => {
    const gpu = { available: true as const, adapter: 'google swiftshader', shaderF16: false, maxBufferMB: 1024 };
    expect(gpuSummary(gpu)).toBe('WebGPU found a GPU: models run on it, in this browser.');
    expect(gpuDetails(gpu)).toEqual([
      { name: 'Adapter', value: 'google swiftshader' },
      { name: 'shader-f16', value: 'No: only models with f32 weights can run' },
      { name: 'Largest buffer', value: '1 GB' },
    ]);
    expect(gpuDetails({ ...gpu, shaderF16: true })[1]!.value).toBe('Yes: models with f16 weights can run');
  });

  it('says why no model can run without a usable GPU', () => {
    const gpu = {
      available: false as const,
      reason: 'WebGPU found no usable GPU (it may be turned off, or this device has none).',
    };
    expect(gpuSummary(gpu)).toBe(
      'WebGPU cannot run a model here: WebGPU found no usable GPU (it may be turned off, or this device has none).',
    );
    expect(gpuDetails(gpu)).toEqual([]);
  });
});

describe('the list of models', () => {
  it('lists the runnable models, those added here first, then the recommended, each group smallest first; the others apart, smallest first', () => {
    const models = [
      model('big-f32', { vramMB: 2894 }),
      model('small-f16', {
        vramMB: 376,
        needsShaderF16: true,
        notRunnableBecause: 'its f16 weights need shader-f16, which this GPU lacks',
      }),
      model('mid-f32', { vramMB: 1060, recommended: true }),
      model('small-f32', { vramMB: 580, recommended: true }),
      model('tiny-f32', { vramMB: 500 }),
      model('large-f16', {
        vramMB: 5001,
        needsShaderF16: true,
        notRunnableBecause: 'its f16 weights need shader-f16, which this GPU lacks',
      }),
      model('added-f32', {
        vramMB: 4000,
        custom: { modelUrl: 'https://models.example/added', modelLibUrl: 'https://models.example/added.wasm' },
      }),
    ];
    const { runnable, notRunnable } = arrangeModels(models);
    expect(runnable.map((known) => known.id)).toEqual(['added-f32', 'small-f32', 'mid-f32', 'tiny-f32', 'big-f32']);
    expect(notRunnable.map((known) => known.id)).toEqual(['small-f16', 'large-f16']);
    // The list it was given stays as it was.
    expect(models[0]!.id).toBe('big-f32');
  });

  it('groups the models that cannot run by their reason, saying each reason once with its count', () => {
    const noGpu = 'WebGPU found no usable GPU.';
    const noF16 = 'its f16 weights need shader-f16, which this GPU lacks';
    const groups = groupByReason([
      model('small-f16', { notRunnableBecause: noF16 }),
      model('small-f32', { notRunnableBecause: noGpu }),
      model('runs', {}),
      model('large-f16', { notRunnableBecause: noF16 }),
      model('large-f32', { notRunnableBecause: noGpu }),
      model('huge-f16', { notRunnableBecause: noF16 }),
    ]);
    expect(groups.map(({ heading, models }) => [heading, models.map((known) => known.id)])).toEqual([
      [
        '3 models cannot run here: its f16 weights need shader-f16, which this GPU lacks.',
        ['small-f16', 'large-f16', 'huge-f16'],
      ],
      ['2 models cannot run here: WebGPU found no usable GPU.', ['small-f32', 'large-f32']],
    ]);
    expect(groupByReason([model('one', { notRunnableBecause: noGpu })])[0]?.heading).toBe(
      '1 model cannot run here: WebGPU found no usable GPU.',
    );
  });

  it('offers to show or hide the models this GPU cannot run, by their number', () => {
    expect(hiddenModelsToggleText(8, false, true)).toBe('Show 8 models this GPU cannot run');
    expect(hiddenModelsToggleText(1, true, true)).toBe('Hide 1 model this GPU cannot run');
    expect(hiddenModelsToggleText(13, false, false)).toBe('Show 13 models that cannot run here');
  });

  it('says whether a model is downloaded, or only partly (a download stopped and left some files)', () => {
    expect(cacheStateText(model('Smol', { cached: true }))).toBe('Downloaded');
    expect(cacheStateText(model('Smol', { partial: true }))).toBe('Partly downloaded');
    expect(cacheStateText(model('Smol'))).toBe('Not downloaded');
  });

  it('says what weights a model has', () => {
    expect(weightsText({ needsShaderF16: true })).toBe('f16 (needs shader-f16)');
    expect(weightsText({ needsShaderF16: false })).toBe('f32');
  });

  it('marks a model in use only when runs bind WebLLM with it', () => {
    expect(isModelInUse(SMOL, { provider: 'webllm', webllmModel: SMOL.id })).toBe(true);
    expect(isModelInUse(SMOL, { provider: 'none', webllmModel: SMOL.id })).toBe(false);
    expect(isModelInUse(SMOL, { provider: 'webllm', webllmModel: 'other' })).toBe(false);
    expect(isModelInUse(SMOL, undefined)).toBe(false);
  });
});

describe('a download', () => {
  it("shows its progress as a whole percentage with WebLLM's words, kept within 0 to 100", () => {
    expect(progressText(undefined)).toBe('Starting the download…');
    expect(progressText({ fraction: 0, text: '' })).toBe('Starting the download…');
    expect(progressText({ fraction: 0.423, text: 'Fetching param cache[3/20]: 120MB fetched. ' })).toBe(
      '42%: Fetching param cache[3/20]: 120MB fetched.',
    );
    expect(progressText({ fraction: 1, text: '' })).toBe('100%');
    expect(progressPercent({ fraction: 1.2, text: '' })).toBe(100);
    expect(progressPercent({ fraction: -1, text: '' })).toBe(0);
    expect(progressPercent({ fraction: Number.NaN, text: '' })).toBe(0);
  });

  it('says it ended, was cancelled (offering repair), or failed with the reason (offering repair)', () => {
    expect(describeDownload({ ok: true, modelId: SMOL.id }, SMOL)).toEqual({
      tone: 'success',
      message: 'Downloaded SmolLM2 360M (SmolLM2-360M-Instruct-q4f32_1-MLC): it now runs on this device, offline too.',
    });
    expect(describeDownload({ ok: false, cancelled: true, problems: [{ message: 'cancelled' }] }, SMOL)).toMatchObject({
      tone: 'cancelled',
      canRepair: true,
    });
    const offline = `this device is offline, so ${SMOL.id} cannot be downloaded: connect once to download it; after that it runs offline`;
    expect(describeDownload({ ok: false, problems: [{ message: offline }] }, SMOL)).toEqual({
      tone: 'failure',
      message: 'SmolLM2 360M was not downloaded:',
      problems: [offline],
      canRepair: true,
    });
  });
});

describe('deleting and choosing', () => {
  it('says a deletion or a repair happened, or why not', () => {
    expect(describeDelete({ ok: true, modelId: SMOL.id }, SMOL, false).message).toBe(
      'Deleted SmolLM2 360M (SmolLM2-360M-Instruct-q4f32_1-MLC) from this device.',
    );
    expect(describeDelete({ ok: true, modelId: SMOL.id }, SMOL, true).message).toBe(
      'Deleted what was fetched of SmolLM2 360M: a new download starts clean.',
    );
    expect(
      describeDelete({ ok: false, problems: [{ message: 'WebLLM runs only in the browser, on WebGPU' }] }, SMOL, true),
    ).toEqual({
      tone: 'failure',
      message: 'SmolLM2 360M was not repaired:',
      problems: ['WebLLM runs only in the browser, on WebGPU'],
      canRepair: true,
    });
  });

  it('asks before a deletion, and warns when runs use the model', () => {
    expect(deleteQuestion(SMOL, false)).toBe(
      'Delete SmolLM2 360M (SmolLM2-360M-Instruct-q4f32_1-MLC)? Its files leave this device; using it again takes a new download.',
    );
    expect(deleteQuestion(SMOL, true)).toContain('they use the symbolic engine alone');
  });

  it('says runs bind the chosen model, or names the refused field', () => {
    expect(
      describeChoice(
        { ok: true, settings: { provider: 'webllm', webllmModel: SMOL.id, limits: {}, confidenceCap: 0.7 } },
        SMOL,
      ).message,
    ).toBe('Runs now bind SmolLM2 360M (WebLLM). Your limits and other settings stay as they were.');
    expect(
      describeChoice({ ok: false, problems: [{ path: 'webllmModel', message: 'choose a WebLLM model' }] }, SMOL),
    ).toMatchObject({ problems: ['choose a WebLLM model'] });
  });
});
