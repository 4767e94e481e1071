import { type AgentApi, withContractChecks } from '#core/api.ts';
import { endpointSecrets } from '#core/llm/openai-compatible.ts';
import { createAgentService } from '#core/service/service.ts';
import { endpointKeySecrets } from '#core/records/sparql-endpoint.ts';
import { toolServerKeySecrets } from '#core/records/tool-server.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import { openCatalog } from './catalog-file.ts';
import { loadDeviceSettings } from './device-file.ts';
import { loadDeviceKeys } from './keys-file.ts';
import type { CliValues } from './options.ts';
import type { CliOutput } from './output.ts';
import { CliError, openSnapshot, saveSnapshot } from './snapshot-file.ts';

/** What a command over the snapshot's session is given. */
export type SessionContext = {
  /** The command as typed: "run", "kg import". */
  name: string;
  /** The words after the command: a FILE, a GOAL_ID, a query. */
  operands: string[];
  values: CliValues;
  output: CliOutput;
  db: AnimaDatabase;
  /** Absent only for the commands that need no session file (`psyche check`). */
  snapshotPath: string | undefined;
  service: AgentApi;
  sessionId: string;
  /** Writes the session back to the snapshot file, keeping out the secrets this command was given. */
  save: () => Promise<void>;
};

/** One command over the session; `createsSnapshot` when it may start a snapshot file, `needsNoSnapshot` when it works in memory alone. */
export type SessionCommand = {
  run: (context: SessionContext) => Promise<number>;
  createsSnapshot?: boolean | ((values: CliValues) => boolean);
  needsNoSnapshot?: boolean;
  /** Takes --fresh: a new session in place of the one the snapshot holds. */
  startsFresh?: boolean;
};

/** Opens the snapshot's session for one command: restored into memory, wearing the catalog's persona when --catalog is given. */
export async function openCliSession(
  name: string,
  command: SessionCommand,
  operands: string[],
  values: CliValues,
  output: CliOutput,
): Promise<SessionContext> {
  const snapshotPath = command.needsNoSnapshot ? undefined : values.snapshot;
  if (values.fresh && !command.startsFresh)
    throw new CliError(`${name}: --fresh belongs to run (a new session in place of the snapshot's)`, 2);
  // --fresh: the snapshot's session is not read, and the new one is written over it.
  const { db, hadSnapshot } = await openSnapshot(values.fresh ? undefined : snapshotPath);
  const createsSnapshot =
    typeof command.createsSnapshot === 'function' ? command.createsSnapshot(values) : command.createsSnapshot;
  if (snapshotPath && !hadSnapshot && !createsSnapshot)
    throw new CliError(
      `no snapshot at ${snapshotPath} (\`anima kg import FILE --snapshot ${snapshotPath}\` or \`anima run ... --snapshot ${snapshotPath}\` creates it)`,
    );
  // Read only: the session gets back the persona it wears (its guardrails, its prompt, its name); nothing here changes the catalog.
  if (values.catalog) await openCatalog(db, values.catalog, { mustExist: true });
  const service: AgentApi = withContractChecks(
    createAgentService({ db, now: () => Date.now(), newId: () => crypto.randomUUID() }),
  );
  const { session } = await service.open({});
  await loadDeviceSettings(service);
  await loadDeviceKeys(db);
  // The key and base URL given for a run, a SPARQL endpoint's key and a tool server's, are secrets too: no snapshot this command writes may carry them.
  const secrets = [
    ...endpointSecrets({
      baseUrl: values['base-url'] ?? '',
      ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
    }),
    ...endpointKeySecrets('given with --key', values.key),
    // A tool server's key header ('Name: value'): its value.
    ...toolServerKeySecrets('given with --header', values.header?.slice(values.header.indexOf(':') + 1).trim()),
  ];
  const save = () => (snapshotPath ? saveSnapshot(db, session.id, snapshotPath, secrets) : Promise.resolve());
  return { name, operands, values, output, db, snapshotPath, service, sessionId: session.id, save };
}
