// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the package ships no types: this brings ours into every program that compiles this file
/// <reference path="./sparql-http-client.d.ts" />
import { z } from 'zod';
import { redactSecrets } from '#core/secrets.ts';
import { decodeUtf8Text, readCapped } from '#core/text-bytes.ts';
import { endpointSecrets, keyHeadersOf, type ReachableEndpoint } from '#core/records/sparql-endpoint.ts';

/** A term of a SPARQL JSON result (Virtuoso still says `typed-literal`, as the 2008 note did). */
const resultTermSchema = z.object({
  type: z.enum(['uri', 'literal', 'typed-literal', 'bnode']),
  value: z.string(),
  'xml:lang': z.string().optional(),
  datatype: z.string().optional(),
});
export type ResultTerm = z.infer<typeof resultTermSchema>;

const selectResultsSchema = z.object({
  head: z.object({ vars: z.array(z.string()) }),
  results: z.object({ bindings: z.array(z.unknown()) }),
});

/**
 * A row's schema for the answer's variables: an object schema of known keys is compiled by zod,
 * and checks ten thousand rows in a third of the time a record schema takes (a pull's hot path).
 * A binding of a name the head does not declare is dropped, as the results format says.
 */
const rowSchemas = new Map<string, z.ZodType<Record<string, ResultTerm>>>();
function rowsSchemaFor(variables: readonly string[]): z.ZodType<Record<string, ResultTerm>[]> {
  const key = variables.join(' ');
  let row = rowSchemas.get(key);
  if (!row) {
    row = z
      .object(Object.fromEntries(variables.map((name) => [name, resultTermSchema.optional()])))
      .transform((bound) => bound as Record<string, ResultTerm>);
    if (rowSchemas.size >= 64) rowSchemas.clear();
    rowSchemas.set(key, row);
  }
  return z.array(row);
}
const askResultSchema = z.object({ boolean: z.boolean() });

/** Why a query failed, in words, and its kind (what the user may do about it differs). */
export type SparqlFailure = {
  ok: false;
  kind: 'offline' | 'refused' | 'timeout' | 'malformed' | 'too-large' | 'cancelled';
  reason: string;
  ms: number;
};
export type SelectAnswer = {
  ok: true;
  variables: string[];
  rows: Record<string, ResultTerm>[];
  isTruncated: boolean;
  ms: number;
};
export type AskAnswer = { ok: true; value: boolean; ms: number };
export type GraphAnswer = { ok: true; text: string; mediaType: string; ms: number };

/** Queries longer than this go as a POST form (servers and proxies cut long URLs). */
const MAX_GET_QUERY_CHARS = 1500;

/** What one answer may weigh: room for the row limit's rows, at most 64 MB. */
const maxBytesFor = (endpoint: ReachableEndpoint) => Math.min(64 * 1024 * 1024, 64 * 1024 + endpoint.rowLimit * 4096);

type SimpleClientModule = typeof import('sparql-http-client/SimpleClient.js');
let clientModule: Promise<SimpleClientModule> | undefined;
/** The SPARQL Protocol client, loaded the first time an endpoint is used (it is not on a first visit's path). */
const loadClient = () => (clientModule ??= import('sparql-http-client/SimpleClient.js'));

type Request = { endpoint: ReachableEndpoint; query: string; signal?: AbortSignal; accept: string };

/**
 * Sends one query by the SPARQL 1.1 Protocol (GET for a short query, a POST form for a long one)
 * and reads the answer within the endpoint's timeout and a size cap. Every failure is a reason
 * in words with the endpoint's key redacted; nothing throws but a cancellation by `signal`.
 */
async function send({
  endpoint,
  query,
  signal,
  accept,
}: Request): Promise<{ ok: true; bytes: Uint8Array; mediaType: string; ms: number } | SparqlFailure> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const fail = (kind: SparqlFailure['kind'], reason: string): SparqlFailure => ({
    ok: false,
    kind,
    reason: redactSecrets(reason, endpointSecrets(endpoint)),
    ms: ms(),
  });
  const deadline = AbortSignal.timeout(endpoint.timeoutSeconds * 1000);
  const both = signal ? AbortSignal.any([signal, deadline]) : deadline;
  const where = `the endpoint ${endpoint.name}`;
  const { default: SimpleClient } = await loadClient();
  const client = new SimpleClient({
    endpointUrl: endpoint.url,
    headers: { accept, ...keyHeadersOf(endpoint) },
    // The browser's fetch as it is: no cookies sent (an endpoint gets only the key the user gave), bounded in time.
    fetch: (url: string | URL, init: RequestInit) => fetch(url, { ...init, signal: both, credentials: 'omit' }),
  });
  const aborted = () =>
    signal?.aborted && (signal.reason as { name?: string } | undefined)?.name !== 'TimeoutError'
      ? fail('cancelled', `the query to ${where} was cancelled`)
      : fail('timeout', `${where} did not answer within ${endpoint.timeoutSeconds} s (its timeout)`);
  let response: Response;
  try {
    response = query.length > MAX_GET_QUERY_CHARS ? await client.postUrlencoded(query) : await client.get(query);
  } catch (error) {
    if (both.aborted) return aborted();
    const online = (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine ?? true;
    if (!online) return fail('offline', `this device is offline, so ${where} cannot be reached`);
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === 'ECONNREFUSED') return fail('offline', `nothing answers at ${endpoint.url} (connection refused)`);
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      return fail('offline', `the host of ${endpoint.url} is not found (offline, or a typo in the address)`);
    // A browser says no more than "Failed to fetch" for both: an unreachable server, and an answer it will not let this page read.
    return fail(
      'refused',
      `${where} could not be reached at ${endpoint.url}: it did not answer, or it answered without allowing this page to read it (no CORS header; the endpoint's operator can allow it)${code ? ` (${code})` : ''}`,
    );
  }
  if (new URL(response.url || endpoint.url).origin !== new URL(endpoint.url).origin) {
    await response.body?.cancel();
    return fail(
      'refused',
      `${where} redirected to ${new URL(response.url).origin}, another server than the one you added (nothing from there was read)`,
    );
  }
  if (!response.ok) {
    const detail =
      response.status === 401 || response.status === 403
        ? `refused the query (HTTP ${response.status}): it wants a key${endpoint.key ? ', and the one given was not accepted' : endpoint.keyHeader ? `, and none was given (it goes in the ${endpoint.keyHeader} header)` : ' (add one with its header)'}`
        : response.status === 429
          ? `refused the query (HTTP 429): too many requests; wait${response.headers.get('retry-after') ? ` ${response.headers.get('retry-after')} s` : ''} before asking again`
          : `answered HTTP ${response.status}${await errorText(response)}`;
    return fail('refused', `${where} ${detail}`);
  }
  const maxBytes = maxBytesFor(endpoint);
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readCapped(response, maxBytes);
  } catch {
    if (both.aborted) return aborted();
    return fail('refused', `${where} broke off its answer`);
  }
  if (bytes === undefined)
    return fail(
      'too-large',
      `the answer of ${where} is over ${Math.round(maxBytes / 1024)} KB, more than its row limit of ${endpoint.rowLimit} allows`,
    );
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return { ok: true, bytes, mediaType, ms: ms() };
}

