import type { AgentServiceImplementation } from '../api.ts';
import type { ServiceContext } from '../service-context.ts';
import { inferenceSettingsOf } from './inference-service.ts';
import { NO_WEBLLM_HERE } from './webllm-host.ts';
import { type GpuReport, modelsFor, WEBLLM_MODELS } from './webllm-models.ts';

const NO_WEBLLM: GpuReport = { available: false, reason: NO_WEBLLM_HERE };

/** The model manager's slice of the AgentService: the GPU, the WebLLM models with their cached state, download and delete. */
export function modelService(context: ServiceContext): Pick<AgentServiceImplementation, 'modelList' | 'modelDownload' | 'modelDelete'> {
  const { operations } = context;
  const host = () => context.dependencies.providerReach?.webLlm;
  return {
    async modelList() {
      const webLlm = host();
      const gpu = webLlm ? await webLlm.gpu() : NO_WEBLLM;
      const { runnable, recommended } = modelsFor(gpu);
      const settings = await inferenceSettingsOf(context);
      const models = await Promise.all(
        WEBLLM_MODELS.map(async (model) => {
          const canRun = runnable.includes(model);
          return {
            ...model,
            cached: gpu.available && webLlm ? await webLlm.isCached(model.id) : false,
            recommended: recommended.includes(model.id),
            ...(canRun ? {} : { notRunnableBecause: gpu.available ? 'its f16 weights need shader-f16, which this GPU lacks' : gpu.reason }),
          };
        }),
      );
      return { gpu, models, ...(settings.webllmModel ? { chosen: settings.webllmModel } : {}) };
    },

    async modelDownload({ operationId, modelId }, onProgress) {
      const webLlm = host();
      if (!webLlm) return { ok: false, problems: [{ message: NO_WEBLLM_HERE }] };
      const gpu = await webLlm.gpu();
      if (!gpu.available) return { ok: false, problems: [{ message: gpu.reason }] };
      const model = WEBLLM_MODELS.find((candidate) => candidate.id === modelId);
      if (model?.needsShaderF16 && !gpu.shaderF16) return { ok: false, problems: [{ message: `${modelId} has f16 weights, which need shader-f16; this GPU lacks it, so choose an f32 model` }] };
      const controller = new AbortController();
      operations.set(operationId, controller);
      try {
        await webLlm.load(modelId, { signal: controller.signal, ...(onProgress ? { onProgress } : {}) });
        return { ok: true, modelId };
      } catch (error) {
        if (controller.signal.aborted) return { ok: false, cancelled: true, problems: [{ message: `the download of ${modelId} was cancelled; what was fetched stays cached, and a new download goes on from there` }] };
        return { ok: false, problems: [{ message: error instanceof Error ? error.message : String(error) }] };
      } finally {
        operations.delete(operationId);
      }
    },

    async modelDelete({ modelId }) {
      const webLlm = host();
      if (!webLlm) return { ok: false, problems: [{ message: NO_WEBLLM_HERE }] };
      try {
        await webLlm.remove(modelId);
      } catch (error) {
        return { ok: false, problems: [{ message: `${modelId} could not be deleted: ${error instanceof Error ? error.message : String(error)}` }] };
      }
      return { ok: true, modelId };
    },
  };
}
