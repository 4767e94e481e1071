import { answerDecodingSchemas } from '#core/agent/answer-schemas.ts';
import { type ChatEngine, type EngineRequest, engineLossOf } from '#core/llm/chat-engine.ts';
import { EngineKeeper, type LoadedEngine } from '#core/llm/engine-keeper.ts';
import { withJsonGrammar } from '#core/llm/json-grammar.ts';
import { cancelled, type ModelContext } from '#core/llm/provider.ts';
import type { WebLlmHost } from '#core/llm/webllm-host.ts';
import type { LoadProgress } from '#core/llm/chat-engine.ts';
import { webLlmImageTokens, webLlmTokenCounter } from '#core/llm/webllm-tokens.ts';
import {
  gpuReportOf,
  mlcModelRecordOf,
  modelFilesPrefix,
  type WebGpu,
  WEBLLM_MODELS,
  type WebLlmModelSpec,
  webLlmSpecSecrets,
} from '#core/llm/webllm-models.ts';
import { displayUrl, redactSecrets } from '#core/secrets.ts';
import {
  downloadFailureText,
  downloadStatusText,
  isNetworkFailure,
  isOffline,
  isStorageFull,
  serverAnswers,
  storageFullText,
} from '#core/llm/download-failure.ts';
import { ENGINE_CODE_CACHES, keepEngineCodeForOffline } from './engine-code.ts';
import { webLlmEmbedderLoader } from './webllm-embedder.ts';

type WebLlm = typeof import('./webllm-code.ts');

/** The caches where WebLLM (with its default Cache API backend) keeps a model's weights and configuration, under its address. */
const WEBLLM_MODEL_CACHES = ['webllm/model', 'webllm/config'];
/** Where it keeps the models' WebGPU libraries. */
const WEBLLM_LIBRARY_CACHE = 'webllm/wasm';
type Engine = InstanceType<WebLlm['MLCEngine']>;
type AppConfig = WebLlm['prebuiltAppConfig'];

/** WebLLM's app config for a model: its prebuilt list, with a custom model's record added. */
function appConfigFor(webLlm: WebLlm, model: WebLlmModelSpec): AppConfig | undefined {
  if (!model.custom) return undefined;
  const prebuilt = webLlm.prebuiltAppConfig;
  return {
    ...prebuilt,
    model_list: [
      ...prebuilt.model_list.filter((record) => record.model_id !== model.id),
      mlcModelRecordOf(model.id, model.custom),
    ],
  };
}

/** One key per model and address: a custom model added again from elsewhere is another model. */
const keyOf = (model: WebLlmModelSpec) =>
  model.custom ? `${model.id} ${model.custom.modelUrl} ${model.custom.modelLibUrl}` : model.id;

/**
 * The model's files in WebLLM's caches, read straight from them: WebLLM's own checks first fetch
 * the model's index, which fails offline and after a broken download. A prebuilt model's files are
 * under its id; a custom one's under its address.
 */
async function* storedFilesOf(model: WebLlmModelSpec): AsyncGenerator<{ cache: Cache; request: Request }> {
  const prefix = model.custom ? modelFilesPrefix(model.custom.modelUrl) : undefined;
  const isModelFile = (url: string) =>
    prefix ? url.startsWith(prefix) : new URL(url).pathname.includes(`/${model.id}/`);
  for (const name of WEBLLM_MODEL_CACHES) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) if (isModelFile(request.url)) yield { cache, request };
  }
}

/**
 * WebLLM in the agent worker: its code (6 MB) is imported only when a model is listed, loaded or
 * deleted on a GPU that WebGPU can use, and one model is loaded at a time, kept by an EngineKeeper
 * (loads, removals and requests take turns; a kept engine is checked before it is handed out).
 */
export function browserWebLlmHost(): WebLlmHost {
  let webLlm: Promise<WebLlm> | undefined;
  const importWebLlm = () =>
    (webLlm ??= import('./webllm-code.ts')
      .then((module) => {
        void keepEngineCodeForOffline(ENGINE_CODE_CACHES.webllm, [module.WEBLLM_CODE_URL]);
        return module;
      })
      .catch((error: unknown) => {
        webLlm = undefined;
        throw new Error(
          `WebLLM's code could not be loaded (${error instanceof Error ? error.message : String(error)}); open Anima online once to fetch it`,
        );
      }));
  const keeper = new EngineKeeper<WebLlmModelSpec>(
    { keyOf, load: async (model, options) => loadEngine(await importWebLlm(), model, options) },
    answerDecodingSchemas(),
  );

  return {
    gpu: () => gpuReportOf((navigator as Navigator & { gpu?: WebGpu }).gpu),

    async isCached(model) {
      const webLlm = await importWebLlm();
      return webLlm.hasModelInCache(model.id, appConfigFor(webLlm, model));
    },

    async hasStoredFiles(model) {
      return !(await storedFilesOf(model).next()).done;
    },

    load: (model, options) => keeper.load(model, options),

    loadEmbedder: webLlmEmbedderLoader(importWebLlm),

    async remove(model, options: { withLibrary?: boolean } = {}) {
      await keeper.unloadFor(model, async () => {
        // Not WebLLM's own delete: it fetches the model's index first, which fails after a broken
        // download, the very case a repair is for.
        for await (const { cache, request } of storedFilesOf(model)) await cache.delete(request);
        // The library (a few MB of wasm) stays unless asked for: other models may share it. One
        // that a prebuilt model uses always stays, so that model still loads offline.
        const library = model.custom?.modelLibUrl;
        if (!options.withLibrary || !library) return;
        const webLlm = await importWebLlm().catch(() => undefined);
        if (!webLlm || webLlm.prebuiltAppConfig.model_list.some((record) => record.model_lib === library)) return;
        await (await caches.open(WEBLLM_LIBRARY_CACHE)).delete(library);
      });
    },
  };
}

