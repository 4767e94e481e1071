import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { type ServerReply, type ServerRequest, startOpenAiServer } from '#core/testing/openai-server.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';

/**
 * Every secret here holds LEAK: finding that anywhere (whole, or the part a cut left) is a leak.
 * The server echoes what it was sent in each way a real one might, and the run goes on through
 * the agent's cycles into the cycle log, plans, working memory, provenance and the exported file.
 */
const KEY = 'sk-LEAK-api-key-4f9a2c81d7e3b6';
const USER = 'user-LEAK-name';
const PASSWORD = 'pw-LEAK-password-77a1';
const QUERY_KEY = 'qk-LEAK-query-key-31c9';
const LEAK = 'LEAK';

const FACTS = 'Mars,is-a,Planet\nMars,orbits,Sun\nPlanet,is-a,CelestialBody\n';
const ZORBLAX = { description: 'What is Zorblax', criteria: 'Zorblax is-a ?x' };

/** A body that echoes the request's key and address in the message, as some servers do. */
const keyOf = (request: ServerRequest) => (request.authorization ?? '').replace(/^Bearer /, '');
const echoJson = (request: ServerRequest) =>
  JSON.stringify({ error: { message: `Incorrect API key provided: ${keyOf(request)} (for ${request.url})` } });
const echoText = (request: ServerRequest) => `internal error: ${request.authorization} asked ${request.url}`;

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

async function server(script: ServerReply[]) {
  const started = await startOpenAiServer(script);
  closers.push(started.close);
  return started;
}

/** An address nothing listens at. */
async function refusedAddress(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}/v1`;
}

const withCredentials = (baseUrl: string) => baseUrl.replace('http://', `http://${USER}:${PASSWORD}@`);

/** A session that asks the model what Zorblax is (nothing else knows), its settings storing the endpoint and key, run for a few cycles. */
async function runAgainst(baseUrl: string, options: { wallSeconds?: number; isChecked?: boolean } = {}) {
  const { db, service } = testService({ db: new AnimaDatabase('anima', freshIndexedDb()) });
  const saved = await service.inferenceSet({
    settings: {
      provider: 'openai-compatible',
      openAi: { baseUrl, model: 'tiny', apiKey: KEY },
      limits: options.wallSeconds ? { wallSeconds: options.wallSeconds } : {},
    },
  });
  expect(saved.ok).toBe(true);
  const { session } = await service.open({});
  const sessionId = session.id;
  await service.kgImport({ sessionId, operationId: 'import', fileName: 'mars.csv', data: FACTS });
  await service.goalAdd({ sessionId, ...ZORBLAX });
  const progress: CycleRecord[] = [];
  const run = await service.agentRun({ sessionId, operationId: 'run', maxCycles: 4 }, (record) =>
    progress.push(record),
  );
  // A check has no time limit: against a server that never answers it would wait for ever.
  const check = options.isChecked === false ? undefined : await service.inferenceCheck({ operationId: 'check' });
  const exported = await service.sessionExport({ sessionId, gzip: false });
  // Refused (it would carry a secret), the refusal is scanned instead: it must not show the secret either.
  const file = exported.ok ? new TextDecoder().decode(exported.bytes) : JSON.stringify(exported);
  // Everything the app would show, as the UI reads it from the worker.
  const shown = JSON.stringify([
    run,
    check,
    progress,
    await service.cycleList({ sessionId, limit: 100 }),
    await service.goalList({ sessionId, findingsLimit: 100 }),
    await service.planList({ sessionId }),
    await service.memoryList({ sessionId, episodeLimit: 100 }),
    await service.inferenceGet({}),
    await service.sessionList({}),
  ]);
  // Everything stored for the session (the settings keep the key: that is where it belongs).
  const stored = JSON.stringify(
    await Promise.all(db.tables.filter((table) => table.name !== 'settings').map((table) => table.toArray())),
  );
  const reasoned = progress.find((record) => record.tool === 'reason');
  return { file, shown, stored, reasoned, run };
}

/** Where a part of a secret shows up: the text around it, for the failure message. */
const leaksIn = (text: string) => [...text.matchAll(new RegExp(`.{0,60}${LEAK}.{0,30}`, 'g'))].map((match) => match[0]);