/** A short piece of an error answer's text, for the reason (servers explain a bad query there). */
async function errorText(response: Response): Promise<string> {
  try {
    const text = (await response.text()).replace(/\s+/g, ' ').trim();
    return text === '' ? '' : `: ${text.slice(0, 200)}${text.length > 200 ? '…' : ''}`;
  } catch {
    return '';
  }
}

/** The answer as JSON, or why it is not SPARQL JSON results. */
function jsonOf(
  bytes: Uint8Array,
  mediaType: string,
  endpoint: ReachableEndpoint,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  const where = `the endpoint ${endpoint.name}`;
  const text = decodeUtf8Text(bytes);
  if (!text.ok) return { ok: false, reason: `${where} answered with text that is not UTF-8` };
  try {
    return { ok: true, value: JSON.parse(text.value) };
  } catch {
    return {
      ok: false,
      reason: `${where} answered ${mediaType || 'without a content type'}, not SPARQL JSON results (the address may not be a SPARQL endpoint)`,
    };
  }
}

/** Runs a SELECT; more rows than the endpoint's row limit are cut (and said so). */
export async function sparqlSelect(
  endpoint: ReachableEndpoint,
  query: string,
  signal?: AbortSignal,
): Promise<SelectAnswer | SparqlFailure> {
  const sent = await send({ endpoint, query, signal, accept: 'application/sparql-results+json' });
  if (!sent.ok) return sent;
  const json = jsonOf(sent.bytes, sent.mediaType, endpoint);
  if (!json.ok) return { ok: false, kind: 'malformed', reason: json.reason, ms: sent.ms };
  const notResults = (issue: z.core.$ZodIssue, under: PropertyKey[] = []) => ({
    ok: false as const,
    kind: 'malformed' as const,
    reason: `the endpoint ${endpoint.name} answered JSON that is not SPARQL results (${[...under, ...issue.path].join('.') || 'the document'}: ${issue.message})`,
    ms: sent.ms,
  });
  const parsed = selectResultsSchema.safeParse(json.value);
  if (!parsed.success) return notResults(parsed.error.issues[0]!);
  const variables = parsed.data.head.vars;
  const rows = rowsSchemaFor(variables).safeParse(parsed.data.results.bindings);
  if (!rows.success) return notResults(rows.error.issues[0]!, ['results', 'bindings']);
  const bindings = rows.data;
  return {
    ok: true,
    variables,
    rows: bindings.slice(0, endpoint.rowLimit),
    isTruncated: bindings.length > endpoint.rowLimit,
    ms: sent.ms,
  };
}

/** Runs an ASK. */
export async function sparqlAsk(
  endpoint: ReachableEndpoint,
  query: string,
  signal?: AbortSignal,
): Promise<AskAnswer | SparqlFailure> {
  const sent = await send({ endpoint, query, signal, accept: 'application/sparql-results+json' });
  if (!sent.ok) return sent;
  const json = jsonOf(sent.bytes, sent.mediaType, endpoint);
  if (!json.ok) return { ok: false, kind: 'malformed', reason: json.reason, ms: sent.ms };
  const parsed = askResultSchema.safeParse(json.value);
  if (!parsed.success)
    return {
      ok: false,
      kind: 'malformed',
      reason: `the endpoint ${endpoint.name} answered JSON without the boolean an ASK query returns`,
      ms: sent.ms,
    };
  return { ok: true, value: parsed.data.boolean, ms: sent.ms };
}

/** Runs a CONSTRUCT or DESCRIBE: the graph as N-Triples or Turtle text. */
export async function sparqlGraph(
  endpoint: ReachableEndpoint,
  query: string,
  signal?: AbortSignal,
): Promise<GraphAnswer | SparqlFailure> {
  const sent = await send({ endpoint, query, signal, accept: 'application/n-triples, text/turtle;q=0.9' });
  if (!sent.ok) return sent;
  const text = decodeUtf8Text(sent.bytes);
  if (!text.ok)
    return {
      ok: false,
      kind: 'malformed',
      reason: `the endpoint ${endpoint.name} answered with text that is not UTF-8`,
      ms: sent.ms,
    };
  return { ok: true, text: text.value, mediaType: sent.mediaType, ms: sent.ms };
}
