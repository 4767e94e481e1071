import { agentService } from './agent-service.ts';
import { approvalService } from './approval-service.ts';
import { writeUpService } from './write-up-service.ts';
import { planService } from './plan-service.ts';
import { readingService } from './reading-service.ts';
import { reflectionService } from './reflection-service.ts';
import { questionService } from './question-service.ts';
import { documentService } from './document-service.ts';
import { webAccessService } from './web-access-service.ts';
import { inferenceService } from './inference-service.ts';
import { modelService } from './model-service.ts';
import { ggufService } from './gguf-service.ts';
import { psycheService } from './psyche-service.ts';
import { personaService } from './persona-service.ts';
import { addSession, FIRST_SESSION_NAME, sessionService } from './session-service.ts';
import { sessionWatchService } from './session-watch-service.ts';
import type { AgentServiceImplementation } from '#core/api.ts';
import { kgService } from './kg-service.ts';
import { type AgentServiceDependencies, createServiceContext } from './service-context.ts';
import { ACTIVE_SESSION_KEY } from '#core/store/database.ts';
import { statsOf } from './views.ts';

export type { AgentServiceDependencies, WriteAccess } from './service-context.ts';
export type { ChangeFeed } from '#core/change-feed.ts';

/**
 * The one API of the agent: the worker exposes it with Comlink, the CLI calls it directly. It
 * joins the slices of each area (knowledge graph, agent) over one shared context, which owns the
 * in-memory graphs and is the only writer of the database; writes run one at a time.
 */
export function createAgentService(dependencies: AgentServiceDependencies): AgentServiceImplementation {
  const context = createServiceContext(dependencies);
  const { db, graphOf, exclusively, canWrite, operations, loadStarterGraphIfPending } = context;
  const personas = personaService(context);
  return {
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
      return { session: { id: session.id, name: session.name }, stats: statsOf(graph), hasLoadedStarterGraph, canWrite: canWrite() };
    },

    ...kgService(context),
    ...agentService(context),
    ...psycheService(context),
    ...approvalService(context),
    ...writeUpService(context),
    ...planService(context),
    ...readingService(context),
    ...reflectionService(context),
    ...questionService(context),
    ...documentService(context),
    ...webAccessService(context),
    ...inferenceService(context),
    ...modelService(context),
    ...ggufService(context),
    ...personas,
    ...sessionService(context, personas),
    ...sessionWatchService(context),

    async cancel({ operationId }) {
      const controller = operations.get(operationId);
      controller?.abort();
      return { isCancelled: controller !== undefined };
    },
  };
}
