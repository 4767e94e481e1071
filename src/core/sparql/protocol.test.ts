import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ENDPOINT, type ReachableEndpoint } from '#core/records/sparql-endpoint.ts';
import { sparqlAsk, sparqlSelect } from './protocol.ts';

/** An endpoint that fails on purpose, one way per path, as real ones do. */
let base = '';
let closedUrl = '';
let otherUrl = '';
/** Another server (another origin), which would answer anything. */
const other = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/sparql-results+json' });
  response.end(JSON.stringify({ head: {}, boolean: true }));
});
const seen: { path: string; method: string; authorization?: string; query?: string }[] = [];
const hanging: ServerResponse[] = [];
const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
  const url = new URL(request.url!, 'http://x');
  let body = '';
  for await (const chunk of request) body += chunk;
  const query = url.searchParams.get('query') ?? new URLSearchParams(body).get('query') ?? undefined;
  seen.push({
    path: url.pathname,
    method: request.method!,
    authorization: request.headers.authorization,
    ...(query ? { query } : {}),
  });
  const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/sparql-results+json', ...headers });
    response.end(typeof value === 'string' ? value : JSON.stringify(value));
  };
  switch (url.pathname) {
    case '/ok':
      return json(200, {
        head: { vars: ['x'] },
        results: {
          bindings: [
            { x: { type: 'uri', value: 'http://e.org/a' } },
            { x: { type: 'literal', value: 'b', 'xml:lang': 'en' } },
          ],
        },
      });
    case '/ask':
      return json(200, { head: {}, boolean: true });
    case '/key':
      return request.headers.authorization === 'Bearer s3cret-token-42'
        ? json(200, { head: {}, boolean: true })
        : json(401, `no: your key ${request.headers.authorization ?? 'none'} is wrong`);
    case '/busy':
      return json(429, 'slow down', { 'retry-after': '30' });
    case '/html':
      response.writeHead(200, { 'content-type': 'text/html' });
      return response.end('<html><body>Welcome</body></html>');
    case '/not-results':
      return json(200, { head: { vars: ['x'] }, results: { bindings: [{ x: { kind: 'uri' } }] } });
    case '/big':
      return json(200, {
        head: { vars: ['x'] },
        results: {
          bindings: Array.from({ length: 20_000 }, (_, index) => ({
            x: { type: 'literal', value: `row ${index} ${'x'.repeat(40)}` },
          })),
        },
      });
    case '/many':
      return json(200, {
        head: { vars: ['x'] },
        results: { bindings: Array.from({ length: 5 }, (_, index) => ({ x: { type: 'literal', value: `${index}` } })) },
      });
    case '/elsewhere':
      response.writeHead(302, { location: `${otherUrl}/sparql` });
      return response.end();
    case '/hang':
      hanging.push(response);
      return;
    default:
      return json(404, 'no such endpoint');
  }
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of hanging) response.destroy();
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => other.close(resolve));
});

const endpoint = (path: string, extra: Partial<ReachableEndpoint> = {}): ReachableEndpoint => ({
  ...DEFAULT_ENDPOINT,
  name: 'test',
  url: `${base}${path}`,
  ...extra,
});

