import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anima } from '../testing/run-anima.ts';

/** An endpoint that wants a key: ASK answers true with it, 401 (echoing what it got) without. */
const KEY = 'Bearer sparql-key-1234567';
const server = createServer((request, response) => {
  if (request.headers['x-api-key'] !== KEY) {
    response.writeHead(401, { 'content-type': 'text/plain' });
    return response.end(`refused ${request.headers['x-api-key'] ?? 'no key'}`);
  }
  response.writeHead(200, { 'content-type': 'application/sparql-results+json' });
  response.end(JSON.stringify({ head: {}, boolean: true }));
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sparql`;
});
afterAll(async () => new Promise((resolve) => server.close(resolve)));

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
