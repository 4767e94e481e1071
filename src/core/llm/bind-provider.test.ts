import { describe, expect, it } from 'vitest';
import { ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { ScriptedWebLlmHost } from '#core/testing/scripted-webllm-host.ts';
import { bindProvider } from './bind-provider.ts';
import { DEFAULT_CONFIDENCE_CAP } from './inference-settings.ts';

const VISION = 'Phi-3.5-vision-instruct-q4f16_1-MLC';

describe('binding a WebLLM model', () => {
  it('binds a vision model as one that sees images, and a text model as one that does not', async () => {
    const host = new ScriptedWebLlmHost(new ScriptedEngine([]));
    host.cached.add(VISION);
    host.cached.add('Qwen3-0.6B-q4f16_1-MLC');
    const settings = { provider: 'webllm' as const, limits: {}, confidenceCap: DEFAULT_CONFIDENCE_CAP };
    const vision = await bindProvider({ ...settings, webllmModel: VISION }, { webLlm: host });
    expect(vision.provider).toMatchObject({ name: 'webllm', model: VISION, seesImages: true });
    const text = await bindProvider({ ...settings, webllmModel: 'Qwen3-0.6B-q4f16_1-MLC' }, { webLlm: host });
    expect(text.provider?.seesImages).toBeUndefined();
  });
});
