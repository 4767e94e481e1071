import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedSecrets } from '#core/llm/stored-secrets.ts';
import { DEFAULT_ENDPOINT, type SparqlEndpoint } from '#core/records/sparql-endpoint.ts';
import { exportSnapshot } from '#core/sessions/snapshot.ts';
import { testService } from '#core/testing/test-database.ts';

/** Endpoints that fail as real ones do, one way per path. */
const KEY = 'Bearer very-secret-key-424242';
const hanging: ServerResponse[] = [];
const server = createServer((request, response) => {
  const path = new URL(request.url!, 'http://x').pathname;
  if (path === '/hang') return void hanging.push(response);
  if (path === '/busy') {
    response.writeHead(429, { 'retry-after': '60' });
    return response.end();
  }
  if (path === '/malformed') {
    response.writeHead(200, { 'content-type': 'application/sparql-results+json' });
    return response.end('{"head": {"vars": ["iri"]}, "results": {"bindings": [');
  }
  // A server that echoes the key it was sent in its error, as some do.
  response.writeHead(500, { 'content-type': 'text/plain' });
  response.end(`internal error handling ${request.headers.authorization ?? 'no key'}`);
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of hanging) response.destroy();
  await new Promise((resolve) => server.close(resolve));
});

async function runAgainst(path: string, settings: Partial<SparqlEndpoint> = {}, key?: string) {
  const { db, service } = testService();
  const { session } = await service.open({});
  const sessionId = session.id;
  const added = await service.endpointSet({
    sessionId,
    endpoint: { ...DEFAULT_ENDPOINT, name: 'remote', url: `${base}${path}`, mayCallWithoutAsking: true, ...settings },
    ...(key ? { key } : {}),
  });
  expect(added.ok).toBe(true);
  await service.goalAdd({
    sessionId,
    description: 'Find canines',
    criteria: '?x is-a canine, at least 3',
    priority: 128,
  });
  const records: { tool: string; act: string }[] = [];
  const started = Date.now();
  await service.agentRun({ sessionId, operationId: 'run', maxCycles: 2 }, (record) =>
    records.push({ tool: record.tool, act: record.act }),
  );
  return { db, service, sessionId, records, ms: Date.now() - started };
}

describe('sparql_query when the endpoint fails', () => {
  it('gives up at the timeout, in words, writes nothing, and the goal goes on with another tool', async () => {
    const { service, sessionId, records, ms } = await runAgainst('/hang', { timeoutSeconds: 1 });
    expect(records[0]).toMatchObject({
      tool: 'sparql_query',
      act: expect.stringContaining('SPARQL at remote: the endpoint remote did not answer within 1 s (its timeout)'),
    });
    expect(ms).toBeLessThan(8_000);
    expect(records[1]!.tool).not.toBe('sparql_query');
    expect((await service.kgStats({ sessionId })).triples).toBe(0);
    const [goal] = (await service.goalList({ sessionId })).goals;
    expect(goal!.status).toBe('active');
  });

  it('says a refusal (429) and an answer that is not SPARQL results in words', async () => {
    const busy = await runAgainst('/busy');
    expect(busy.records[0]!.act).toContain(
      'the endpoint remote refused the query (HTTP 429): too many requests; wait 60 s before asking again',
    );
    const malformed = await runAgainst('/malformed');
    expect(malformed.records[0]!.act).toContain(
      'the endpoint remote answered application/sparql-results+json, not SPARQL JSON results',
    );
    expect((await malformed.service.kgStats({ sessionId: malformed.sessionId })).triples).toBe(0);
  });

  it('keeps the key out of the cycle log, the goals, the provenance and the snapshot, and forgets it with its endpoint', async () => {
    const { db, service, sessionId, records } = await runAgainst('/echo', { keyHeader: 'Authorization' }, KEY);
    expect(records[0]!.act).toContain('answered HTTP 500: internal error handling [redacted]');
    expect((await service.endpointList({ sessionId })).endpoints[0]).toMatchObject({
      keyHeader: 'Authorization',
      keyStored: true,
    });
    const stored = JSON.stringify([
      await db.cycles.toArray(),
      await db.goals.toArray(),
      await db.provenance.toArray(),
      await db.sessions.toArray(),
      await exportSnapshot(db, sessionId),
    ]);
    expect(stored).not.toContain('very-secret-key-424242');
    expect((await storedSecrets(db)).map((secret) => secret.value)).toContain('very-secret-key-424242');
    expect((await service.endpointRemove({ sessionId, name: 'remote' })).ok).toBe(true);
    expect((await storedSecrets(db)).map((secret) => secret.value)).not.toContain('very-secret-key-424242');
  });
});
