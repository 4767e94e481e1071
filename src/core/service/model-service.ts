import type { AgentServiceImplementation, ModelView } from '#core/api.ts';
import { displayUrl } from '#core/secrets.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';
import { inferenceSettingsOf } from '#core/llm/inference-settings.ts';
import type { WebLlmHost } from '#core/llm/webllm-host.ts';
import { NO_WEBLLM_HERE } from '#core/llm/webllm-host.ts';
import {
  type GpuReport,
  modelsFor,
  sharedWeightsProblem,
  specOfRecord,
  unknownWebLlmModel,
  WEBLLM_MODELS,
  type WebLlmModel,
  webLlmSpecOf,
} from '#core/llm/webllm-models.ts';
import { customWebLlmModelSchema, type WebLlmModelRecord } from '#core/records/webllm-model.ts';

const NO_WEBLLM: GpuReport = { available: false, reason: NO_WEBLLM_HERE };

/** A WebLLM model of the prebuilt list, or a custom one with its record. */
type ListedModel = WebLlmModel & { record?: WebLlmModelRecord };

async function customModels(db: AnimaDatabase): Promise<WebLlmModelRecord[]> {
  return (await db.models.toArray())
    .filter((record): record is WebLlmModelRecord => record.engine === 'webllm')
    .sort((left, right) => left.addedAt - right.addedAt);
}

