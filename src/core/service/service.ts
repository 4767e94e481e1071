import type { AgentMethod, AgentServiceImplementation } from '#core/api.ts';
import { documentService } from './document-service.ts';
import { kgService } from './kg-service.ts';
import { personaContract } from '#core/api/persona-contract.ts';
import { sessionContract } from '#core/api/session-contract.ts';
import { endpointContract } from '#core/sparql/endpoint-contract.ts';
import { toolServerContract } from '#core/api/tool-server-contract.ts';
import { addSession, FIRST_SESSION_NAME } from './add-session.ts';
import { sessionWatchService } from './session-watch-service.ts';
import { type AgentServiceDependencies, createServiceContext, type ServiceContext } from './service-context.ts';
import { ACTIVE_SESSION_KEY } from '#core/store/database.ts';
import { statsOf } from './views.ts';

export type { AgentServiceDependencies, WriteAccess } from './service-context.ts';
export type { ChangeFeed } from '#core/change-feed.ts';

type Implementation<M extends AgentMethod> = Pick<AgentServiceImplementation, M>;

/**
 * A slice whose code is fetched on the first call of one of its methods: each method waits for
 * the slice, then runs. A slice that fails to load (offline before it was cached) is tried again
 * on the next call. The method names are checked against the slice's type here, and against the
 * whole contract where the slices are joined.
 */
function lazySlice<M extends AgentMethod>(
  methods: readonly M[],
  load: () => Promise<Implementation<M>>,
): Implementation<M> {
  let slice: Promise<Implementation<M>> | undefined;
  const loaded = () =>
    (slice ??= load().catch((error: unknown) => {
      slice = undefined;
      throw error;
    }));
  const forwarding: Partial<Record<M, unknown>> = {};
  for (const method of methods) {
    forwarding[method] = async (args: never, onProgress?: never) =>
      ((await loaded())[method] as (args: never, onProgress?: never) => Promise<unknown>)(args, onProgress);
  }
  return forwarding as Implementation<M>;
}

/** Every slice but the home screen's, each a chunk of its own, with the methods it implements. */
function lazySlices(context: ServiceContext) {
  const personas = lazySlice(Object.keys(personaContract) as (keyof typeof personaContract)[], async () =>
    (await import('./persona-service.ts')).personaService(context),
  );
  return {
    ...personas,
    ...lazySlice(Object.keys(sessionContract) as (keyof typeof sessionContract)[], async () =>
      (await import('./session-service.ts')).sessionService(context, personas),
    ),
    ...lazySlice(
      [
        'goalAdd',
        'goalList',
        'goalFindings',
        'goalUpdate',
        'agentRun',
        'cycleList',
        'memoryConsolidate',
        'memoryList',
        'memoryRecall',
      ],
      async () => (await import('./agent-service.ts')).agentService(context),
    ),
    ...lazySlice(['approvalList', 'approvalDecide'], async () =>
      (await import('./approval-service.ts')).approvalService(context),
    ),
    ...lazySlice(['questionList', 'questionAnswer'], async () =>
      (await import('./question-service.ts')).questionService(context),
    ),
    ...lazySlice(['synthesize', 'synthesizeInVoice'], async () =>
      (await import('./write-up-service.ts')).writeUpService(context),
    ),
    ...lazySlice(['artifactList', 'artifactRead'], async () =>
      (await import('./artifact-service.ts')).artifactService(context),
    ),
    ...lazySlice(['planPreview', 'planList'], async () => (await import('./plan-service.ts')).planService(context)),
    ...lazySlice(['questionRead', 'questionAsk', 'questionExamples'], async () =>
      (await import('./reading-service.ts')).readingService(context),
    ),
    ...lazySlice(['reflect', 'reflectionList', 'agentSettingsGet', 'agentSettingsSet'], async () =>
      (await import('./reflection-service.ts')).reflectionService(context),
    ),
    ...lazySlice(
      ['psycheGet', 'psycheHistory', 'psycheCheck', 'psycheImport', 'psycheSave', 'psycheRestore', 'psycheExport'],
      async () => (await import('./psyche-service.ts')).psycheService(context),
    ),
    ...lazySlice(Object.keys(endpointContract) as (keyof typeof endpointContract)[], async () =>
      (await import('./endpoint-service.ts')).endpointService(context),
    ),
    ...lazySlice(Object.keys(toolServerContract) as (keyof typeof toolServerContract)[], async () =>
      (await import('./tool-server-service.ts')).toolServerService(context),
    ),
    ...lazySlice(['webAccessGet', 'webAccessSet'], async () =>
      (await import('./web-access-service.ts')).webAccessService(context),
    ),
    ...lazySlice(['inferenceGet', 'inferenceSet', 'inferenceCheck', 'modelSettingsGet', 'modelSettingsSet'], async () =>
      (await import('./inference-service.ts')).inferenceService(context),
    ),
    ...lazySlice(['jobList'], async () => (await import('./background-jobs.ts')).jobService(context)),
    ...lazySlice(['embedderGet', 'embedderSet', 'embedderCheck'], async () =>
      (await import('./embedder-service.ts')).embedderService(context),
    ),
    ...lazySlice(['modelList', 'modelDownload', 'modelDelete', 'modelAdd', 'modelForget'], async () =>
      (await import('./model-service.ts')).modelService(context),
    ),
    ...lazySlice(['ggufList', 'ggufAdd', 'ggufDelete'], async () =>
      (await import('./gguf-service.ts')).ggufService(context),
    ),
  };
}

