import { z } from 'zod';
import { type Secret, secretsOfUrl } from '#core/secrets.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import type { WebLlmModelRecord } from '#core/records/webllm-model.ts';

/** The WebLLM Anima runs (a test holds it to the one installed): a custom model must be built for its runtime. */
export const WEBLLM_VERSION = '0.2.86';

/**
 * The WebLLM models Anima offers (ids of WebLLM 0.2.86's prebuilt list, small to large), with the
 * GPU memory WebLLM says each needs. Kept here, not read from WebLLM, so the Models screen shows
 * them without downloading WebLLM's 6 MB code; a test checks them against WebLLM's own list.
 * Models with f16 weights need the GPU's shader-f16 feature; the f32 ones run without it.
 */
export const WEBLLM_MODELS = [
  {
    id: 'SmolLM2-360M-Instruct-q4f16_1-MLC',
    name: 'SmolLM2 360M',
    vramMB: 376,
    contextTokens: 4096,
    needsShaderF16: true,
  },
  {
    id: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
    name: 'SmolLM2 360M',
    vramMB: 580,
    contextTokens: 4096,
    needsShaderF16: false,
  },
  {
    id: 'Llama-3.2-1B-Instruct-q4f16_1-MLC',
    name: 'Llama 3.2 1B',
    vramMB: 879,
    contextTokens: 4096,
    needsShaderF16: true,
  },
  {
    id: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
    name: 'Qwen2.5 0.5B',
    vramMB: 945,
    contextTokens: 4096,
    needsShaderF16: true,
  },
  {
    id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
    name: 'Qwen2.5 0.5B',
    vramMB: 1060,
    contextTokens: 4096,
    needsShaderF16: false,
  },
  {
    id: 'Llama-3.2-1B-Instruct-q4f32_1-MLC',
    name: 'Llama 3.2 1B',
    vramMB: 1129,
    contextTokens: 4096,
    needsShaderF16: false,
  },
  { id: 'Qwen3-0.6B-q4f16_1-MLC', name: 'Qwen3 0.6B', vramMB: 1403, contextTokens: 4096, needsShaderF16: true },
  {
    id: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC',
    name: 'Qwen2.5 1.5B',
    vramMB: 1630,
    contextTokens: 4096,
    needsShaderF16: true,
  },
  {
    id: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC',
    name: 'Qwen2.5 1.5B',
    vramMB: 1889,
    contextTokens: 4096,
    needsShaderF16: false,
  },
  {
    id: 'Llama-3.2-3B-Instruct-q4f16_1-MLC',
    name: 'Llama 3.2 3B',
    vramMB: 2264,
    contextTokens: 4096,
    needsShaderF16: true,
  },
  {
    id: 'Qwen2.5-3B-Instruct-q4f32_1-MLC',
    name: 'Qwen2.5 3B',
    vramMB: 2894,
    contextTokens: 4096,
    needsShaderF16: false,
  },
  {
    id: 'Phi-3.5-mini-instruct-q4f16_1-MLC',
    name: 'Phi-3.5 mini',
    vramMB: 3672,
    contextTokens: 4096,
    needsShaderF16: true,
  },
  {
    id: 'Phi-3.5-vision-instruct-q4f16_1-MLC',
    name: 'Phi-3.5 vision (sees images)',
    vramMB: 4522,
    contextTokens: 4096,
    needsShaderF16: true,
    seesImages: true,
  },
  {
    id: 'Llama-3.1-8B-Instruct-q4f16_1-MLC',
    name: 'Llama 3.1 8B',
    vramMB: 5001,
    contextTokens: 4096,
    needsShaderF16: true,
  },
] as const satisfies readonly WebLlmModel[];

export type WebLlmModel = {
  id: string;
  name: string;
  vramMB: number;
  contextTokens: number;
  needsShaderF16: boolean;
  /** A vision model (WebLLM's ModelType.VLM): images tools give are shown to it. */
  seesImages?: boolean;
};

