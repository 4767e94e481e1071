import type { AgentServiceImplementation } from '#core/api.ts';
import { forgetStoredSecrets } from '#core/store/forget-secrets.ts';
import { storeGraphDelta } from '#core/store/kg-repository.ts';
import { isQuotaExceeded } from '#core/store/quota.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';
import {
  endpointKeySecrets,
  endpointKeySetting,
  MAX_ENDPOINTS,
  parseEndpoint,
  type SparqlEndpoint,
  type SparqlEndpointView,
} from '#core/records/sparql-endpoint.ts';
import { endpointKeysOf, reachableEndpoints } from '#core/sparql/endpoint-keys.ts';

type EndpointMethods = 'endpointList' | 'endpointSet' | 'endpointRemove' | 'endpointCheck' | 'kgPull';

const viewOf = (endpoint: SparqlEndpoint, keys: Record<string, string>): SparqlEndpointView => ({
  ...endpoint,
  keyStored: keys[endpoint.name] !== undefined,
});

/** The SPARQL endpoints slice of the AgentService: the session's endpoints, their check, and pulling from them by hand. */
export function endpointService(context: ServiceContext): Pick<AgentServiceImplementation, EndpointMethods> {
  const { db, now, canWrite, exclusively, sessionOf, graphOf, applyStored, operations } = context;
  const endpointNamed = async (sessionId: string, name: string, key?: string) =>
    (await reachableEndpoints(db, sessionId, key === undefined ? {} : { [name]: key })).find(
      (endpoint) => endpoint.name === name,
    );
  const notFound = (name: string) => ({
    ok: false as const,
    reason: 'not-found' as const,
    problems: [
      {
        message: `no endpoint is called "${name.slice(0, 100)}" in this session (\`anima endpoint list\`, or the Knowledge screen, lists them)`,
      },
    ],
  });
  return {
    async endpointList({ sessionId }) {
      const session = await sessionOf(sessionId);
      const keys = await endpointKeysOf(db, sessionId);
      return { endpoints: (session.sparqlEndpoints ?? []).map((endpoint) => viewOf(endpoint, keys)) };
    },

    async endpointSet({ sessionId, endpoint: given, key }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      const parsed = parseEndpoint(given);
      if (!parsed.ok) return { ok: false, problems: parsed.error };
      const endpoint = parsed.value;
      const trimmedKey = key?.trim();
      if (trimmedKey && !endpoint.keyHeader)
        return {
          ok: false,
          problems: [{ path: 'keyHeader', message: 'a key needs the header it goes in (such as Authorization)' }],
        };
      return exclusively(async () => {
        const session = await sessionOf(sessionId);
        const others = (session.sparqlEndpoints ?? []).filter((existing) => existing.name !== endpoint.name);
        if (others.length >= MAX_ENDPOINTS)
          return {
            ok: false,
            problems: [{ message: `a session keeps at most ${MAX_ENDPOINTS} endpoints: remove one first` }],
          };
        const keys = await endpointKeysOf(db, sessionId);
        const oldKey = keys[endpoint.name];
        if (trimmedKey !== undefined) {
          if (trimmedKey === '') delete keys[endpoint.name];
          else keys[endpoint.name] = trimmedKey;
        }
        // A key without a header to go in is of no use: it is forgotten.
        if (!endpoint.keyHeader) delete keys[endpoint.name];
        await db.transaction('rw', db.tables, async () => {
          await db.sessions.update(sessionId, { sparqlEndpoints: [...others, endpoint], updatedAt: now() });
          await db.settings.put({ key: endpointKeySetting(sessionId), value: keys });
          if (oldKey !== undefined && keys[endpoint.name] !== oldKey)
            await forgetStoredSecrets(db, endpointKeySecrets(endpoint.name, oldKey));
        });
        return { ok: true, endpoint: viewOf(endpoint, keys) };
      });
    },

    async endpointRemove({ sessionId, name }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      return exclusively(async () => {
        const session = await sessionOf(sessionId);
        const endpoint = session.sparqlEndpoints?.find((existing) => existing.name === name);
        if (!endpoint) return notFound(name);
        const keys = await endpointKeysOf(db, sessionId);
        const oldKey = keys[name];
        delete keys[name];
        await db.transaction('rw', db.tables, async () => {
          await db.sessions.update(sessionId, {
            sparqlEndpoints: session.sparqlEndpoints!.filter((existing) => existing.name !== name),
            updatedAt: now(),
          });
          await db.settings.put({ key: endpointKeySetting(sessionId), value: keys });
          if (oldKey !== undefined) await forgetStoredSecrets(db, endpointKeySecrets(endpoint.name, oldKey));
        });
        return { ok: true };
      });
    },

    async endpointCheck({ sessionId, name, key }) {
      const endpoint = await endpointNamed(sessionId, name, key);
      if (!endpoint) return notFound(name);
      // The protocol's code is loaded on first use, like everything that asks an endpoint.
      const { sparqlAsk } = await import('#core/sparql/protocol.ts');
      const answer = await sparqlAsk(endpoint, 'ASK {}');
      return answer.ok
        ? { ok: true, ms: answer.ms }
        : { ok: false, reason: answer.kind, problems: [{ message: answer.reason }], ms: answer.ms };
    },

    async kgPull({ sessionId, operationId, name, source, dryRun, key }, onProgress) {
      if (!dryRun && !canWrite()) return { ok: false, reason: 'read-only', problems: [{ message: READ_ONLY_MESSAGE }] };
      const endpoint = await endpointNamed(sessionId, name, key);
      if (!endpoint) return notFound(name);
      const controller = new AbortController();
      operations.set(operationId, controller);
      try {
        const started = performance.now();
        const { pullByQuery, pullNeighbourhood, stageStatements } = await import('#core/sparql/bring-in.ts');
        const maxTriples = endpoint.rowLimit;
        const pulled =
          source.kind === 'around'
            ? await pullNeighbourhood(endpoint, {
                around: source.iri,
                depth: source.depth,
                maxTriples,
                signal: controller.signal,
                onProgress: (progress) =>
                  onProgress?.({ phase: 'asking', triples: progress.triples, round: progress.round }),
              })
            : await pullByQuery(endpoint, { query: source.query, maxTriples, signal: controller.signal });
        if (!pulled.ok) return { ok: false, reason: pulled.kind, problems: [{ message: pulled.reason }] };
        if (controller.signal.aborted)
          return {
            ok: false,
            reason: 'cancelled',
            problems: [{ message: 'the pull was cancelled; nothing was brought in' }],
          };
        const queries = pulled.asked.queries.length;
        if (dryRun)
          return {
            ok: true,
            triples: pulled.statements.length,
            added: 0,
            updated: 0,
            queries,
            ms: Math.round(performance.now() - started),
            isDryRun: true,
          };
        // From here on it writes, in one transaction: no longer cancellable.
        operations.delete(operationId);
        onProgress?.({ phase: 'writing', triples: pulled.statements.length, round: queries });
        return await exclusively(async () => {
          const session = await sessionOf(sessionId);
          const graph = await graphOf(sessionId);
          const stagedAt = now();
          const batch = graph.batch({ now: stagedAt });
          stageStatements(batch, pulled.statements, endpoint.trust);
          const delta = batch.delta;
          if (delta.addedTriples.length + delta.updatedTriples.length > 0) {
            const stored = await storeGraphDelta(db, {
              graph,
              sessionId,
              delta,
              now: stagedAt,
              provenance: {
                sessionId,
                kind: 'sparql',
                sources: [endpoint.url],
                confidence: endpoint.trust,
                cycle: session.cycle,
                detail:
                  `pulled from the endpoint ${endpoint.name} (${endpoint.url}) at ${new Date(stagedAt).toISOString()}: ${pulled.statements.length} triples by ${queries} quer${queries === 1 ? 'y' : 'ies'}; ${source.kind === 'around' ? `around <${source.iri}>, depth ${source.depth}` : 'a query of the user'}:\n${pulled.asked.queries.join('\n\n')}`.slice(
                    0,
                    20_000,
                  ),
                createdAt: stagedAt,
              },
            });
            applyStored(graph, stored);
          }
          return {
            ok: true,
            triples: pulled.statements.length,
            added: delta.addedTriples.length,
            updated: delta.updatedTriples.length,
            queries,
            ms: Math.round(performance.now() - started),
            isDryRun: false,
          };
        });
      } catch (error) {
        if (isQuotaExceeded(error))
          return {
            ok: false,
            reason: 'storage-full',
            problems: [{ message: 'storage is full: nothing was brought in (free space on the Storage screen)' }],
          };
        throw error;
      } finally {
        operations.delete(operationId);
      }
    },
  };
}
