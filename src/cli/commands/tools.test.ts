import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmod, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startEverythingServer, startMemoryServer } from '#core/testing/mcp-servers.ts';
import { anima } from '../testing/run-anima.ts';

/** `anima tools` against real MCP servers started here from npm (server-memory bridged from stdio). */

let everything: RunningServer;
let memory: RunningServer;
let directory: string;
let home: string;
/** The everything server behind a door that wants KEY in the Authorization header (401 without it). */
let keyed: Server;
let keyedUrl = '';
const KEY = 'Bearer mcp-kept-key-24680';

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'anima-tools-'));
  // The keys file of these tests: a key kept here stays here.
  home = join(directory, 'home');
  process.env.ANIMA_HOME = home;
  everything = await startEverythingServer();
  memory = await startMemoryServer(join(directory, 'memory.jsonl'));
  const target = new URL(everything.url);
  keyed = createServer((request, response) => {
    if (request.headers.authorization !== KEY) return response.writeHead(401).end('a key is needed');
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: request.method,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => keyed.listen(0, '127.0.0.1', resolve));
  keyedUrl = `http://127.0.0.1:${(keyed.address() as AddressInfo).port}/mcp`;
}, 40_000);
afterAll(async () => {
  delete process.env.ANIMA_HOME;
  await new Promise((resolve) => keyed?.close(resolve));
  await everything?.stop();
  await memory?.stop();
});

const snapshotPath = async () => join(await mkdtemp(join(tmpdir(), 'anima-tools-')), 'session.json');