/** The model manager's slice of the AgentService: the GPU, the WebLLM models (prebuilt and added) with their cached state (full or partial), download, delete, add and forget. */
export function modelService(
  context: ServiceContext,
): Pick<AgentServiceImplementation, 'modelList' | 'modelDownload' | 'modelDelete' | 'modelAdd' | 'modelForget'> {
  const { db, now, operations, canWrite, exclusively } = context;
  const host = () => context.dependencies.providerReach?.webLlm;

  async function viewsOf(
    webLlm: WebLlmHost | undefined,
    gpu: GpuReport,
    listed: readonly ListedModel[],
  ): Promise<ModelView[]> {
    const { runnable, recommended } = modelsFor(gpu, listed);
    return Promise.all(
      listed.map(async ({ record, ...model }) => {
        const spec = record ? specOfRecord(record) : { id: model.id };
        const canRun = runnable.some((candidate) => candidate.id === model.id);
        const cached = gpu.available && webLlm ? await webLlm.isCached(spec) : false;
        return {
          id: model.id,
          name: model.name,
          vramMB: model.vramMB,
          contextTokens: model.contextTokens,
          needsShaderF16: model.needsShaderF16,
          cached,
          partial: gpu.available && webLlm && !cached ? await webLlm.hasStoredFiles(spec) : false,
          recommended: recommended.includes(model.id),
          ...(canRun
            ? {}
            : {
                notRunnableBecause: gpu.available
                  ? 'its f16 weights need shader-f16, which this GPU lacks'
                  : gpu.reason,
              }),
          // Shown without credentials, should an address have any.
          ...(record
            ? { custom: { modelUrl: displayUrl(record.modelUrl), modelLibUrl: displayUrl(record.modelLibUrl) } }
            : {}),
        };
      }),
    );
  }

  return {
    async modelList() {
      const webLlm = host();
      const gpu = webLlm ? await webLlm.gpu() : NO_WEBLLM;
      const custom = (await customModels(db)).map((record) => ({ ...record, record }));
      const settings = await inferenceSettingsOf(context);
      return {
        gpu,
        models: await viewsOf(webLlm, gpu, [...WEBLLM_MODELS, ...custom]),
        ...(settings.webllmModel ? { chosen: settings.webllmModel } : {}),
      };
    },

    async modelDownload({ operationId, modelId }, onProgress) {
      const webLlm = host();
      if (!webLlm) return { ok: false, problems: [{ message: NO_WEBLLM_HERE }] };
      const spec = await webLlmSpecOf(db, modelId);
      if (!spec) return { ok: false, problems: [{ message: unknownWebLlmModel(modelId) }] };
      const gpu = await webLlm.gpu();
      if (!gpu.available) return { ok: false, problems: [{ message: gpu.reason }] };
      const needsShaderF16 =
        spec.custom?.needsShaderF16 ?? WEBLLM_MODELS.find((candidate) => candidate.id === modelId)?.needsShaderF16;
      if (needsShaderF16 && !gpu.shaderF16)
        return {
          ok: false,
          problems: [
            { message: `${modelId} has f16 weights, which need shader-f16; this GPU lacks it, so choose an f32 model` },
          ],
        };
      const controller = new AbortController();
      operations.set(operationId, controller);
      try {
        await webLlm.load(spec, { signal: controller.signal, ...(onProgress ? { onProgress } : {}) });
        return { ok: true, modelId };
      } catch (error) {
        if (controller.signal.aborted)
          return {
            ok: false,
            cancelled: true,
            problems: [
              {
                message: `the download of ${modelId} was cancelled; what was fetched stays cached, and a new download goes on from there`,
              },
            ],
          };
        return { ok: false, problems: [{ message: error instanceof Error ? error.message : String(error) }] };
      } finally {
        operations.delete(operationId);
      }
    },

    async modelDelete({ modelId }) {
      const webLlm = host();
      if (!webLlm) return { ok: false, problems: [{ message: NO_WEBLLM_HERE }] };
      const spec = await webLlmSpecOf(db, modelId);
      if (!spec) return { ok: false, problems: [{ message: unknownWebLlmModel(modelId) }] };
      try {
        await webLlm.remove(spec);
      } catch (error) {
        return {
          ok: false,
          problems: [
            { message: `${modelId} could not be deleted: ${error instanceof Error ? error.message : String(error)}` },
          ],
        };
      }
      return { ok: true, modelId };
    },

    async modelAdd({ model }) {
      const webLlm = host();
      if (!webLlm) return { ok: false, problems: [{ message: NO_WEBLLM_HERE }] };
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      const parsed = customWebLlmModelSchema.safeParse(model);
      if (!parsed.success)
        return {
          ok: false,
          problems: parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
        };
      const { name, ...given } = parsed.data;
      if (WEBLLM_MODELS.some((candidate) => candidate.id === given.id))
        return {
          ok: false,
          problems: [{ path: 'id', message: `${given.id} is one of WebLLM's own models: it is already in the list` }],
        };
      const record: WebLlmModelRecord = { ...given, name: name || given.id, engine: 'webllm', addedAt: now() };
      const refused = await exclusively(() =>
        db.transaction('rw', db.models, async () => {
          if (await db.models.get(record.id))
            return {
              path: 'id',
              message: `a model with the id ${record.id} is already on this device: give another id`,
            };
          const shared = sharedWeightsProblem(record.modelUrl, await customModels(db));
          if (shared) return { path: 'modelUrl', message: shared };
          await db.models.add(record);
          return undefined;
        }),
      );
      if (refused) return { ok: false, problems: [refused] };
      const gpu = await webLlm.gpu();
      const [view] = await viewsOf(webLlm, gpu, [{ ...record, record }]);
      return { ok: true, model: view! };
    },

    async modelForget({ modelId }) {
      const webLlm = host();
      if (!webLlm) return { ok: false, problems: [{ message: NO_WEBLLM_HERE }] };
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      const record = await db.models.get(modelId);
      if (record?.engine !== 'webllm')
        return {
          ok: false,
          problems: [
            { message: `${modelId} is not a WebLLM model added here: only those can be removed from this list` },
          ],
        };
      const others = (await customModels(db)).filter((other) => other.id !== modelId);
      try {
        await webLlm.remove(specOfRecord(record), {
          withLibrary: !others.some((other) => other.modelLibUrl === record.modelLibUrl),
        });
      } catch (error) {
        return {
          ok: false,
          problems: [
            {
              message: `${modelId} could not be removed: its files could not be deleted (${error instanceof Error ? error.message : String(error)})`,
            },
          ],
        };
      }
      await exclusively(() => db.models.delete(modelId));
      return { ok: true, modelId };
    },
  };
}