/**
 * The one API of the agent: the worker exposes it with Comlink, the CLI calls it directly. It
 * joins the slices of each area (knowledge graph, agent) over one shared context, which owns the
 * in-memory graphs and is the only writer of the database; writes run one at a time.
 *
 * What the home screen needs (opening a session, the graph, documents, the session watch) comes
 * with the service; every other slice (the persona catalog with its card and TOML reading, the
 * sessions' snapshots, the agent's runs) is fetched when first called, keeping a first visit small.
 */
export function createAgentService(dependencies: AgentServiceDependencies): AgentServiceImplementation {
  const context = createServiceContext(dependencies);
  const { db, graphOf, exclusively, canWrite, operations, loadStarterGraphIfPending } = context;
  return {
    ...lazySlices(context),
    async open(_args, onProgress) {
      await dependencies.writeAccess?.ready;
      const session = await exclusively(async () => {
        const activeId = (await db.settings.get(ACTIVE_SESSION_KEY))?.value;
        const active = typeof activeId === 'string' ? await db.sessions.get(activeId) : undefined;
        if (active) return active;
        const first = await db.sessions.orderBy('updatedAt').last();
        if (first) {
          await db.settings.put({ key: ACTIVE_SESSION_KEY, value: first.id });
          return first;
        }
        if (!canWrite()) throw new Error('Anima is setting up in another tab; reload this one in a moment');
        return addSession(context, FIRST_SESSION_NAME, { activate: true });
      });
      const graph = await graphOf(session.id, (progress) => onProgress?.({ phase: 'loading-graph', ...progress }));
      const hasLoadedStarterGraph = canWrite() && (await loadStarterGraphIfPending(session.id, onProgress));
      // Background jobs a reload stopped go on (their code comes only when there are some).
      if (canWrite() && (await db.jobs.where('sessionId').equals(session.id).count()) > 0)
        void import('./background-jobs.ts').then(async (jobs) => {
          if (await jobs.hasUndoneJobs(context, session.id)) void jobs.runBackgroundJobs(context, session.id);
        });
      return {
        session: { id: session.id, name: session.name },
        stats: statsOf(graph),
        hasLoadedStarterGraph,
        canWrite: canWrite(),
      };
    },

    ...kgService(context),
    ...documentService(context),
    ...sessionWatchService(context),

    async cancel({ operationId }) {
      const controller = operations.get(operationId);
      controller?.abort();
      return { isCancelled: controller !== undefined };
    },
  };
}
