import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { MemoryGgufHost } from '#core/testing/memory-gguf-host.ts';
import { ScriptedEngine, type ScriptedReply } from '#core/testing/scripted-engine.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { TINY_GGUF_SHAPE, tinyGguf } from '#core/testing/tiny-gguf.ts';

const TINY = tinyGguf(7);

function ggufService(script: ScriptedReply[] = []) {
  const engine = new ScriptedEngine(script);
  const host = new MemoryGgufHost(() => engine);
  const { db, service } = testService({
    db: new AnimaDatabase('anima', freshIndexedDb()),
    providerReach: { gguf: host },
  });
  return { db, service, host, engine };
}

/** Serves bytes at /models/NAME, the way a model host does (content-length, chunks). */
async function fileServer(bytes: Uint8Array) {
  const server = createServer((request, response) => {
    if (!request.url?.startsWith('/models/')) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.byteLength) });
    for (let start = 0; start < bytes.byteLength; start += 64 * 1024)
      response.write(bytes.subarray(start, start + 64 * 1024));
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('GGUF models for the CPU engine', () => {
  it('adds a model file picked on this device, with what its header says, and lists it', async () => {
    const { service, host } = ggufService();
    const progress: number[] = [];
    const added = await service.ggufAdd(
      { operationId: 'add', source: { kind: 'file', file: new Blob([TINY.slice()]), fileName: 'Tiny Llama.gguf' } },
      (report) => progress.push(report.bytesWritten),
    );
    expect(added).toMatchObject({
      ok: true,
      model: {
        id: 'tiny-llama.gguf',
        engine: 'gguf',
        fileName: 'Tiny Llama.gguf',
        sizeBytes: TINY.byteLength,
        architecture: 'llama',
        contextLength: TINY_GGUF_SHAPE.context,
        quantisation: 'F32',
        source: { kind: 'file' },
      },
    });
    expect(added.ok && added.model.memoryBytes).toBeGreaterThan(TINY.byteLength);
    expect(progress.at(-1)).toBe(TINY.byteLength);
    expect(host.files.has('tiny-llama.gguf')).toBe(true);
    const listed = await service.ggufList({});
    expect(listed).toMatchObject({ isAvailable: true, models: [{ id: 'tiny-llama.gguf' }] });
    // The same file again gets its own id.
    const again = await service.ggufAdd({
      operationId: 'add-2',
      source: { kind: 'file', file: new Blob([TINY.slice()]), fileName: 'Tiny Llama.gguf' },
    });
    expect(again).toMatchObject({ ok: true, model: { id: 'tiny-llama.gguf-2' } });
  });

  it('refuses a file that is not a GGUF model before keeping anything', async () => {
    const { service, host } = ggufService();
    const refused = await service.ggufAdd({
      operationId: 'add',
      source: { kind: 'file', file: new Blob(['<html>not a model</html>']), fileName: 'page.html' },
    });
    expect(refused).toMatchObject({
      ok: false,
      problems: [{ message: expect.stringMatching(/^page\.html: not a GGUF model: the file starts with "<htm"/) }],
    });
    expect(host.files.size).toBe(0);
    expect((await service.ggufList({})).models).toEqual([]);
  });

  it("shows no credentials of an address, in its messages or in the list, and keeps none in the model's record", async () => {
    const { db, service } = ggufService();
    const server = await fileServer(TINY);
    try {
      // Fetch refuses an address with a user name and password, naming it; a 404 names the address too.
      const withUser = await service.ggufAdd({
        operationId: 'a',
        source: {
          kind: 'url',
          url: server.baseUrl.replace('http://', 'http://ada:pw-secret-1@') + '/models/tiny.gguf',
        },
      });
      expect(withUser).toMatchObject({
        ok: false,
        problems: [
          {
            message: expect.stringMatching(
              /^tiny\.gguf could not be added: .*credentials: http:\/\/\[redacted\]@127\.0\.0\.1:\d+\/models\/tiny\.gguf$/,
            ),
          },
        ],
      });
      const missing = await service.ggufAdd({
        operationId: 'b',
        source: { kind: 'url', url: `${server.baseUrl}/nothing.gguf?token=tok-secret-2` },
      });
      expect(missing).toMatchObject({
        ok: false,
        problems: [
          {
            message: `${server.baseUrl}/nothing.gguf?token=[redacted] answered 404 Not Found: there is no file at this address: check it, or copy the file's "download" link`,
          },
        ],
      });
      const added = await service.ggufAdd({
        operationId: 'c',
        source: { kind: 'url', url: `${server.baseUrl}/models/tiny.gguf?token=tok-secret-2` },
      });
      expect(added).toMatchObject({
        ok: true,
        model: { source: { kind: 'url', url: `${server.baseUrl}/models/tiny.gguf?token=[redacted]` } },
      });
      expect(
        JSON.stringify([withUser, missing, added, await service.ggufList({}), await db.models.toArray()]),
      ).not.toMatch(/secret/);
    } finally {
      await server.close();
    }
  });

  it("names a server's cross-origin refusal, and a server that does not answer, with the address and no token", async () => {
    // A browser's fetch: the download fails as "Failed to fetch"; a no-cors question reaches the server or not.
    const browserFetch = (serverAnswers: boolean) =>
      (async (_url: string | URL | Request, init?: RequestInit) => {
        if (init?.mode === 'no-cors' && serverAnswers) return new Response(null, { status: 200 });
        throw new TypeError('Failed to fetch');
      }) as typeof fetch;
    for (const serverAnswers of [true, false]) {
      const { service } = testService({
        db: new AnimaDatabase('anima', freshIndexedDb()),
        providerReach: { gguf: new MemoryGgufHost(() => new ScriptedEngine([])), fetch: browserFetch(serverAnswers) },
      });
      const result = await service.ggufAdd({
        operationId: 'a',
        source: { kind: 'url', url: 'https://models.example/tiny.gguf?token=tok-secret-3' },
      });
      const message = serverAnswers
        ? "https://models.example/tiny.gguf?token=[redacted] is blocked by its server's cross-origin policy"
        : "nothing answers at https://models.example/tiny.gguf?token=[redacted]: the server is down, or the address's host is wrong";
      expect(result).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining(message) }] });
      expect(JSON.stringify(result)).not.toMatch(/secret|Failed to fetch/);
    }
  });

  it('refuses a download larger than the storage left before fetching it, and says when storage fills while storing', async () => {
    const { service, host } = ggufService();
    const big = (async () =>
      new Response(new ReadableStream({ start: (controller) => controller.enqueue(new Uint8Array(8)) }), {
        headers: { 'content-length': String(500e6) },
      })) as typeof fetch;
    vi.stubGlobal('navigator', { storage: { estimate: async () => ({ quota: 200e6, usage: 80e6 }) } });
    try {
      const { service: limited } = testService({
        db: new AnimaDatabase('anima', freshIndexedDb()),
        providerReach: { gguf: new MemoryGgufHost(() => new ScriptedEngine([])), fetch: big },
      });
      expect(
        await limited.ggufAdd({ operationId: 'a', source: { kind: 'url', url: 'https://models.example/big.gguf' } }),
      ).toEqual({
        ok: false,
        problems: [
          {
            message:
              'https://models.example/big.gguf is 500 MB, more than the 120 MB this browser still lets Anima store: delete a model you no longer use on the Models screen, or choose a smaller one',
          },
        ],
      });
    } finally {
      vi.unstubAllGlobals();
    }
    host.store = async () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    expect(
      await service.ggufAdd({
        operationId: 'b',
        source: { kind: 'file', file: new Blob([TINY.slice()]), fileName: 'tiny.gguf' },
      }),
    ).toMatchObject({
      ok: false,
      problems: [{ message: expect.stringMatching(/^there is no room left in this browser's storage for tiny\.gguf/) }],
    });
  });

  it('downloads a model from an address with progress, and keeps nothing of one that is not a model', async () => {
    const { service, host } = ggufService();
    const server = await fileServer(TINY);
    try {
      const progress: { bytesWritten: number; totalBytes?: number }[] = [];
      const added = await service.ggufAdd(
        { operationId: 'get', source: { kind: 'url', url: `${server.baseUrl}/models/tiny-q.gguf` } },
        (report) => progress.push(report),
      );
      expect(added).toMatchObject({
        ok: true,
        model: { id: 'tiny-q.gguf', source: { kind: 'url', url: `${server.baseUrl}/models/tiny-q.gguf` } },
      });
      expect(progress.length).toBeGreaterThan(1);
      expect(progress.at(-1)).toEqual({
        phase: 'downloading',
        bytesWritten: TINY.byteLength,
        totalBytes: TINY.byteLength,
      });
      const missing = await service.ggufAdd({
        operationId: 'get-2',
        source: { kind: 'url', url: `${server.baseUrl}/nothing.gguf` },
      });
      expect(missing).toMatchObject({ ok: false, problems: [{ message: expect.stringContaining('answered 404') }] });
    } finally {
      await server.close();
    }
    const notModel = await fileServer(new TextEncoder().encode('{"error": "rate limited"}'));
    try {
      const refused = await service.ggufAdd({
        operationId: 'get-3',
        source: { kind: 'url', url: `${notModel.baseUrl}/models/fake.gguf` },
      });
      expect(refused).toMatchObject({
        ok: false,
        problems: [{ message: expect.stringContaining('not a GGUF model') }],
      });
      expect([...host.files.keys()]).toEqual(['tiny-q.gguf']);
    } finally {
      await notModel.close();
    }
  });

  it('gives two additions at once their own files, and reads an address whose name does not decode', async () => {
    const { service, host } = ggufService();
    const server = await fileServer(TINY);
    try {
      const [first, second] = await Promise.all([
        service.ggufAdd({ operationId: 'a', source: { kind: 'url', url: `${server.baseUrl}/models/same.gguf` } }),
        service.ggufAdd({ operationId: 'b', source: { kind: 'url', url: `${server.baseUrl}/models/same.gguf` } }),
      ]);
      expect([first, second].map((added) => added.ok && added.model.id).sort()).toEqual(['same.gguf', 'same.gguf-2']);
      expect([...host.files.keys()].sort()).toEqual(['same.gguf', 'same.gguf-2']);
      expect(
        await service.ggufAdd({
          operationId: 'c',
          source: { kind: 'url', url: `${server.baseUrl}/models/m%E0%A4%A.gguf` },
        }),
      ).toMatchObject({ ok: true, model: { fileName: 'm%E0%A4%A.gguf' } });
    } finally {
      await server.close();
    }
  });

  it('cancels a download and keeps nothing', async () => {
    const { service, host } = ggufService();
    const server = await fileServer(new Uint8Array(4 * 2 ** 20));
    try {
      const adding = service.ggufAdd(
        { operationId: 'get', source: { kind: 'url', url: `${server.baseUrl}/models/big.gguf` } },
        () => void service.cancel({ operationId: 'get' }),
      );
      expect(await adding).toMatchObject({
        ok: false,
        cancelled: true,
        problems: [{ message: 'adding big.gguf was cancelled; nothing was kept' }],
      });
      expect(host.files.size).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('runs the agent with a chosen GGUF model, and falls back, saying why, when its file is gone', async () => {
    const answer = JSON.stringify({
      kind: 'final',
      answer: 'Zorblax is a moon.',
      triples: [{ subject: 'Zorblax', predicate: 'is-a', object: 'Moon', confidence: 0.9 }],
    });
    const { service, host } = ggufService([{ text: answer }]);
    const { session } = await service.open({});
    const sessionId = session.id;
    await service.ggufAdd({
      operationId: 'add',
      source: { kind: 'file', file: new Blob([TINY.slice()]), fileName: 'tiny.gguf' },
    });
    expect(await service.inferenceSet({ settings: { provider: 'gguf' } })).toMatchObject({
      ok: false,
      problems: [{ path: 'ggufModel' }],
    });
    expect(await service.inferenceSet({ settings: { provider: 'gguf', ggufModel: 'tiny.gguf' } })).toMatchObject({
      ok: true,
    });
    expect(await service.ggufList({})).toMatchObject({ chosen: 'tiny.gguf' });
    await service.kgImport({ sessionId, operationId: 'op', fileName: 'mars.csv', data: 'Mars,is-a,Planet\n' });
    await service.goalAdd({ sessionId, description: 'What is Zorblax', criteria: 'Zorblax is-a ?x' });
    const cycles: CycleRecord[] = [];
    const result = await service.agentRun({ sessionId, operationId: 'run', maxCycles: 5 }, (record) =>
      cycles.push(record),
    );
    expect(result).toMatchObject({
      ok: true,
      stoppedBecause: 'no-active-goal',
      usage: { provider: 'gguf', model: 'tiny.gguf', requests: 1 },
    });
    expect(cycles.at(-1)).toMatchObject({
      tool: 'reason',
      outcome: 'completed',
      model: { provider: 'gguf', model: 'tiny.gguf' },
    });
    expect(host.loads).toEqual([{ id: 'tiny.gguf', contextTokens: TINY_GGUF_SHAPE.context }]);

    expect(await service.ggufDelete({ id: 'tiny.gguf' })).toEqual({ ok: true, id: 'tiny.gguf' });
    expect(await service.ggufDelete({ id: 'tiny.gguf' })).toMatchObject({
      ok: false,
      problems: [{ message: 'there is no GGUF model tiny.gguf' }],
    });
    await service.goalAdd({ sessionId, description: 'What is Quux', criteria: 'Quux is-a ?x' });
    const fallback = await service.agentRun({ sessionId, operationId: 'run-2', maxCycles: 1 });
    expect(fallback).toMatchObject({
      ok: true,
      usage: {
        provider: 'none',
        fellBack: {
          kind: 'not-on-device',
          because: 'the GGUF model tiny.gguf is not on this device: add it on the Models screen',
        },
      },
    });
  });

  it('says the CPU engine is not here when there is none (Node, the CLI)', async () => {
    const { service } = testService();
    expect(await service.ggufList({})).toMatchObject({
      isAvailable: false,
      unavailableBecause: expect.stringContaining('only in the browser'),
      models: [],
    });
    expect(
      await service.ggufAdd({
        operationId: 'add',
        source: { kind: 'file', file: new Blob([TINY.slice()]), fileName: 'tiny.gguf' },
      }),
    ).toMatchObject({ ok: false });
  });
});
