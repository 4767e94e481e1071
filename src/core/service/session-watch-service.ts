import type { AgentServiceImplementation } from '#core/api.ts';
import type { ServiceContext } from './service-context.ts';

/**
 * The session watch slice of the AgentService: pushes to the UI what happens to its session
 * outside its own calls (another tab's writes, this tab taking over), until it is cancelled.
 */
export function sessionWatchService(context: ServiceContext): Pick<AgentServiceImplementation, 'sessionWatch'> {
  const { operations, watches, canWrite, onSessionEvent } = context;
  return {
    async sessionWatch({ operationId }, onEvent) {
      const controller = new AbortController();
      operations.set(operationId, controller);
      watches.add(operationId);
      const stopListening = onSessionEvent((event) => onEvent?.(event));
      if (canWrite()) onEvent?.({ kind: 'write-access' });
      try {
        await new Promise<void>((resolve) =>
          controller.signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        return {};
      } finally {
        stopListening();
        operations.delete(operationId);
        watches.delete(operationId);
      }
    },
  };
}
