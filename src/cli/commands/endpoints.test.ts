import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmod, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anima } from '../testing/run-anima.ts';

/**
 * An endpoint that wants a key: 401 (echoing what it got) without it; with it, ASK answers true
 * and a SELECT one row whose object echoes the key (a careless or hostile endpoint).
 */
const KEY = 'Bearer sparql-key-1234567';
const server = createServer((request, response) => {
  if (request.headers['x-api-key'] !== KEY) {
    response.writeHead(401, { 'content-type': 'text/plain' });
    return response.end(`refused ${request.headers['x-api-key'] ?? 'no key'}`);
  }
  response.writeHead(200, { 'content-type': 'application/sparql-results+json' });
  const query = new URL(request.url ?? '/', 'http://localhost').searchParams.get('query') ?? '';
  if (!query.startsWith('SELECT')) return response.end(JSON.stringify({ head: {}, boolean: true }));
  const term = (value: string) => ({ type: 'uri', value });
  response.end(
    JSON.stringify({
      head: { vars: ['s', 'p', 'o'] },
      results: {
        bindings: [
          { s: term('http://e.org/a'), p: term('http://e.org/said'), o: { type: 'literal', value: `you sent ${KEY}` } },
        ],
      },
    }),
  );
});
let url = '';
let home = '';
beforeAll(async () => {
  // The keys file of these tests: a key kept here stays here.
  home = join(await mkdtemp(join(tmpdir(), 'anima-endpoint-home-')), 'home');
  process.env.ANIMA_HOME = home;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sparql`;
});
afterAll(async () => {
  delete process.env.ANIMA_HOME;
  await new Promise((resolve) => server.close(resolve));
});

describe('anima endpoint', () => {
  it('keeps the key header in the snapshot but never the key, which each command is given', async () => {
    const snapshot = join(await mkdtemp(join(tmpdir(), 'anima-endpoint-')), 'session.json');
    expect(
      await anima('endpoint', 'add', 'private', url, '--key-header', 'X-Api-Key', '--snapshot', snapshot),
    ).toMatchObject({ code: 0 });
    const refused = await anima('endpoint', 'check', 'private', '--snapshot', snapshot);
    expect(refused).toMatchObject({
      code: 1,
      out: 'private: refused: the endpoint private refused the query (HTTP 401): it wants a key, and none was given (it goes in the X-Api-Key header)\n',
    });
    const wrong = await anima(
      'endpoint',
      'check',
      'private',
      '--key',
      'Bearer wrong-key-7654321',
      '--snapshot',
      snapshot,
    );
    expect(wrong.out).toBe(
      'private: refused: the endpoint private refused the query (HTTP 401): it wants a key, and the one given was not accepted\n',
    );
    expect(wrong.out + wrong.error).not.toContain('wrong-key-7654321');
    expect((await anima('endpoint', 'check', 'private', '--key', KEY, '--snapshot', snapshot)).out).toMatch(
      /^private: answered ASK \{\} in \d+ ms\n$/,
    );
    expect((await anima('endpoint', 'list', '--snapshot', snapshot)).out).toContain('key in X-Api-Key (give --key)');
    const text = await readFile(snapshot, 'utf8');
    expect(text).toContain('"keyHeader":"X-Api-Key"');
    expect(text).not.toContain('sparql-key-1234567');
  });

  it('keeps a key given to add on this machine, mode 600, so later commands need no --key; the snapshot never holds it', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'anima-endpoint-'));
    const snapshot = join(folder, 'session.json');
    const added = await anima(
      'endpoint',
      'add',
      'private',
      url,
      '--key-header',
      'X-Api-Key',
      '--key',
      KEY,
      '--snapshot',
      snapshot,
    );
    expect(added).toMatchObject({ code: 0, out: expect.stringContaining('key in X-Api-Key (stored)') });
    expect(added.out + added.error).not.toContain('sparql-key-1234567');
    const keysFile = join(home, 'keys.json');
    expect((await stat(keysFile)).mode & 0o777).toBe(0o600);
    expect(await readFile(keysFile, 'utf8')).toContain(KEY);
    expect(await readFile(snapshot, 'utf8')).not.toContain('sparql-key-1234567');

    // A later command, a new process as far as the session goes: the key comes from the machine.
    expect((await anima('endpoint', 'check', 'private', '--snapshot', snapshot)).out).toMatch(
      /^private: answered ASK \{\} in \d+ ms\n$/,
    );
    expect((await anima('endpoint', 'list', '--snapshot', snapshot)).out).toContain('key in X-Api-Key (stored)');

    // An endpoint that echoes the key into its answer: the pull is not saved, the key is not printed.
    const query = join(folder, 'pull.rq');
    await writeFile(query, 'SELECT ?s ?p ?o WHERE { ?s ?p ?o }');
    const before = await readFile(snapshot, 'utf8');
    const echoed = await anima('kg', 'pull', '--endpoint', 'private', '--query', query, '--snapshot', snapshot);
    expect(echoed).toMatchObject({
      code: 1,
      error: expect.stringContaining('holds a secret of this device (the key of the endpoint private)'),
    });
    expect(echoed.out + echoed.error).not.toContain('sparql-key-1234567');
    expect(await readFile(snapshot, 'utf8')).toBe(before);

    // Keys others can read are not used.
    await chmod(keysFile, 0o644);
    expect(await anima('endpoint', 'check', 'private', '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: `anima: ${keysFile}: other users may read the keys it holds (mode 644); run chmod 600 ${keysFile}\n`,
    });
    await chmod(keysFile, 0o600);

    // Removing the endpoint forgets its key.
    expect(await anima('endpoint', 'remove', 'private', '--snapshot', snapshot)).toMatchObject({ code: 0 });
    expect(await readFile(keysFile, 'utf8')).not.toContain('sparql-key-1234567');
  });

  it('forgets a kept key when added again with --key ""', async () => {
    const snapshot = join(await mkdtemp(join(tmpdir(), 'anima-endpoint-')), 'session.json');
    const add = (key: string) =>
      anima('endpoint', 'add', 'private', url, '--key-header', 'X-Api-Key', '--key', key, '--snapshot', snapshot);
    await add(KEY);
    expect((await anima('endpoint', 'check', 'private', '--snapshot', snapshot)).code).toBe(0);
    expect((await add('')).out).toContain('key in X-Api-Key (give --key)');
    expect((await anima('endpoint', 'check', 'private', '--snapshot', snapshot)).out).toContain(
      'it wants a key, and none was given',
    );
    expect(await readFile(join(home, 'keys.json'), 'utf8')).not.toContain('sparql-key-1234567');
  });

  it('refuses what it cannot do, in words, changing nothing', async () => {
    const snapshot = join(await mkdtemp(join(tmpdir(), 'anima-endpoint-')), 'session.json');
    expect(await anima('endpoint', 'add', 'bad', 'ftp://example.org/sparql', '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: expect.stringContaining('give the endpoint as an http(s) address'),
    });
    expect(
      await anima('endpoint', 'add', 'creds', 'https://user:pw@example.org/sparql', '--snapshot', snapshot),
    ).toMatchObject({ code: 1, error: expect.stringContaining('holds no user name or password') });
    expect(
      await anima('endpoint', 'add', 'hi', 'https://example.org/sparql', '--trust', '1', '--snapshot', snapshot),
    ).toMatchObject({ code: 2, error: expect.stringContaining('--trust must be a number from 0.05 to 0.9') });
    expect(await anima('endpoint', 'check', 'hi', '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error: expect.stringContaining('no snapshot at'),
    });
    await anima('endpoint', 'add', 'one', 'https://example.org/sparql', '--snapshot', snapshot);
    expect(await anima('endpoint', 'remove', 'two', '--snapshot', snapshot)).toMatchObject({
      code: 1,
      error:
        'anima: no endpoint is called "two" in this session (`anima endpoint list`, or the Knowledge screen, lists them)\n',
    });
    expect(await anima('run', '--goal', 'Find dogs', '--endpoint', 'two', '--snapshot', snapshot)).toMatchObject({
      code: 2,
      error: expect.stringContaining('--endpoint "two": not an endpoint of this session'),
    });
    expect(await anima('kg', 'pull', '--endpoint', 'one', '--snapshot', snapshot)).toMatchObject({
      code: 2,
      error: expect.stringContaining('kg pull: give --around IRI or --query FILE'),
    });
    expect(await anima('endpoint', 'remove', 'one', '--snapshot', snapshot)).toMatchObject({
      code: 0,
      out: 'removed one\n',
    });
    expect(await anima('endpoint', 'list', '--snapshot', snapshot)).toMatchObject({
      code: 0,
      error: 'anima: no endpoint is added (anima endpoint add NAME URL)\n',
    });
  });
});
