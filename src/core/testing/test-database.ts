import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { AnimaDatabase } from '#core/store/database.ts';
import { createAgentService, type AgentServiceDependencies } from '#core/service/service.ts';
import { withContractChecks } from '#core/api.ts';

/** A fresh, empty IndexedDB (fake-indexeddb) for one test. */
export function freshIndexedDb() {
  return { indexedDB: new IDBFactory(), IDBKeyRange };
}

/** A service over a fresh database, with a fixed clock and counting ids, checked against the contract. */
export function testService(
  options: {
    db?: AnimaDatabase;
    loadStarterGraph?: AgentServiceDependencies['loadStarterGraph'];
    writeAccess?: AgentServiceDependencies['writeAccess'];
    providerReach?: AgentServiceDependencies['providerReach'];
    snapshotLimits?: AgentServiceDependencies['snapshotLimits'];
    idPrefix?: string;
  } = {},
) {
  const db = options.db ?? new AnimaDatabase('anima-test', freshIndexedDb());
  let nextId = 1;
  const service = withContractChecks(
    createAgentService({
      db,
      now: () => 1_700_000_000_000,
      newId: () => `${options.idPrefix ?? 'session'}-${nextId++}`,
      loadStarterGraph: options.loadStarterGraph,
      writeAccess: options.writeAccess,
      providerReach: options.providerReach,
      snapshotLimits: options.snapshotLimits,
    }),
  );
  return { db, service };
}
