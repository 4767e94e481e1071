import { readFile } from 'node:fs/promises';
import type { AgentApi } from '#core/api.ts';
import { describeProblem } from '#core/result.ts';
import { DEFAULT_ENDPOINT, type SparqlEndpointView } from '#core/records/sparql-endpoint.ts';
import { decodeUtf8Text } from '#core/text-bytes.ts';
import { saveDeviceKeys } from '../keys-file.ts';
import { numberOption } from '../options.ts';
import type { SessionCommand, SessionContext } from '../session.ts';
import { CliError } from '../snapshot-file.ts';

/** The endpoint part of `anima --help`. */
export const ENDPOINT_USAGE = `SPARQL endpoints (kept in the snapshot; a key never is: it stays on this machine):
  anima endpoint add NAME URL --snapshot S [--key-header H [--key K]] [--timeout SECONDS] [--row-limit N]
                 [--trust X] [--language L] [--without-asking]
                 the agent reaches only endpoints added so; trust (at most 0.9) is the confidence
                 of what it returns; --without-asking lets the agent query it without approval;
                 --key K stays in $ANIMA_HOME/keys.json (mode 600), never in a snapshot; --key "" forgets it
  anima endpoint list --snapshot S [--json]
  anima endpoint remove NAME --snapshot S
  anima endpoint check NAME --snapshot S [--key K]   one ASK {} and the time it took
                 (a kept key is used; --key K serves one call)
  anima kg pull --endpoint NAME (--around IRI [--depth N] | --query FILE) --snapshot S [--dry-run] [--key K]
                 bring in the triples around IRI (depth 1 to 5), or those a CONSTRUCT or a SELECT of
                 ?s ?p ?o gives, all or nothing; --dry-run counts them and writes nothing
  run and resume take --endpoint NAME (repeatable; --key K with one): the run asks only these,
  without asking for approval each time.
`;

const usageError = (message: string) => new CliError(`${message}\n\n${ENDPOINT_USAGE}`, 2);

/** `anima endpoint ...` and `anima kg pull`: the session's SPARQL endpoints, and pulling from them by hand. */
export const ENDPOINT_COMMANDS: Record<string, SessionCommand> = {
  // Adding an endpoint may start a session (its graph empty until the agent or a pull fills it).
  'endpoint add': { run: addEndpoint, createsSnapshot: true },
  'endpoint list': { run: listEndpoints },
  'endpoint remove': { run: removeEndpoint },
  'endpoint check': { run: checkEndpoint },
  'kg pull': { run: pull },
};

/** A key given with --key, for the command's one endpoint. */
const keyOf = ({ values }: SessionContext) => (values.key === undefined ? {} : { key: values.key });

async function addEndpoint({
  operands,
  values,
  service,
  sessionId,
  output,
  save,
  db,
}: SessionContext): Promise<number> {
  const [endpointName, url] = operands;
  if (!endpointName || !url)
    throw usageError(
      'endpoint add: give its NAME and URL, e.g. anima endpoint add wikidata https://query.wikidata.org/sparql --snapshot S',
    );
  const endpoint = {
    name: endpointName,
    url,
    ...(values['key-header'] !== undefined ? { keyHeader: values['key-header'] } : {}),
    timeoutSeconds: numberOption(values.timeout, '--timeout', {
      min: 1,
      max: 120,
      fallback: DEFAULT_ENDPOINT.timeoutSeconds,
      isInteger: true,
    }),
    rowLimit: numberOption(values['row-limit'], '--row-limit', {
      min: 1,
      max: 100_000,
      fallback: DEFAULT_ENDPOINT.rowLimit,
      isInteger: true,
    }),
    trust: numberOption(values.trust, '--trust', { min: 0.05, max: 0.9, fallback: DEFAULT_ENDPOINT.trust }),
    language: values.language ?? DEFAULT_ENDPOINT.language,
    mayCallWithoutAsking: values['without-asking'] ?? false,
  };
  const added = await service.endpointSet({
    sessionId,
    endpoint,
    ...(values.key !== undefined ? { key: values.key } : {}),
  });
  if (!added.ok)
    throw new CliError(
      [`endpoint add: nothing changed:`, ...added.problems.map((problem) => `  ${describeProblem(problem)}`)].join(
        '\n',
      ),
    );
  await save();
  await saveDeviceKeys(db);
  output.out(`added ${endpointLine(added.endpoint)}\n`);
  return 0;
}