describe('secrets never leave the device', () => {
  const paths: {
    name: string;
    script: ServerReply[];
    baseUrl?: (url: string) => string;
    wallSeconds?: number;
    detail: RegExp | string;
  }[] = [
    {
      name: 'a 401 echoing the key in JSON',
      script: [
        { status: 401, body: echoJson },
        { status: 401, body: echoJson },
      ],
      detail: 'answered HTTP 401: Incorrect API key provided: [redacted]',
    },
    {
      name: 'a 403 echoing the bearer token as text',
      script: [
        { status: 403, body: echoText },
        { status: 403, body: echoText },
      ],
      detail: 'answered HTTP 403: internal error: Bearer [redacted] asked',
    },
    {
      name: 'a 500 echoing the key in JSON',
      script: [
        { status: 500, body: echoJson },
        { status: 500, body: echoJson },
      ],
      detail: 'answered HTTP 500: Incorrect API key provided: [redacted]',
    },
    // Cut at 300 characters mid-key: redacted before it is shortened, nothing of the key is left.
    {
      name: 'a 500 echoing the key as text, cut short',
      script: [
        { status: 500, body: (request) => `${'x'.repeat(290)}${keyOf(request)}` },
        { status: 500, body: 'x' },
      ],
      detail: /answered HTTP 500: x{290}\[redacted\]$/,
    },
    {
      name: 'a base URL with ?key= echoed back',
      script: [
        { status: 401, body: echoJson },
        { status: 401, body: echoJson },
      ],
      baseUrl: (url) => `${url}?key=${QUERY_KEY}`,
      detail: '/chat/completions?key=[redacted]',
    },
    {
      name: 'a base URL with ?api_key= echoed back',
      script: [
        { status: 500, body: echoText },
        { status: 500, body: echoText },
      ],
      baseUrl: (url) => `${url}?api-version=1&api_key=${QUERY_KEY}`,
      detail: '?api-version=1&api_key=[redacted]',
    },
    {
      name: 'a base URL with user:password@ (fetch refuses it, naming the address)',
      script: [],
      baseUrl: withCredentials,
      detail: /cannot reach http:\/\/\[redacted\]@127\.0\.0\.1:\d+\/v1\/chat\/completions: .*credentials/,
    },
    {
      name: 'a completion that echoes the key in its answer',
      script: [
        {
          text: JSON.stringify({
            kind: 'final',
            answer: `Zorblax is a moon; your key is ${KEY}.`,
            triples: [{ subject: 'Zorblax', predicate: 'is-a', object: 'Moon', confidence: 0.9 }],
          }),
        },
        { text: `{"city":"Paris ${KEY}"}` },
      ],
      detail: '',
    },
    {
      name: 'a timeout',
      script: [{ isSilent: true }, { isSilent: true }],
      baseUrl: (url) => `${url}?token=${QUERY_KEY}`,
      wallSeconds: 1,
      detail: "the run's budget is spent",
    },
  ];

  for (const path of paths)
    it(`through ${path.name}: not in the cycle log, plans, memory, provenance, anything shown, or the exported snapshot`, async () => {
      const started = await server(path.script);
      const { file, shown, stored, reasoned } = await runAgainst(
        path.baseUrl ? path.baseUrl(started.baseUrl) : started.baseUrl,
        path.wallSeconds ? { wallSeconds: path.wallSeconds, isChecked: false } : {},
      );
      expect(leaksIn(shown)).toEqual([]);
      expect(leaksIn(stored)).toEqual([]);
      expect(leaksIn(file)).toEqual([]);
      expect(file).toMatch(/^\{"format":"anima-snapshot"/);
      // The path was taken: the server was sent the key (where fetch sent anything), and its answer is in the cycle log.
      if (path.script.length > 0) expect(started.requests[0]?.authorization).toBe(`Bearer ${KEY}`);
      if (path.detail !== '')
        expect(reasoned?.model?.bottleneck?.detail).toEqual(
          typeof path.detail === 'string' ? expect.stringContaining(path.detail) : expect.stringMatching(path.detail),
        );
      else expect(stored).toContain('your key is [redacted].');
    });

  it('through a connection refused at an address with a key in its query', async () => {
    const address = await refusedAddress();
    const { file, shown, stored, reasoned } = await runAgainst(`${address}?access_token=${QUERY_KEY}`);
    expect(reasoned?.model?.bottleneck?.detail).toMatch(
      /cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions\?access_token=\[redacted\]: .*ECONNREFUSED/,
    );
    expect([...leaksIn(file), ...leaksIn(shown), ...leaksIn(stored)]).toEqual([]);
    expect(file).toMatch(/^\{"format":"anima-snapshot"/);
  });
});

describe('a secret the device forgets', () => {
  it('is taken out of every stored row when the key is removed or replaced, so the export that refused it carries none of it', async () => {
    const { db, service } = testService({ db: new AnimaDatabase('anima', freshIndexedDb()) });
    const endpoint = { baseUrl: 'http://127.0.0.1:9/v1', model: 'tiny' };
    expect(
      (
        await service.inferenceSet({
          settings: { provider: 'openai-compatible', openAi: { ...endpoint, apiKey: KEY } },
        })
      ).ok,
    ).toBe(true);
    const { session } = await service.open({});
    const sessionId = session.id;
    // Text that holds the key the way a user might type it, or an older build stored it.
    await service.goalAdd({ sessionId, description: `Find out why ${KEY} is refused` });
    const refused = await service.sessionExport({ sessionId, gzip: false });
    expect(refused).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining('the API key') }] });

    // Replaced by another key: the old one is forgotten everywhere, the new one is kept where it belongs.
    const NEW_KEY = 'sk-new-key-0000-1111-2222';
    expect(
      (
        await service.inferenceSet({
          settings: { provider: 'openai-compatible', openAi: { ...endpoint, apiKey: NEW_KEY } },
        })
      ).ok,
    ).toBe(true);
    const stored = JSON.stringify(
      await Promise.all(db.tables.filter((table) => table.name !== 'settings').map((table) => table.toArray())),
    );
    expect(leaksIn(stored)).toEqual([]);
    expect((await service.goalList({ sessionId, findingsLimit: 10 })).goals[0]?.description).toBe(
      'Find out why [redacted] is refused',
    );

    const exported = await service.sessionExport({ sessionId, gzip: false });
    if (!exported.ok) throw new Error(JSON.stringify(exported));
    expect(leaksIn(new TextDecoder().decode(exported.bytes))).toEqual([]);
  });
});