/** Whether a WebLLM model of Anima's list sees images (a vision model); a custom model is taken not to. */
export function webLlmModelSeesImages(modelId: string): boolean {
  return WEBLLM_MODELS.some((model) => model.id === modelId && 'seesImages' in model && model.seesImages);
}

/** A model as the WebLLM host loads it: an id of the prebuilt list, or a custom model with its addresses. */
export type WebLlmModelSpec = {
  id: string;
  custom?: Pick<WebLlmModelRecord, 'modelUrl' | 'modelLibUrl' | 'vramMB' | 'contextTokens' | 'needsShaderF16'>;
};

export const specOfRecord = (record: WebLlmModelRecord): WebLlmModelSpec => ({
  id: record.id,
  custom: {
    modelUrl: record.modelUrl,
    modelLibUrl: record.modelLibUrl,
    vramMB: record.vramMB,
    contextTokens: record.contextTokens,
    needsShaderF16: record.needsShaderF16,
  },
});

/** Credentials in a custom model's addresses: never in a message, whatever WebLLM's errors say. */
export const webLlmSpecSecrets = (model: WebLlmModelSpec): Secret[] =>
  model.custom
    ? [
        ...secretsOfUrl(model.custom.modelUrl, "the weights' address"),
        ...secretsOfUrl(model.custom.modelLibUrl, "the model library's address"),
      ]
    : [];

/** A model of the prebuilt list, as the WebLLM host loads it; undefined for an id not in the list. */
export function prebuiltSpecOf(modelId: string): WebLlmModelSpec | undefined {
  return WEBLLM_MODELS.some((model) => model.id === modelId) ? { id: modelId } : undefined;
}

/** What the WebLLM host needs to fetch and load a model: a prebuilt id, or a custom model's record; undefined for an id that is neither. */
export async function webLlmSpecOf(db: AnimaDatabase, modelId: string): Promise<WebLlmModelSpec | undefined> {
  const prebuilt = prebuiltSpecOf(modelId);
  if (prebuilt) return prebuilt;
  const record = await db.models.get(modelId);
  return record?.engine === 'webllm' ? specOfRecord(record) : undefined;
}

/** Says that an id names no WebLLM model here. */
export const unknownWebLlmModel = (modelId: string) =>
  `there is no WebLLM model ${modelId} on this device: choose one of the list, or add it on the Models screen`;

/**
 * The model's record in WebLLM's app config (the shape of WebLLM's ModelRecord), for a custom
 * model. Its context window is the one given; a model built for a sliding window gets none
 * (WebLLM refuses both at once), so it runs with the window given, as every other model does.
 */
export function mlcModelRecordOf(id: string, custom: NonNullable<WebLlmModelSpec['custom']>) {
  return {
    model: custom.modelUrl,
    model_id: id,
    model_lib: custom.modelLibUrl,
    vram_required_MB: custom.vramMB,
    overrides: { context_window_size: custom.contextTokens, sliding_window_size: -1 },
    ...(custom.needsShaderF16 ? { required_features: ['shader-f16'] } : {}),
  };
}

/**
 * The address every file of a custom model's weights starts with, as WebLLM fetches (and caches)
 * them: a Hugging Face style folder gets WebLLM's "resolve/main/" unless it names a revision.
 */
