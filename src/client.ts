import * as Comlink from 'comlink';
import { AGENT_METHODS, type AgentApi, type AgentMethod, checkProgress, checkResult } from '#core/api.ts';

/**
 * The UI's typed client of the agent worker. Results and progress reports are checked against
 * the shared contract; progress callbacks travel as Comlink proxies.
 */
export function createAgentClient(worker: Worker = startAgentWorker()): AgentApi {
  const remote = Comlink.wrap<Record<AgentMethod, (args: unknown, onProgress?: unknown) => Promise<unknown>>>(worker);
  const client: Partial<Record<AgentMethod, unknown>> = {};
  for (const method of AGENT_METHODS) {
    client[method] = async (args: unknown, onProgress?: (progress: unknown) => void) => {
      const progress = onProgress
        ? Comlink.proxy((report: unknown) => onProgress(checkProgress(method, report)))
        : undefined;
      return checkResult(method, await remote[method](args, progress));
    };
  }
  return client as AgentApi;
}

/** Starts the agent worker as an ES module worker (needed for its lazily loaded chunks). */
export function startAgentWorker(): Worker {
  return new Worker(new URL('../workers/agent.worker.ts', import.meta.url), { type: 'module', name: 'anima-agent' });
}