async function listEndpoints({ values, service, sessionId, output }: SessionContext): Promise<number> {
  const { endpoints } = await service.endpointList({ sessionId });
  if (values.json) output.out(`${JSON.stringify(endpoints)}\n`);
  else if (endpoints.length === 0) output.error('anima: no endpoint is added (anima endpoint add NAME URL)\n');
  else for (const endpoint of endpoints) output.out(`${endpointLine(endpoint)}\n`);
  return 0;
}

async function removeEndpoint({ operands, service, sessionId, output, save, db }: SessionContext): Promise<number> {
  const [endpointName] = operands;
  if (!endpointName) throw usageError('endpoint remove: which NAME?');
  const removed = await service.endpointRemove({ sessionId, name: endpointName });
  if (!removed.ok) throw new CliError(removed.problems.map(describeProblem).join('\n'));
  await save();
  // Its key goes with it.
  await saveDeviceKeys(db);
  output.out(`removed ${endpointName}\n`);
  return 0;
}

async function checkEndpoint(context: SessionContext): Promise<number> {
  const { operands, values, service, sessionId, output } = context;
  const [endpointName] = operands;
  if (!endpointName) throw usageError('endpoint check: which NAME?');
  const checked = await service.endpointCheck({ sessionId, name: endpointName, ...keyOf(context) });
  if (values.json) output.out(`${JSON.stringify(checked)}\n`);
  else if (checked.ok) output.out(`${endpointName}: answered ASK {} in ${checked.ms} ms\n`);
  else output.out(`${endpointName}: ${checked.reason}: ${checked.problems.map(describeProblem).join('; ')}\n`);
  return checked.ok ? 0 : 1;
}

/** `anima kg pull`. */
async function pull(context: SessionContext): Promise<number> {
  const { values, service, sessionId, output, save } = context;
  const [name, ...more] = values.endpoint ?? [];
  if (!name || more.length > 0) throw usageError('kg pull: --endpoint NAME (one) is required');
  if ((values.around === undefined) === (values.query === undefined))
    throw usageError('kg pull: give --around IRI or --query FILE');
  let source: Parameters<AgentApi['kgPull']>[0]['source'];
  if (values.around !== undefined)
    source = {
      kind: 'around',
      iri: values.around,
      depth: numberOption(values.depth, '--depth', { min: 1, max: 5, fallback: 1, isInteger: true }),
    };
  else {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(values.query!);
    } catch (error) {
      throw new CliError(`cannot read ${values.query}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const text = decodeUtf8Text(bytes);
    if (!text.ok) throw new CliError(`${values.query}: ${text.error.map(describeProblem).join('; ')}`);
    source = { kind: 'query', query: text.value };
  }
  const pulled = await service.kgPull(
    { sessionId, operationId: 'cli-pull', name, source, dryRun: values['dry-run'] ?? false, ...keyOf(context) },
    (progress) => {
      if (progress.phase === 'asking')
        output.error(`anima: query ${progress.round}: ${progress.triples} triples so far\n`);
    },
  );
  if (!pulled.ok) throw new CliError(`kg pull: nothing brought in: ${pulled.problems.map(describeProblem).join('; ')}`);
  if (values.json) output.out(`${JSON.stringify(pulled)}\n`);
  else if (pulled.isDryRun)
    output.out(
      `${pulled.triples} triples from ${name} (${pulled.queries} queries, ${pulled.ms} ms); nothing written (--dry-run)\n`,
    );
  else
    output.out(
      `${pulled.triples} triples from ${name}: ${pulled.added} new, ${pulled.updated} raised in confidence (${pulled.queries} queries, ${pulled.ms} ms)\n`,
    );
  if (!pulled.isDryRun) await save();
  return 0;
}

/** An endpoint in one line: name, address and settings, whether a key is stored. */
function endpointLine(endpoint: SparqlEndpointView): string {
  const key = endpoint.keyHeader
    ? `, key in ${endpoint.keyHeader}${endpoint.keyStored ? ' (stored)' : ' (give --key)'}`
    : '';
  return `${endpoint.name}\t${endpoint.url}\ttimeout ${endpoint.timeoutSeconds} s, at most ${endpoint.rowLimit} rows, trust ${endpoint.trust}, labels in ${endpoint.language}${key}, ${endpoint.mayCallWithoutAsking ? 'asked without approval' : 'each query waits for approval'}`;
}
