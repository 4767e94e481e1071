import type { AgentServiceImplementation } from '#core/api.ts';
import { bindEmbedder, type EmbedderBinding } from '#core/llm/bind-embedder.ts';
import { cosineSimilarity } from '#core/llm/embedder.ts';
import { cachedEmbeddings, type EmbeddingAccess } from '#core/llm/embedding-cache.ts';
import { type InferenceSettings, inferenceSettingsOf } from '#core/llm/inference-settings.ts';
import { isWebLlmEmbeddingModel, unknownWebLlmEmbeddingModel } from '#core/llm/webllm-embeddings.ts';
import { NO_WEBLLM_HERE } from '#core/llm/webllm-host.ts';
import { embedderChoiceSchema } from '#core/records/embedder-choice.ts';
import type { Problem } from '#core/result.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';

/** The embedder slice of the AgentService: the embedder a session binds, and a check of it. */
export function embedderService(
  context: ServiceContext,
): Pick<AgentServiceImplementation, 'embedderGet' | 'embedderSet' | 'embedderCheck'> {
  const { db, exclusively, canWrite, operations, sessionOf } = context;
  return {
    async embedderGet({ sessionId }) {
      const { embedder } = await sessionOf(sessionId);
      return embedder ? { embedder } : {};
    },

    async embedderSet({ sessionId, embedder }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      return exclusively(async () => {
        await sessionOf(sessionId);
        if (embedder === null || embedder === undefined) {
          await db.sessions
            .where('id')
            .equals(sessionId)
            .modify((session) => void delete session.embedder);
          return { ok: true };
        }
        const parsed = embedderChoiceSchema.safeParse(embedder);
        if (!parsed.success)
          return {
            ok: false,
            problems: parsed.error.issues.map((issue): Problem => ({
              path: `embedder.${issue.path.join('.')}`,
              message: issue.message,
            })),
          };
        const choice = parsed.data;
        if (choice.provider === 'webllm') {
          const problem = await webLlmEmbedderProblem(context, choice.model);
          if (problem) return { ok: false, problems: [problem] };
        }
        if (choice.provider === 'gguf') {
          const record = await db.models.get(choice.model);
          if (record?.engine !== 'gguf')
            return {
              ok: false,
              problems: [
                {
                  path: 'embedder.model',
                  message: `there is no GGUF model ${choice.model} on this device: add it on the Models screen first`,
                },
              ],
            };
        }
        await db.sessions.update(sessionId, { embedder: choice });
        return { ok: true, embedder: choice };
      });
    },

    async embedderCheck({ sessionId, operationId }) {
      const controller = new AbortController();
      operations.set(operationId, controller);
      try {
        const bound = await bindSessionEmbedder(context, sessionId, undefined, controller.signal, true);
        if (!bound.embeddings)
          return { ok: false, problems: [{ message: bound.unavailable ?? 'no embedder is bound to this session' }] };
        const { embedder } = bound.embeddings;
        const [cat, kitten] = await embedder.embed(['a cat', 'a kitten'], controller.signal);
        return {
          ok: true,
          check: {
            provider: embedder.name,
            model: embedder.model,
            dimensions: cat!.length,
            similarity: cosineSimilarity(cat!, kitten!),
          },
        };
      } catch (error) {
        if (controller.signal.aborted) return { ok: false, problems: [{ message: 'the check was cancelled' }] };
        return { ok: false, problems: [{ message: error instanceof Error ? error.message : String(error) }] };
      } finally {
        operations.delete(operationId);
      }
    },
  };
}

/** Why one of WebLLM's embedding models cannot be bound here: none of that name, or no WebLLM (Node), or no GPU WebGPU can use. */
async function webLlmEmbedderProblem(context: ServiceContext, model: string): Promise<Problem | undefined> {
  if (!isWebLlmEmbeddingModel(model)) return { path: 'embedder.model', message: unknownWebLlmEmbeddingModel(model) };
  const host = context.dependencies.providerReach?.webLlm;
  if (!host)
    return {
      path: 'embedder.provider',
      message: `${NO_WEBLLM_HERE}, and there is none here: choose an OpenAI-compatible endpoint or a GGUF model to embed`,
    };
  const gpu = await host.gpu();
  return gpu.available ? undefined : { path: 'embedder.provider', message: `WebLLM cannot embed here: ${gpu.reason}` };
}

/** The session's embedder as a run reaches it (with the device's cache of its vectors), none, or why it cannot be had. */
export type SessionEmbedder = { embeddings?: EmbeddingAccess; unavailable?: string };

/** Binds the session's embedder, with the run's inference settings (given, or the device's) for an endpoint's address and key. */
export async function bindSessionEmbedder(
  context: Pick<ServiceContext, 'db' | 'dependencies' | 'now' | 'sessionOf'>,
  sessionId: string,
  given: InferenceSettings | undefined,
  signal: AbortSignal,
  mayDownload = false,
): Promise<SessionEmbedder> {
  const { embedder: choice } = await context.sessionOf(sessionId);
  if (!choice) return {};
  const settings = given ?? (await inferenceSettingsOf(context));
  const binding: EmbedderBinding = await bindEmbedder(choice, settings, context.dependencies.providerReach ?? {}, {
    added: {
      gguf: async (id) => {
        const record = await context.db.models.get(id);
        return record?.engine === 'gguf' ? record : undefined;
      },
    },
    signal,
    ...(mayDownload ? { mayDownload } : {}),
  });
  return binding.embedder
    ? { embeddings: cachedEmbeddings(context.db, binding.embedder, context.now) }
    : { unavailable: binding.unavailable };
}
