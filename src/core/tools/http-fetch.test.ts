import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import { runAnswering } from '#core/testing/answering-run.ts';
import { testService } from '#core/testing/test-database.ts';

let server: Server;
let base: string;
/** A second server, on an address never allowed: where a redirect must not take http_fetch. */
let elsewhere: Server;
let elsewhereBase: string;
const elsewhereRequests: string[] = [];

/** A local web server: what http_fetch meets in the wild, without the network. */
beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/Dog') {
      response.writeHead(200, { 'content-type': 'text/turtle; charset=utf-8' });
      // A relative IRI: it names the document's own address.
      response.end(
        `<Dog> <urn:anima:kg#has-part> <urn:anima:kg#Tail> .\n<${base}Dog> <urn:anima:kg#eats> <urn:anima:kg#Bone> .\n`,
      );
    } else if (path === '/Cat') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('A cat is a mammal. Cats have whiskers.');
    } else if (path === '/Latin') {
      // Latin-1 bytes with no charset said: not UTF-8, so not read.
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(Buffer.from('A caf\u00e9 is a place.', 'latin1'));
    } else if (path === '/Zoe') {
      response.writeHead(200, { 'content-type': 'text/plain; charset=ISO-8859-1' });
      response.end(Buffer.from('Zo\u00e9 is a cat.', 'latin1'));
    } else if (path === '/Big') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('x'.repeat(3000));
    } else if (path === '/Page') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<script>alert(1)</script>');
    } else if (path === '/Hop') {
      response.writeHead(303, { location: '/Dog' }).end();
    } else if (path === '/Away') {
      response.writeHead(302, { location: `${elsewhereBase}Dog` }).end();
    } else if (path === '/Loop') {
      response.writeHead(307, { location: '/Loop' }).end();
    } else if (path === '/Slow') {
      // Never answers: the time cap ends it.
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  elsewhere = createServer((request, response) => {
    elsewhereRequests.push(request.url ?? '/');
    response.writeHead(200, { 'content-type': 'text/plain' }).end('A dog is a spy.');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereBase = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  for (const each of [server, elsewhere]) {
    each.closeAllConnections();
    await new Promise((resolve) => each.close(resolve));
  }
});

async function sessionAbout(
  name: string,
  criteria: string,
  webAccess = { allowedPrefixes: [base], timeoutSeconds: 1, maxKilobytes: 2 },
) {
  const { db, service } = testService();
  const { session } = await service.open({});
  const sessionId = session.id;
  await service.kgImport({
    sessionId,
    operationId: 'op',
    fileName: 'zoo.nt',
    data: `<${base}${name}> <urn:anima:kg#is-a> <urn:anima:kg#Animal> .\n`,
  });
  expect(await service.webAccessSet({ webAccess })).toMatchObject({ ok: true });
  await service.goalAdd({ sessionId, description: `Learn about ${name}`, criteria });
  return { db, service, sessionId };
}

async function run(service: Awaited<ReturnType<typeof sessionAbout>>['service'], sessionId: string, maxCycles: number) {
  const cycles: CycleRecord[] = [];
  await service.agentRun({ sessionId, operationId: 'run', maxCycles }, (record) => cycles.push(record));
  return cycles;
}

/** Runs until http_fetch acted (approving what the default psyche holds for approval), and returns that cycle. */
async function fetchCycle(session: Awaited<ReturnType<typeof sessionAbout>>) {
  const { service, sessionId } = session;
  for (let attempt = 0; attempt < 5; attempt++) {
    const cycles = await run(service, sessionId, 6);
    const fetched = cycles.find((record) => record.tool === 'http_fetch' && record.outcome !== 'waiting');
    if (fetched) return fetched;
    const { approvals } = await service.approvalList({ sessionId });
    const pending = approvals.find((approval) => approval.status === 'pending');
    if (pending) await service.approvalDecide({ sessionId, approvalId: pending.id, decision: 'approve' });
  }
  throw new Error('http_fetch never ran');
}

describe('http_fetch', () => {
  it("waits for approval (the default psyche), then GETs the goal symbol's address and takes in its RDF", async () => {
    const session = await sessionAbout('Dog', 'tail bone');
    const cycles = await run(session.service, session.sessionId, 6);
    const asked = cycles.find((record) => record.tool === 'http_fetch');
    expect(asked).toMatchObject({
      outcome: 'waiting',
      shadow: { pattern: 'external_request', because: 'http_fetch uses network' },
    });
    const fetched = await fetchCycle(session);
    expect(fetched.act).toBe(
      `GET ${base}Dog: 2 facts (text/turtle, ${fetched.act.match(/(\d+) characters/)![1]} characters) -> completed (completed: found facts that mention tail and bone: Dog has-part Tail; Dog eats Bone)`,
    );
    const [goal] = (await session.service.goalList({ sessionId: session.sessionId })).goals;
    const tail = goal!.findings.find((fact) => fact.object.label === 'Tail')!;
    expect(await session.db.provenance.get(tail.provenanceId!)).toMatchObject({
      kind: 'fetch',
      sources: [`${base}Dog`],
    });
    // <Dog> resolved against the document's address: one symbol for both lines.
    const subjects = goal!.findings
      .filter((fact) => ['Tail', 'Bone'].includes(fact.object.label))
      .map((fact) => fact.subject);
    expect(subjects).toHaveLength(2);
    expect(subjects[0]).toEqual(subjects[1]);
  });

  it('keeps an approved fetch while web access is off, and carries it out once it is back', async () => {
    const session = await sessionAbout('Dog', 'tail bone');
    const { service, sessionId } = session;
    await run(service, sessionId, 6);
    const [pending] = (await service.approvalList({ sessionId })).approvals;
    await service.approvalDecide({ sessionId, approvalId: pending!.id, decision: 'approve' });
    await service.webAccessSet({ webAccess: { allowedPrefixes: [], timeoutSeconds: 1, maxKilobytes: 2 } });
    const offline = await run(service, sessionId, 2);
    expect(offline.map((record) => record.tool)).not.toContain('http_fetch');
    expect((await service.approvalList({ sessionId })).approvals[0]).toMatchObject({ status: 'approved' });

    await service.webAccessSet({ webAccess: { allowedPrefixes: [base], timeoutSeconds: 1, maxKilobytes: 2 } });
    const [carried] = await run(service, sessionId, 1);
    expect(carried).toMatchObject({
      tool: 'http_fetch',
      decide: expect.stringMatching(/^http_fetch: carrying out approved action #1 \(the choice was /),
      outcome: 'completed',
    });
    expect((await service.approvalList({ sessionId })).approvals[0]).toMatchObject({ status: 'done' });
  });

  it('reads plain text for simple sentences', async () => {
    const fetched = await fetchCycle(await sessionAbout('Cat', 'whisker'));
    expect(fetched.act).toMatch(/^GET .*Cat: 2 facts \(text\/plain/);
    expect(fetched.outcome).toBe('completed');
  });

  it('reads text in the charset its answer names', async () => {
    const session = await sessionAbout('Zoe', 'whisker');
    const fetched = await fetchCycle(session);
    expect(fetched.act).toMatch(/^GET .*Zoe: 1 facts \(text\/plain/);
    expect(
      (await session.service.kgSearch({ sessionId: session.sessionId, text: 'Zoé', limit: 1 })).hits[0]?.symbol.label,
    ).toBe('Zoé');
  });

  it('fails clearly past its caps, on content it cannot read, and on HTTP errors, and fetches each address once', async () => {
    for (const [name, expected] of [
      ['Big', /the answer is over 2 KB, the cap of Settings, Web access/],
      ['Page', /cannot read text\/html \(Turtle, N-Triples, CSV or plain text only\)/],
      ['Slow', /no answer within 1 s/],
      ['Nowhere', /HTTP 404/],
      ['Latin', /: line 1: the file is not UTF-8 text: the byte 0xE9 at offset 5 \(counting from 0\)/],
    ] as const) {
      const session = await sessionAbout(name, 'whatever thing');
      const fetched = await fetchCycle(session);
      expect(fetched).toMatchObject({ outcome: 'failed', act: expect.stringMatching(expected) });
      const later = await runAnswering(session.service, session.sessionId, 2);
      expect(later.length).toBeGreaterThan(0);
      for (const record of later)
        expect(record.candidates.find((candidate) => candidate.tool === 'http_fetch')?.skippedBecause).toBe(
          "no allowed address names the goal's symbols, or all were fetched",
        );
    }
  }, 20_000);

  it('follows a redirect to an allowed address, and says where the facts came from', async () => {
    const session = await sessionAbout('Hop', 'tail bone');
    const fetched = await fetchCycle(session);
    expect(fetched.act).toContain(`GET ${base}Hop: 2 facts (text/turtle`);
    const [goal] = (await session.service.goalList({ sessionId: session.sessionId })).goals;
    const tail = goal!.findings.find((fact) => fact.object.label === 'Tail')!;
    expect(await session.db.provenance.get(tail.provenanceId!)).toMatchObject({
      kind: 'fetch',
      sources: [`${base}Hop`, `${base}Dog`],
      detail: `GET ${base}Hop (redirected to ${base}Dog) (text/turtle)`,
    });
  });

  it('never follows a redirect to an address the user did not allow, nor an endless one', async () => {
    const away = await fetchCycle(await sessionAbout('Away', 'whatever thing'));
    expect(away).toMatchObject({
      outcome: 'failed',
      act: expect.stringContaining(
        `GET ${base}Away: it redirects to ${elsewhereBase}Dog, not an address you allowed (not followed)`,
      ),
    });
    expect(elsewhereRequests).toEqual([]);

    const loop = await fetchCycle(await sessionAbout('Loop', 'whatever thing'));
    expect(loop).toMatchObject({
      outcome: 'failed',
      act: expect.stringContaining(`GET ${base}Loop: more than 5 redirects`),
    });
  });

  it('stays offline unless an address is allowed, and refuses addresses that are not web addresses', async () => {
    const session = await sessionAbout('Dog', 'tail', { allowedPrefixes: [], timeoutSeconds: 10, maxKilobytes: 1024 });
    const [first] = await run(session.service, session.sessionId, 1);
    expect(first!.candidates.find((candidate) => candidate.tool === 'http_fetch')).toEqual({
      tool: 'http_fetch',
      skippedBecause: 'no web address is allowed (Settings, Web access)',
    });
    expect(
      await session.service.webAccessSet({
        webAccess: {
          allowedPrefixes: ['ftp://example.org/', 'not an address'],
          timeoutSeconds: 10,
          maxKilobytes: 1024,
        },
      }),
    ).toEqual({
      ok: false,
      problems: [
        { path: 'allowedPrefixes.0', message: '"ftp://example.org/" is not an http or https address' },
        { path: 'allowedPrefixes.1', message: '"not an address" is not a web address (start it with https://)' },
      ],
    });
    expect(await session.service.webAccessGet({})).toEqual({
      allowedPrefixes: [],
      timeoutSeconds: 10,
      maxKilobytes: 1024,
    });
  });
});
