import type { AgentApi } from '#core/api.ts';
import { testService } from '#core/testing/test-database.ts';
import { type PersonasHost, PersonasView } from './personas.svelte.ts';

/**
 * The Personas screen's state over the real agent service and a fresh fake-indexeddb database,
 * for tests: a fake host whose client records the calls it gets, and throws for the methods
 * named in `broken` (as a worker that broke would).
 */
export async function personasForTest(options: { canWrite?: boolean } = {}) {
  const { service } = testService();
  const { session } = await service.open({});
  const calls: { method: string; args: unknown }[] = [];
  const broken = new Set<string>();
  const client = new Proxy(service, {
    get(target, key: string) {
      const method = target[key as keyof AgentApi] as (args: unknown) => Promise<unknown>;
      return async (args: unknown) => {
        calls.push({ method: key, args });
        if (broken.has(key)) throw new Error(`${key} broke`);
        // The worker gets a structured clone: a reactive proxy among the arguments would fail there.
        return method(structuredClone(args));
      };
    },
  });
  const host: PersonasHost = { client, sessionId: session.id, canWrite: options.canWrite ?? true };
  const view = new PersonasView(host);
  /** The methods called since the last look, in order, and forgets them. */
  const calledSince = () => calls.splice(0).map((call) => call.method);
  return { view, service, calls, calledSince, broken, sessionId: session.id };
}