describe('the SPARQL protocol client', () => {
  it('reads SELECT rows and an ASK, sending the query by GET', async () => {
    const rows = await sparqlSelect(endpoint('/ok'), 'SELECT ?x WHERE { ?x ?p ?o }');
    expect(rows).toMatchObject({ ok: true, variables: ['x'], isTruncated: false });
    expect(rows.ok && rows.rows.map((row) => row.x!.value)).toEqual(['http://e.org/a', 'b']);
    expect(seen.at(-1)).toMatchObject({ method: 'GET', query: 'SELECT ?x WHERE { ?x ?p ?o }' });
    expect(await sparqlAsk(endpoint('/ask'), 'ASK {}')).toMatchObject({ ok: true, value: true });
  });

  it('sends a long query as a POST form', async () => {
    const long = `SELECT ?x WHERE { ?x ?p ?o } # ${'x'.repeat(3000)}`;
    expect((await sparqlSelect(endpoint('/ok'), long)).ok).toBe(true);
    expect(seen.at(-1)).toMatchObject({ method: 'POST', query: long });
  });

  it('sends the key in its header, and no failure text shows it', async () => {
    const withKey = endpoint('/key', { keyHeader: 'Authorization', key: 'Bearer s3cret-token-42' });
    expect(await sparqlAsk(withKey, 'ASK {}')).toMatchObject({ ok: true });
    expect(seen.at(-1)!.authorization).toBe('Bearer s3cret-token-42');
    const wrong = await sparqlAsk(
      endpoint('/key', { keyHeader: 'Authorization', key: 'Bearer wrong-token-99' }),
      'ASK {}',
    );
    expect(wrong).toMatchObject({ ok: false, kind: 'refused' });
    expect(!wrong.ok && wrong.reason).toMatch(/HTTP 401.*wants a key, and the one given was not accepted/);
    expect(JSON.stringify(wrong)).not.toContain('wrong-token-99');
  });

  it('says a 401 without a key, and a 429 with its wait, in words', async () => {
    const refused = await sparqlAsk(endpoint('/key'), 'ASK {}');
    expect(!refused.ok && refused.reason).toBe(
      'the endpoint test refused the query (HTTP 401): it wants a key (add one with its header)',
    );
    const busy = await sparqlAsk(endpoint('/busy'), 'ASK {}');
    expect(!busy.ok && busy.reason).toBe(
      'the endpoint test refused the query (HTTP 429): too many requests; wait 30 s before asking again',
    );
  });

  it('refuses an answer that is not SPARQL results: HTML, or JSON of another shape', async () => {
    const html = await sparqlSelect(endpoint('/html'), 'SELECT * {}');
    expect(html).toMatchObject({ ok: false, kind: 'malformed' });
    expect(!html.ok && html.reason).toBe(
      'the endpoint test answered text/html, not SPARQL JSON results (the address may not be a SPARQL endpoint)',
    );
    const shape = await sparqlSelect(endpoint('/not-results'), 'SELECT * {}');
    expect(shape).toMatchObject({ ok: false, kind: 'malformed' });
    expect(!shape.ok && shape.reason).toMatch(
      /^the endpoint test answered JSON that is not SPARQL results \(results\.bindings\.0\.x\.type: /,
    );
  });

  it('stops at its timeout, and says so', async () => {
    const started = Date.now();
    const hung = await sparqlAsk(endpoint('/hang', { timeoutSeconds: 1 }), 'ASK {}');
    expect(hung).toMatchObject({
      ok: false,
      kind: 'timeout',
      reason: 'the endpoint test did not answer within 1 s (its timeout)',
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('stops when cancelled, saying it was', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await sparqlAsk(endpoint('/hang', { timeoutSeconds: 30 }), 'ASK {}', controller.signal)).toMatchObject({
      ok: false,
      kind: 'cancelled',
    });
  });

  it('refuses an answer larger than its row limit allows, and cuts extra rows', async () => {
    const big = await sparqlSelect(endpoint('/big', { rowLimit: 10 }), 'SELECT * {}');
    expect(big).toMatchObject({ ok: false, kind: 'too-large' });
    expect(!big.ok && big.reason).toBe(
      'the answer of the endpoint test is over 104 KB, more than its row limit of 10 allows',
    );
    expect(await sparqlSelect(endpoint('/many', { rowLimit: 3 }), 'SELECT * {}')).toMatchObject({
      ok: true,
      isTruncated: true,
      rows: [{}, {}, {}],
    });
  });

  it('says when nothing answers, and when a redirect leads to another server', async () => {
    const offline = await sparqlAsk({ ...endpoint(''), url: `${closedUrl}/sparql` }, 'ASK {}');
    expect(offline).toMatchObject({
      ok: false,
      kind: 'offline',
      reason: `nothing answers at ${closedUrl}/sparql (connection refused)`,
    });
    const moved = await sparqlAsk(endpoint('/elsewhere'), 'ASK {}');
    expect(moved).toMatchObject({
      ok: false,
      kind: 'refused',
      reason: `the endpoint test redirected to ${otherUrl}, another server than the one you added (nothing from there was read)`,
    });
  });
});