describe('anima tools', () => {
  it('adds a server, lists its tools, grants one and calls it, keeping the call in the snapshot', async () => {
    const snapshot = await snapshotPath();
    const added = await anima('tools', 'add', 'everything', everything.url, '--snapshot', snapshot);
    expect(added).toMatchObject({ code: 0 });
    expect(added.out).toMatch(/^added everything: \d+ tools/);
    expect(added.out).toMatch(/ {2}-\techo\tread-only, idempotent\tEchoes back the input string\n/);

    const ungranted = await anima('tools', 'call', 'everything', 'echo', '{"message":"hi"}', '--snapshot', snapshot);
    expect(ungranted).toMatchObject({ code: 1 });
    expect(ungranted.error).toContain('anima tools grant everything echo');

    expect(await anima('tools', 'grant', 'everything', 'echo', '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: 'granted echo of everything\n',
    });
    const listed = JSON.parse((await anima('tools', 'list', '--json', '--snapshot', snapshot)).out);
    expect(listed.servers[0]).toMatchObject({ name: 'everything', granted: ['echo'] });
    expect(listed.servers[0].tools.find((tool: { name: string }) => tool.name === 'echo')).toMatchObject({
      inputSchema: { required: ['message'] },
      annotations: { readOnlyHint: true },
    });

    const called = await anima('tools', 'call', 'everything', 'echo', '{"message":"hi"}', '--snapshot', snapshot);
    expect(called).toMatchObject({ code: 0, out: 'Echo: hi\n' });
    const text = await readFile(snapshot, 'utf8');
    expect(text).toContain('"kind":"tool-server"');
    expect(text).toMatch(/"sources":\["server:everything","tool:echo","input:[0-9a-f]{64}"\]/);
  }, 60_000);

  it('sends nothing for an input the schema refuses, naming the field', async () => {
    const snapshot = await snapshotPath();
    await anima('tools', 'add', 'everything', everything.url, '--snapshot', snapshot);
    await anima('tools', 'grant', 'everything', 'get-sum', '--snapshot', snapshot);
    const refused = await anima('tools', 'call', 'everything', 'get-sum', '{"a":"one","b":2}', '--snapshot', snapshot);
    expect(refused.code).toBe(1);
    expect(refused.error).toContain('input.a: mcp.everything.get-sum does not take this input');
    expect(await readFile(snapshot, 'utf8')).not.toContain('"kind":"tool-server"');
    const summed = await anima('tools', 'call', 'everything', 'get-sum', '{"a":1,"b":2}', '--snapshot', snapshot);
    expect(summed).toMatchObject({ code: 0, out: 'The sum of 1 and 2 is 3.\n' });
  }, 60_000);

  it('runs a tool not marked read-only only when approved, and lets the shadow veto a server', async () => {
    const snapshot = await snapshotPath();
    await anima('tools', 'add', 'memory', memory.url, '--snapshot', snapshot);
    await anima('tools', 'grant', 'memory', 'create_entities', '--snapshot', snapshot);
    await anima('tools', 'grant', 'memory', 'read_graph', '--snapshot', snapshot);
    const entity = '{"entities":[{"name":"Tux","entityType":"penguin","observations":["lives in Antarctica"]}]}';
    const held = await anima('tools', 'call', 'memory', 'create_entities', entity, '--snapshot', snapshot);
    expect(held.code).toBe(1);
    expect(held.error).toContain(
      'mcp.memory.create_entities waits for your approval: the tool server memory does not mark create_entities read-only',
    );
    expect(held.error).toContain('add --approve');
    expect(
      await anima('tools', 'call', 'memory', 'create_entities', entity, '--approve', '--snapshot', snapshot),
    ).toMatchObject({ code: 0 });
    expect((await anima('tools', 'call', 'memory', 'read_graph', '{}', '--snapshot', snapshot)).out).toContain(
      'lives in Antarctica',
    );

    const psyche = join(directory, 'no-memory.toml');
    await writeFile(
      psyche,
      '[[shadow.veto_patterns]]\nname = "no-memory-server"\ntriggers = ["mcp.memory"]\nseverity = 1.0\nexplanation = "The memory server is off limits."\n',
    );
    expect(await anima('psyche', 'import', psyche, '--snapshot', snapshot)).toMatchObject({ code: 0 });
    const vetoed = await anima('tools', 'call', 'memory', 'read_graph', '{}', '--snapshot', snapshot);
    expect(vetoed.code).toBe(1);
    expect(vetoed.error).toContain('the veto pattern no-memory-server forbids it ("mcp.memory" in the action)');
  }, 60_000);

  it('keeps a key header’s name in the snapshot, never its value', async () => {
    const snapshot = await snapshotPath();
    const added = await anima(
      'tools',
      'add',
      'everything',
      everything.url,
      '--header',
      'Authorization: Bearer cli-secret-token-31337',
      '--snapshot',
      snapshot,
    );
    expect(added.code).toBe(0);
    const text = await readFile(snapshot, 'utf8');
    expect(text).toContain('"keyHeader":"Authorization"');
    expect(text).not.toContain('cli-secret-token-31337');
    expect(
      await anima('tools', 'add', 'bad', everything.url, '--header', 'no colon', '--snapshot', snapshot),
    ).toMatchObject({
      code: 2,
    });
  }, 60_000);

  it('keeps a key given once on this machine, mode 600, for later commands; forgets it when told', async () => {
    const snapshot = await snapshotPath();
    const keysFile = join(home, 'keys.json');
    const add = await anima(
      'tools',
      'add',
      'locked',
      keyedUrl,
      '--header',
      `Authorization: ${KEY}`,
      '--snapshot',
      snapshot,
    );
    expect(add).toMatchObject({ code: 0, out: expect.stringMatching(/^added locked: \d+ tools/) });
    expect((await stat(keysFile)).mode & 0o777).toBe(0o600);
    expect(await readFile(keysFile, 'utf8')).toContain(KEY);
    expect(await readFile(snapshot, 'utf8')).not.toContain('mcp-kept-key-24680');

    // Later commands, new processes: the key comes from the machine.
    await anima('tools', 'grant', 'locked', 'echo', '--snapshot', snapshot);
    expect(await anima('tools', 'call', 'locked', 'echo', '{"message":"hi"}', '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: 'Echo: hi\n',
    });
    expect((await anima('tools', 'list', '--refresh', '--snapshot', snapshot)).out).toContain(
      'key header Authorization (stored)',
    );

    // A server that echoes the key back: the call's result is not saved, the key is not printed.
    const before = await readFile(snapshot, 'utf8');
    const echoed = await anima(
      'tools',
      'call',
      'locked',
      'echo',
      JSON.stringify({ message: KEY }),
      '--snapshot',
      snapshot,
    );
    expect(echoed).toMatchObject({ code: 1, error: expect.stringContaining('holds a secret of this device') });
    expect(echoed.out + echoed.error).not.toContain('mcp-kept-key-24680');
    expect(await readFile(snapshot, 'utf8')).toBe(before);

    // Keys others can read are not used.
    await chmod(keysFile, 0o644);
    expect(await anima('tools', 'list', '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: `anima: ${keysFile}: other users may read the keys it holds (mode 644); run chmod 600 ${keysFile}\n`,
    });
    await chmod(keysFile, 0o600);

    expect(await anima('tools', 'forget-key', 'locked', '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: 'forgot the key of locked\n',
    });
    expect(await readFile(keysFile, 'utf8')).not.toContain('mcp-kept-key-24680');
    expect((await anima('tools', 'list', '--snapshot', snapshot)).out).toContain(
      'key header Authorization (give --header)',
    );
    const refused = await anima('tools', 'call', 'locked', 'echo', '{"message":"hi"}', '--snapshot', snapshot);
    expect(refused.code).toBe(1);
    // Given for one call, it serves that call and is not kept.
    expect(
      await anima(
        'tools',
        'call',
        'locked',
        'echo',
        '{"message":"hi"}',
        '--header',
        `Authorization: ${KEY}`,
        '--snapshot',
        snapshot,
      ),
    ).toMatchObject({ code: 0, out: 'Echo: hi\n' });
    expect(await readFile(keysFile, 'utf8')).not.toContain('mcp-kept-key-24680');
  }, 90_000);
});