/**
 * A WebLLM engine for the model: downloads what is missing and loads it on the GPU. WebLLM cannot
 * stop a file mid-way: a cancel unloads the engine (which aborts its fetches) and the load ends
 * with the cancel; whatever it finished loading the keeper unloads.
 */
async function loadEngine(
  webLlm: WebLlm,
  model: WebLlmModelSpec,
  options: { onProgress?: (progress: LoadProgress) => void; signal: AbortSignal },
): Promise<LoadedEngine> {
  const { signal, onProgress } = options;
  const modelId = model.id;
  const appConfig = appConfigFor(webLlm, model);
  const engine = new webLlm.MLCEngine({
    ...(appConfig ? { appConfig } : {}),
    initProgressCallback: (report) => onProgress?.({ fraction: report.progress, text: report.text }),
  });
  const stop = () => void engine.unload().catch(() => undefined);
  signal.addEventListener('abort', stop, { once: true });
  try {
    await engine.reload(modelId);
  } catch (error) {
    await engine.unload().catch(() => undefined);
    if (signal.aborted) throw cancelled(signal);
    // A lost device or a full GPU is no download's fault: the servers are asked only about other failures.
    const refused = engineLossOf(error) ? undefined : await refusedFile(webLlm, model).catch(() => undefined);
    // eslint-disable-next-line preserve-caught-error -- the cause may hold the model's URL with its key: only the redacted sentence goes on
    throw new Error(redactSecrets(loadFailure(modelId, error, refused), webLlmSpecSecrets(model)));
  } finally {
    signal.removeEventListener('abort', stop);
  }
  const send = (request: EngineRequest) => engine.chat.completions.create(withJsonGrammar(request) as never);
  const chat: ChatEngine = {
    chat: { completions: { create: send as unknown as ChatEngine['chat']['completions']['create'] } },
    interruptGenerate: () => void engine.interruptGenerate(),
    context: contextOf(engine, model),
  };
  return {
    chat,
    // WebLLM unloads its model when the GPU device is lost; asking for the conversation then fails.
    isAlive: () =>
      engine.getMessage().then(
        () => true,
        () => false,
      ),
    unload: () => engine.unload(),
    // A request of one token per schema: WebLLM builds each grammar then, and keeps it for the
    // questions that follow (its grammar compiler caches what it compiled).
    async prepare(schemas, onPrepared) {
      for (const [index, schema] of schemas.entries()) {
        await send({
          messages: [{ role: 'user', content: 'Answer in JSON.' }],
          max_tokens: 1,
          response_format: { type: 'json_object', schema },
        });
        onPrepared(index + 1);
      }
    },
  };
}

/** The model's context window, a count of a text's tokens with its own tokenizer (see `webLlmTokenCounter`), and of an image's for a vision model. */
function contextOf(engine: Engine, model: WebLlmModelSpec): ModelContext {
  const tokens =
    model.custom?.contextTokens ?? WEBLLM_MODELS.find((candidate) => candidate.id === model.id)?.contextTokens ?? 4096;
  const count = webLlmTokenCounter(engine, model.id);
  const imageTokens = webLlmImageTokens(model.id);
  return { tokens, count: async (text) => count(text), ...(imageTokens ? { imageTokens } : {}) };
}

/**
 * Which of a model's first files its server does not give, asked again after a failed download:
 * WebLLM's cache reports any refused file as "Request failed", which names neither the file nor
 * the answer. Undefined when both answer (the failure was elsewhere) or the network is down.
 */
async function refusedFile(webLlm: WebLlm, model: WebLlmModelSpec): Promise<string | undefined> {
  const record = (appConfigFor(webLlm, model) ?? webLlm.prebuiltAppConfig).model_list.find(
    (candidate) => candidate.model_id === model.id,
  );
  if (!record) return undefined;
  const files = [
    { what: "the weights' configuration", url: `${modelFilesPrefix(record.model)}mlc-chat-config.json` },
    { what: 'the model library', url: record.model_lib },
  ];
  for (const { what, url } of files) {
    let response: Response;
    try {
      response = await fetch(url, { method: 'HEAD' });
    } catch (error) {
      if (isOffline()) return undefined;
      return `${what}: ${downloadFailureText(displayUrl(url), error, await serverAnswers(fetch, url))}`;
    }
    if (!response.ok) return `${what} at ${downloadStatusText(displayUrl(url), response.status, response.statusText)}`;
  }
  return undefined;
}

/** Why a model did not load, in words a user can act on; the browser's bare "Failed to fetch" is never all it says. */
function loadFailure(modelId: string, error: unknown, refused: string | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  if (refused) return `could not download ${modelId}: ${refused}`;
  if (isStorageFull(error)) return storageFullText(modelId);
  if (
    isNetworkFailure(error) ||
    /failed to fetch|networkerror|network error|load failed|ERR_INTERNET_DISCONNECTED|ERR_NAME_NOT_RESOLVED/i.test(
      message,
    )
  )
    return isOffline()
      ? `this device is offline, so ${modelId} cannot be downloaded: connect once to download it; after that it runs offline`
      : `could not download ${modelId}: the network or its server cannot be reached. Try again once you are connected; after that it runs offline`;
  const loss = engineLossOf(error);
  if (loss === 'device-lost' || loss === 'out-of-memory')
    return `${modelId} does not fit in this GPU's memory: choose a smaller model (${message})`;
  return `${modelId} could not be loaded: ${message}`;
}
