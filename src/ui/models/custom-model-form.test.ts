import { describe, expect, it } from 'vitest';
import { ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { ScriptedWebLlmHost } from '#core/testing/scripted-webllm-host.ts';
import { testService } from '#core/testing/test-database.ts';
import {
  type CustomModelForm,
  customModelInput,
  describeAddition,
  EMPTY_CUSTOM_MODEL_FORM,
} from './custom-model-form.ts';

const FILLED: CustomModelForm = {
  ...EMPTY_CUSTOM_MODEL_FORM,
  id: ' Tiny-Chat-q4f16_1-MLC ',
  modelUrl: 'https://models.example/Tiny-Chat-q4f16_1-MLC',
  modelLibUrl: 'https://models.example/tiny-webgpu.wasm',
  vramMB: '1,200',
  weights: 'f16',
};

/** The form's input, sent to the real model manager (with a GPU of our own), and its answer as the form shows it. */
async function add(form: CustomModelForm) {
  const { service } = testService({
    providerReach: {
      webLlm: new ScriptedWebLlmHost(new ScriptedEngine([]), {
        available: true,
        adapter: 'SwiftShader',
        shaderF16: false,
        maxBufferMB: 1024,
      }),
    },
  });
  return describeAddition(await service.modelAdd({ model: customModelInput(form) }));
}

describe('the form that adds a WebLLM model by address', () => {
  it('sends trimmed text, numbers as numbers (thousands separators allowed), the default context, and the weights chosen', () => {
    expect(customModelInput(FILLED)).toEqual({
      id: 'Tiny-Chat-q4f16_1-MLC',
      modelUrl: FILLED.modelUrl,
      modelLibUrl: FILLED.modelLibUrl,
      vramMB: 1200,
      contextTokens: 4096,
      needsShaderF16: true,
    });
    // 0x10 is not sixteen megabytes here: only plain decimals are numbers, the rest the agent refuses.
    expect(customModelInput({ ...FILLED, vramMB: '0x10', contextTokens: '4e3' })).toMatchObject({
      vramMB: Number.NaN,
      contextTokens: Number.NaN,
    });
  });

  it('says an added model was added, and why it cannot run on this GPU', async () => {
    expect(await add(FILLED)).toEqual({
      tone: 'success',
      message:
        'Added Tiny-Chat-q4f16_1-MLC (Tiny-Chat-q4f16_1-MLC) to the list. It cannot run here: its f16 weights need shader-f16, which this GPU lacks.',
    });
    expect(await add({ ...FILLED, name: 'Tiny Chat', weights: 'f32' })).toMatchObject({
      tone: 'success',
      message: 'Added Tiny Chat (Tiny-Chat-q4f16_1-MLC) to the list. Download it to run it: nothing is fetched before.',
    });
  });

  it("puts each of the agent's problems beside its field: blanks, words where numbers go, a library that is not .wasm", async () => {
    const report = await add({
      ...FILLED,
      id: '',
      modelUrl: '',
      modelLibUrl: 'https://models.example/tiny.js',
      vramMB: 'a lot',
      contextTokens: '',
    });
    expect(report).toEqual({
      tone: 'failure',
      message: 'The model was not added:',
      problems: [],
      byField: {
        id: ['give the model an id'],
        modelUrl: ["give the weights' address (the folder with mlc-chat-config.json) as an http(s) address"],
        modelLibUrl: ['the model library is a .wasm file compiled for these weights'],
        vramMB: ['give the GPU memory it needs, in MB'],
      },
    });
  });
});
