import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anima } from '../testing/run-anima.ts';

let server: Server;
let base: string;
const requests: string[] = [];
let folder: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request.url ?? '/');
    response.writeHead(200, { 'content-type': 'text/plain' }).end('A comet is a body. Comets have tails.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  delete process.env.ANIMA_HOME;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'anima-approvals-'));
  // The device file of these tests: web access allowed here stays here.
  process.env.ANIMA_HOME = join(folder, 'home');
  requests.length = 0;
});

/** A snapshot whose Comet is known by an address of the local server. */
async function cometSnapshot(): Promise<string> {
  const snapshot = join(folder, 'session.json');
  const graph = join(folder, 'comet.ttl');
  await writeFile(graph, `<${base}Comet> <urn:anima:kg#is-a> <urn:anima:kg#Body> .\n`);
  expect((await anima('kg', 'import', graph, '--snapshot', snapshot)).code).toBe(0);
  return snapshot;
}

describe('anima settings --allow-web, approvals, approve and deny', () => {
  it('keeps the allowed prefixes in the device file, for every snapshot, and --offline takes them away', async () => {
    const snapshot = await cometSnapshot();
    expect((await anima('settings', '--snapshot', snapshot)).out).toContain('web: offline');
    const allowed = await anima('settings', '--allow-web', base, '--snapshot', snapshot, '--json');
    expect(JSON.parse(allowed.out)).toMatchObject({ allowedWebPrefixes: [base] });
    expect(JSON.parse(await readFile(join(folder, 'home', 'device.json'), 'utf8'))).toMatchObject({
      webAccess: { allowedPrefixes: [base] },
    });
    // Another snapshot on this machine sees it too.
    const other = join(folder, 'other.json');
    await anima('kg', 'import', join(folder, 'comet.ttl'), '--snapshot', other);
    expect((await anima('settings', '--snapshot', other)).out).toContain(`web: http_fetch may read under ${base}`);
    expect((await anima('settings', '--offline', '--snapshot', other)).out).toContain('web: offline');
    expect((await anima('settings', '--snapshot', snapshot)).out).toContain('web: offline');
  });

  it('refuses an address that is not http(s), and changes nothing', async () => {
    const snapshot = await cometSnapshot();
    const refused = await anima('settings', '--allow-web', 'ftp://example.org/', '--snapshot', snapshot);
    expect(refused).toMatchObject({
      code: 1,
      error:
        'anima: settings: the web access was not changed:\n  --allow-web: "ftp://example.org/" is not an http or https address\n',
    });
    expect((await anima('settings', '--snapshot', snapshot)).out).toContain('web: offline');
  });

  it('holds a web request for approval; approved, the next run fetches it; a denied one is never fetched', async () => {
    const snapshot = await cometSnapshot();
    await anima('settings', '--allow-web', base, '--snapshot', snapshot);
    const run = await anima(
      'run',
      '--goal',
      'Learn about Comet',
      '--criteria',
      'tail',
      '--max-cycles',
      '3',
      '--snapshot',
      snapshot,
    );
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^#1\twaiting\tLearn about Comet/m);
    expect(requests).toEqual([]);
    const listed = JSON.parse((await anima('approvals', '--snapshot', snapshot, '--json')).out);
    expect(listed).toMatchObject({
      pendingCount: 1,
      approvals: [{ id: 1, status: 'pending', tool: 'http_fetch', pattern: 'external_request' }],
    });
    expect((await anima('approvals', '--snapshot', snapshot)).out).toMatch(
      /^#1\tpending\tgoal 1\t.*http_fetch.*\theld by external_request: /,
    );

    expect(await anima('approve', '1', '--input', '{not json', '--snapshot', snapshot)).toMatchObject({
      code: 2,
      error: expect.stringContaining('approve: --input is not JSON'),
    });
    expect(await anima('deny', '1', '--input', '{}', '--snapshot', snapshot)).toMatchObject({ code: 2 });
    expect(await anima('approve', '7', '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: 'anima: approve: nothing changed:\n  there is no approval 7\n',
    });
    expect(await anima('approve', '1', '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: expect.stringContaining('approved #1'),
    });
    expect(await anima('deny', '1', '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: expect.stringContaining('already decided (approved)'),
    });
    await anima('resume', '--max-cycles', '3', '--snapshot', snapshot);
    expect(requests).toEqual(['/Comet']);
  });

  it('a denied request is not fetched and its goal goes on without it', async () => {
    const snapshot = await cometSnapshot();
    await anima('settings', '--allow-web', base, '--snapshot', snapshot);
    await anima(
      'run',
      '--goal',
      'Learn about Comet',
      '--criteria',
      'tail',
      '--max-cycles',
      '3',
      '--snapshot',
      snapshot,
    );
    expect(await anima('deny', '1', '--reason', 'not today', '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: expect.stringContaining('denied #1'),
    });
    const resumed = await anima('resume', '--max-cycles', '3', '--snapshot', snapshot);
    // It works on with other tools (then asks what the user knows); the request is never made.
    expect(resumed.out).toMatch(/^cycle 4\t(?!http_fetch)/);
    expect(resumed.out).not.toContain('http_fetch');
    expect(requests).toEqual([]);
    expect(JSON.parse((await anima('approvals', '--snapshot', snapshot, '--json')).out).approvals[0]).toMatchObject({
      status: 'denied',
      reason: 'not today',
    });
  });
});
