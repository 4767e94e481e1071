import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import type { InferenceSettings } from '#core/llm/inference-settings.ts';
import { storedSecrets } from '#core/llm/stored-secrets.ts';
import { exportSnapshot } from '#core/sessions/snapshot.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { type RunningServer, startEverythingServer, startMemoryServer } from '#core/testing/mcp-servers.ts';
import { type ScriptedReply, ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { ScriptedWebLlmHost } from '#core/testing/scripted-webllm-host.ts';
import { freshIndexedDb, testService } from '#core/testing/test-database.ts';
import { listServerTools } from '#core/mcp/protocol.ts';

/**
 * Tool servers in the agent's hands, against real MCP servers started here from npm:
 * server-everything over Streamable HTTP, and server-memory (stdio only) bridged to it.
 */

const WEBLLM: InferenceSettings = {
  provider: 'webllm',
  webllmModel: 'SmolLM2-360M-Instruct-q4f32_1-MLC',
  limits: {},
  confidenceCap: 0.7,
};
const FACTS = 'Mars,is-a,Planet\nMars,orbits,Sun\n';
const FINAL = JSON.stringify({ kind: 'final', answer: 'Zorblax is a moon.', triples: [] });
const call = (tool: string, input: unknown): ScriptedReply => ({
  text: JSON.stringify({ kind: 'tool_call', tool, input }),
});

let everything: RunningServer;
let memory: RunningServer;
let memoryFile: string;

beforeAll(async () => {
  everything = await startEverythingServer();
  memoryFile = join(mkdtempSync(join(tmpdir(), 'anima-mcp-')), 'memory.jsonl');
  memory = await startMemoryServer(memoryFile);
}, 40_000);
afterAll(async () => {
  await everything?.stop();
  await memory?.stop();
});

/** A session whose goal only the model can answer ("What is Zorblax"), with a scripted engine in WebLLM's place. */
async function session(script: ScriptedReply[], indexedDb = freshIndexedDb()) {
  const engine = new ScriptedEngine(script);
  const host = new ScriptedWebLlmHost(engine);
  host.cached.add(WEBLLM.webllmModel!);
  const { db, service } = testService({ db: new AnimaDatabase('anima', indexedDb), providerReach: { webLlm: host } });
  const { session } = await service.open({});
  return { db, service, sessionId: session.id, engine, indexedDb };
}

type Service = Awaited<ReturnType<typeof session>>['service'];

async function withGoal(service: Service, sessionId: string) {
  await service.kgImport({ sessionId, operationId: 'op', fileName: 'mars.csv', data: FACTS });
  await service.goalAdd({ sessionId, description: 'What is Zorblax', criteria: 'Zorblax is-a ?x' });
}

async function run(service: Service, sessionId: string, maxCycles: number) {
  const cycles: CycleRecord[] = [];
  await service.agentRun({ sessionId, operationId: 'run', maxCycles, inference: WEBLLM }, (record) =>
    cycles.push(record),
  );
  return cycles;
}

async function addEverything(service: Service, sessionId: string, grant: string[]) {
  const added = await service.toolServerSet({ sessionId, server: { name: 'everything', url: everything.url } });
  expect(added.ok).toBe(true);
  for (const tool of grant)
    expect((await service.toolServerGrant({ sessionId, server: 'everything', tool, isGranted: true })).ok).toBe(true);
}

const toolServerRows = async (db: AnimaDatabase) =>
  (await db.provenance.toArray()).filter((row) => row.kind === 'tool-server');

describe('tool servers (MCP) as tool providers', () => {
  it('lists a server’s tools with their schemas and annotations, and grants them by name', async () => {
    const { service, sessionId } = await session([]);
    const added = await service.toolServerSet({ sessionId, server: { name: 'everything', url: everything.url } });
    if (!added.ok) throw new Error(added.problems[0]!.message);
    const echo = added.server.tools.find((tool) => tool.name === 'echo')!;
    expect(echo.inputSchema).toMatchObject({ type: 'object', required: ['message'] });
    expect(echo.annotations).toMatchObject({ readOnlyHint: true });
    expect(added.server.granted).toEqual([]);

    const memoryAdded = await service.toolServerSet({ sessionId, server: { name: 'memory', url: memory.url } });
    if (!memoryAdded.ok) throw new Error(memoryAdded.problems[0]!.message);
    expect(memoryAdded.server.tools.find((tool) => tool.name === 'create_entities')!.annotations).toMatchObject({
      readOnlyHint: false,
    });

    expect(
      await service.toolServerGrant({ sessionId, server: 'everything', tool: 'no-such', isGranted: true }),
    ).toMatchObject({
      ok: false,
      problems: [{ message: expect.stringContaining('the tool server everything lists no tool "no-such"') }],
    });
    await service.toolServerGrant({ sessionId, server: 'everything', tool: 'echo', isGranted: true });
    const { servers } = await service.toolServerList({ sessionId });
    expect(servers.map((server) => [server.name, server.granted])).toEqual([
      ['everything', ['echo']],
      ['memory', []],
    ]);
  }, 30_000);

  it('refuses a server that does not answer, saying why, and stores nothing', async () => {
    const { service, sessionId } = await session([]);
    const refused = await service.toolServerSet({
      sessionId,
      server: { name: 'gone', url: 'http://127.0.0.1:9/mcp' },
    });
    expect(refused).toMatchObject({
      ok: false,
      reason: 'unreachable',
      problems: [{ path: 'url', message: expect.stringContaining('the tool server gone cannot be reached') }],
    });
    expect((await service.toolServerList({ sessionId })).servers).toEqual([]);
  }, 30_000);

  it('offers granted tools to the model, sends a schema error back naming the field, and keeps the call with provenance', async () => {
    const { db, service, sessionId, engine } = await session([
      call('mcp.everything.get-sum', { a: 'one', b: 2 }),
      call('mcp.everything.get-sum', { a: 1, b: 2 }),
      { text: FINAL },
    ]);
    await withGoal(service, sessionId);
    await addEverything(service, sessionId, ['get-sum']);
    const cycles = await run(service, sessionId, 2);
    expect(cycles.map((record) => record.tool)).toEqual(['kg_query', 'reason']);
    // The tool was offered, with its schema.
    expect(engine.requests[0]!.messages.at(-1)!.content).toContain('- mcp.everything.get-sum: ');
    // The bad input went back to the model, naming the field; nothing was sent for it.
    expect(engine.requests[1]!.messages.at(-1)!.content).toContain(
      'at input.a: mcp.everything.get-sum does not take this input',
    );
    // The server's answer reached the model.
    expect(engine.requests[2]!.messages.at(-1)!.content).toContain('The sum of 1 and 2 is 3');
    const rows = await toolServerRows(db);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sources).toEqual([
      'server:everything',
      'tool:get-sum',
      expect.stringMatching(/^input:[0-9a-f]{64}$/),
      expect.stringMatching(/^goal:\d+$/),
    ]);
    expect(rows[0]!.detail).toContain('The sum of 1 and 2 is 3');
  }, 30_000);

  it('lets a veto pattern name a whole server: the call is refused and never sent', async () => {
    const { db, service, sessionId, engine } = await session([
      call('mcp.everything.echo', { message: 'hi' }),
      { text: FINAL },
    ]);
    await withGoal(service, sessionId);
    await addEverything(service, sessionId, ['echo']);
    const imported = await service.psycheImport({
      sessionId,
      toml: '[[shadow.veto_patterns]]\nname = "no-everything"\ntriggers = ["mcp.everything"]\nseverity = 1.0\nexplanation = "That server is not to be used."\n',
    });
    expect(imported.ok).toBe(true);
    await run(service, sessionId, 2);
    expect(engine.requests[1]!.messages.at(-1)!.content).toContain(
      'the agent\'s shadow blocks this (no-everything: "mcp.everything" in the action)',
    );
    expect(await toolServerRows(db)).toEqual([]);
  }, 30_000);

  it('holds a call of a tool not marked read-only for approval, and carries it out once approved after a reload', async () => {
    const first = await session([
      call('mcp.memory.create_entities', {
        entities: [{ name: 'Zorblax', entityType: 'moon', observations: ['orbits Kepler'] }],
      }),
      { text: FINAL },
    ]);
    await withGoal(first.service, first.sessionId);
    expect(
      (await first.service.toolServerSet({ sessionId: first.sessionId, server: { name: 'memory', url: memory.url } }))
        .ok,
    ).toBe(true);
    await first.service.toolServerGrant({
      sessionId: first.sessionId,
      server: 'memory',
      tool: 'create_entities',
      isGranted: true,
    });
    const cycles = await run(first.service, first.sessionId, 3);
    expect(cycles.at(-1)!.outcome).toBe('waiting');
    const [pending] = (await first.service.approvalList({ sessionId: first.sessionId, limit: 10 })).approvals;
    expect(pending).toMatchObject({
      tool: 'mcp.memory.create_entities',
      status: 'pending',
      pattern: 'not-read-only',
      because: 'the tool server memory does not mark create_entities read-only',
    });
    // Nothing reached the server yet.
    expect(await toolServerRows(first.db)).toEqual([]);
    first.db.close();

    // The app reloads: a new database connection and service over the same storage.
    const second = await session([], first.indexedDb);
    expect(
      (
        await second.service.approvalDecide({
          sessionId: second.sessionId,
          approvalId: pending!.id,
          decision: 'approve',
        })
      ).ok,
    ).toBe(true);
    const after = await run(second.service, second.sessionId, 1);
    expect(after[0]!.decide).toContain(`mcp.memory.create_entities: carrying out approved action #${pending!.id}`);
    const [row] = await toolServerRows(second.db);
    expect(row!.sources.slice(0, 2)).toEqual(['server:memory', 'tool:create_entities']);
    expect((await second.service.approvalList({ sessionId: second.sessionId, limit: 10 })).approvals[0]!.status).toBe(
      'done',
    );
    // The real server keeps the entity.
    const graph = await listAndRead();
    expect(graph).toContain('Zorblax');
  }, 40_000);

  it('fails the tools of a server that stopped mid-run with the reason, and the run goes on', async () => {
    const stopping = await startEverythingServer();
    const { db, service, sessionId, engine } = await session([
      call('mcp.passing.echo', { message: 'hi' }),
      { text: FINAL },
    ]);
    await withGoal(service, sessionId);
    expect((await service.toolServerSet({ sessionId, server: { name: 'passing', url: stopping.url } })).ok).toBe(true);
    await service.toolServerGrant({ sessionId, server: 'passing', tool: 'echo', isGranted: true });
    await stopping.stop();
    const cycles = await run(service, sessionId, 2);
    expect(engine.requests[1]!.messages.at(-1)!.content).toContain('the tool server passing cannot be reached');
    // The model still answered: the goal went on to its answer.
    expect(cycles.map((record) => record.tool)).toEqual(['kg_query', 'reason']);
    expect(cycles[1]!.outcome).not.toBe('waiting');
    const [row] = await toolServerRows(db);
    expect(row!.detail).toMatch(/^failed to call echo of the tool server passing/);
  }, 40_000);

  it('keeps an image a tool returned, with its provenance', async () => {
    const { db, service, sessionId } = await session([]);
    await addEverything(service, sessionId, ['get-tiny-image']);
    const called = await service.toolServerCall({ sessionId, server: 'everything', tool: 'get-tiny-image', input: {} });
    if (!called.ok) throw new Error(called.problems[0]!.message);
    expect(called.media).toEqual([{ kind: 'image', mimeType: 'image/png', bytes: expect.any(Number) }]);
    const row = await db.provenance.get(called.provenanceId);
    expect(row!.sources.slice(0, 2)).toEqual(['server:everything', 'tool:get-tiny-image']);
    expect(row!.detail).toMatch(/image image\/png, \d+ bytes: data:image\/png;base64,iVBORw0KGgo/);
  }, 30_000);

  it('keeps an image a model’s tool call returned as the goal’s artifact, for the user to see', async () => {
    const { service, sessionId } = await session([call('mcp.everything.get-tiny-image', {}), { text: FINAL }]);
    await withGoal(service, sessionId);
    await addEverything(service, sessionId, ['get-tiny-image']);
    const cycles = await run(service, sessionId, 2);
    expect(cycles.map((record) => record.tool)).toEqual(['kg_query', 'reason']);
    const { artifacts } = await service.artifactList({ sessionId });
    expect(artifacts).toEqual([
      expect.objectContaining({
        tool: 'mcp.everything.get-tiny-image',
        server: 'everything',
        cycle: 2,
        kind: 'image',
        mediaType: 'image/png',
        name: expect.stringMatching(/^get-tiny-image-[0-9a-f]{12}-1\.png$/),
      }),
    ]);
    const read = await service.artifactRead({ sessionId, id: artifacts[0]!.id });
    if (!read.ok) throw new Error(read.problems[0]!.message);
    // The PNG signature: the server's bytes, decoded, not its base64 text.
    expect([...read.bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  }, 40_000);

  it('keeps a server key on the device only: stored apart, never in an export, forgotten with the server', async () => {
    const { db, service, sessionId } = await session([]);
    const added = await service.toolServerSet({
      sessionId,
      server: { name: 'everything', url: everything.url, keyHeader: 'Authorization' },
      key: 'Bearer very-secret-mcp-token-777',
    });
    expect(added).toMatchObject({ ok: true, server: { keyStored: true, keyHeader: 'Authorization' } });
    const kept = JSON.stringify([await db.sessions.toArray(), await exportSnapshot(db, sessionId)]);
    expect(kept).not.toContain('very-secret-mcp-token-777');
    expect((await storedSecrets(db)).map((secret) => secret.value)).toContain('very-secret-mcp-token-777');
    expect((await service.toolServerRemove({ sessionId, name: 'everything' })).ok).toBe(true);
    expect((await storedSecrets(db)).map((secret) => secret.value)).not.toContain('very-secret-mcp-token-777');
  }, 30_000);
});

/** What the memory server holds now, as its read_graph tool says. */
async function listAndRead(): Promise<string> {
  const { callServerTool } = await import('#core/mcp/protocol.ts');
  const server = { name: 'memory', url: memory.url, tools: [], granted: [] };
  expect((await listServerTools(server)).ok).toBe(true);
  const read = await callServerTool(server, 'read_graph', {});
  if (!read.ok) throw new Error(read.reason);
  return read.text;
}