export function modelFilesPrefix(modelUrl: string): string {
  const folder = modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`;
  return new URL(/.+\/resolve\/.+\//.test(folder) ? folder : `${folder}resolve/main/`).href;
}

/**
 * Why a custom model's weights address cannot be taken, or undefined: another model's files would
 * be its files too (one folder inside the other), or it lies inside a folder named like a prebuilt
 * model (whose deletion takes every file under such a folder). Either way deleting one would
 * delete the other's download.
 */
export function sharedWeightsProblem(
  modelUrl: string,
  others: readonly Pick<WebLlmModelRecord, 'id' | 'modelUrl'>[],
): string | undefined {
  const prefix = modelFilesPrefix(modelUrl);
  const path = new URL(prefix).pathname;
  const prebuilt = WEBLLM_MODELS.find((model) => path.includes(`/${model.id}/`));
  if (prebuilt) return `this is where WebLLM's own ${prebuilt.id} is kept: that model is already in the list`;
  const other = others.find((record) => {
    const otherPrefix = modelFilesPrefix(record.modelUrl);
    return otherPrefix.startsWith(prefix) || prefix.startsWith(otherPrefix);
  });
  return other ? `the added model ${other.id} is kept there: two models cannot share their weights' folder` : undefined;
}

/** What the GPU offers WebGPU, as the worker found it by requesting an adapter. */
export const gpuReportSchema = z.discriminatedUnion('available', [
  z.object({ available: z.literal(true), adapter: z.string(), shaderF16: z.boolean(), maxBufferMB: z.number() }),
  z.object({ available: z.literal(false), reason: z.string() }),
]);
export type GpuReport = z.infer<typeof gpuReportSchema>;

/** The little of WebGPU's adapter the check reads (the core's libraries do not describe WebGPU). */
type GpuAdapter = {
  features: { has(name: string): boolean };
  limits: { maxBufferSize: number };
  info?: { vendor?: string; architecture?: string; description?: string };
};
/** `navigator.gpu`, as the check uses it. */
export type WebGpu = {
  requestAdapter(options?: { powerPreference?: 'high-performance' | 'low-power' }): Promise<GpuAdapter | null>;
};

/**
 * What the GPU offers WebGPU, found by requesting an adapter (the presence of navigator.gpu proves
 * nothing) as WebLLM requests it: high-performance, so on a laptop with two GPUs the report (and
 * its shader-f16) is of the GPU WebLLM will use.
 */
export async function gpuReportOf(gpu: WebGpu | undefined): Promise<GpuReport> {
  if (!gpu)
    return {
      available: false,
      reason:
        'this browser has no WebGPU (try a recent Chrome or Edge), so models run on the CPU engine or through an OpenAI-compatible endpoint',
    };
  let adapter: GpuAdapter | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (error) {
    return {
      available: false,
      reason: `WebGPU refused an adapter: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (!adapter)
    return {
      available: false,
      reason:
        'WebGPU found no usable GPU (it may be turned off, or this device has none), so models run on the CPU engine or through an OpenAI-compatible endpoint',
    };
  const info = adapter.info ?? {};
  const name = [info.vendor, info.architecture, info.description]
    .filter((part) => part && part.trim() !== '')
    .join(' ');
  return {
    available: true,
    adapter: name || 'a GPU that does not say its name',
    shaderF16: adapter.features.has('shader-f16'),
    maxBufferMB: Math.round(adapter.limits.maxBufferSize / 2 ** 20),
  };
}

/** Models a user can run on this GPU (of the prebuilt list, or those given), and the smallest few of the prebuilt list recommended: f16 where the GPU has shader-f16, f32 where not. */
export function modelsFor<Model extends WebLlmModel>(
  gpu: GpuReport,
  models: readonly Model[] = WEBLLM_MODELS as readonly WebLlmModel[] as readonly Model[],
): { runnable: readonly Model[]; recommended: readonly string[] } {
  if (!gpu.available) return { runnable: [], recommended: [] };
  const prebuilt = new Set<string>(WEBLLM_MODELS.map((model) => model.id));
  const runnable = models.filter((model) => gpu.shaderF16 || !model.needsShaderF16);
  // With shader-f16, an f16 model needs less memory than its f32 twin and is as good: offer that.
  const preferred = runnable.filter((model) => model.needsShaderF16 === gpu.shaderF16);
  return {
    runnable,
    recommended: preferred.filter((model) => prebuilt.has(model.id) && model.vramMB <= 1500).map((model) => model.id),
  };
}
