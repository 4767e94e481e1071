/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { withContractChecks } from '#core/api.ts';
import { createAgentService } from '#core/service/service.ts';
import { AnimaDatabase, DATABASE_NAME } from '#core/store/database.ts';
import { openChangeFeed } from './change-feed.ts';
import { requestWriteAccess } from './write-access.ts';
import { lazyGgufHost, lazyWebLlmHost } from './lazy-hosts.ts';

/**
 * The agent worker: owns the database writes and the in-memory graph, and exposes the
 * AgentService (with every call checked against the contract) to the UI through Comlink.
 */
const db = new AnimaDatabase(DATABASE_NAME);
const service = createAgentService({
  db,
  now: () => Date.now(),
  newId: () => crypto.randomUUID(),
  writeAccess: requestWriteAccess(),
  changeFeed: openChangeFeed(),
  providerReach: { webLlm: lazyWebLlmHost(), gguf: lazyGgufHost() },
  loadStarterGraph: async () => {
    const response = await fetch(new URL(`${import.meta.env.BASE_URL}starter-graph.ttl`, self.location.origin));
    if (!response.ok) throw new Error(`the starter graph could not be fetched (HTTP ${response.status})`);
    return response.text();
  },
});

Comlink.expose(withContractChecks(service));
