import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import { ScriptedEngine } from '#core/testing/scripted-engine.ts';
import { scriptedWebLlmEmbeddings } from '#core/testing/scripted-webllm-embeddings.ts';
import { ScriptedWebLlmHost } from '#core/testing/scripted-webllm-host.ts';
import { testService } from '#core/testing/test-database.ts';

const MODEL = 'snowflake-arctic-embed-s-q0f32-MLC-b4';

/** An embedding model that knows canines are alike and rockets are not: a count of each topic's words. */
const TOPICS = [
  ['dog', 'wolf', 'wolves', 'canine', 'canines', 'pack', 'howl', 'cat', 'kitten'],
  ['planet', 'planets', 'rocket', 'rockets'],
];
const byTopic = (text: string) => {
  const words = text.toLowerCase().split(/[^a-z]+/);
  return [0.05, ...TOPICS.map((topic) => words.filter((word) => topic.includes(word)).length)];
};

/** A session with two episodes: one about wolves (no word in common with the goal), one sharing the goal's first word. */
async function sessionWithEpisodes(host?: ScriptedWebLlmHost) {
  const { db, service } = testService(host ? { providerReach: { webLlm: host } } : {});
  const { session } = await service.open({});
  const sessionId = session.id;
  await service.goalAdd({ sessionId, description: 'Find canines', criteria: '?x is-a canine' });
  const episode = { sessionId, learnings: [], tools: [], timestamp: 1, cycle: 0 };
  const [wolves, rockets] = (await db.episodes.bulkAdd(
    [
      { ...episode, summary: 'wolves howl with the pack' },
      { ...episode, summary: 'find the planets, find the rockets' },
    ],
    { allKeys: true },
  )) as number[];
  return { service, sessionId, wolves: wolves!, rockets: rockets! };
}

async function oneCycle(service: ReturnType<typeof testService>['service'], sessionId: string): Promise<CycleRecord> {
  const cycles: CycleRecord[] = [];
  await service.agentRun({ sessionId, operationId: 'run', maxCycles: 1 }, (record) => cycles.push(record));
  return cycles[0]!;
}

describe("WebLLM's embedding models as the session's embedder", () => {
  it('are downloaded by the check, never by a run, and then rank recall by meaning', async () => {
    const engine = scriptedWebLlmEmbeddings(MODEL, byTopic);
    const host = new ScriptedWebLlmHost(new ScriptedEngine([]), undefined, () => engine);
    const { service, sessionId, wolves } = await sessionWithEpisodes(host);
    expect(await service.embedderSet({ sessionId, embedder: { provider: 'webllm', model: MODEL } })).toEqual({
      ok: true,
      embedder: { provider: 'webllm', model: MODEL },
    });

    const before = await oneCycle(service, sessionId);
    expect(before.observe).toContain(
      `by hypervectors (the embedder cannot be had: ${MODEL} is not downloaded yet: check the embedder on the Settings screen to download it)`,
    );
    expect(host.embedderLoads).toEqual([]);

    const check = await service.embedderCheck({ sessionId, operationId: 'check' });
    expect(check).toMatchObject({ ok: true, check: { provider: 'webllm', model: MODEL, dimensions: 3 } });
    expect(check.ok && check.check.similarity).toBeCloseTo(1, 2);
    expect(host.embedderLoads).toEqual([MODEL]);

    const after = await oneCycle(service, sessionId);
    expect(after.observe).toMatch(new RegExp(`recalled episode ${wolves} \\(1\\.00\\).* by embeddings of ${MODEL};`));
    // Kept on the GPU between runs, apart from any chat model: not loaded again.
    expect(host.embedderLoads).toEqual([MODEL]);
    expect(engine.requests.flatMap((request) => request.input as string[])).toContain('wolves howl with the pack');
  });

  it('are refused in words where there is no WebLLM (the CLI), no usable GPU, or no such model, changing nothing', async () => {
    const inNode = await sessionWithEpisodes();
    expect(
      await inNode.service.embedderSet({ sessionId: inNode.sessionId, embedder: { provider: 'webllm', model: MODEL } }),
    ).toEqual({
      ok: false,
      problems: [
        {
          path: 'embedder.provider',
          message:
            'WebLLM runs only in the browser, on WebGPU, and there is none here: choose an OpenAI-compatible endpoint or a GGUF model to embed',
        },
      ],
    });
    expect(await inNode.service.embedderGet({ sessionId: inNode.sessionId })).toEqual({});

    const noGpu = new ScriptedWebLlmHost(new ScriptedEngine([]), { available: false, reason: 'WebGPU found no GPU' });
    const browser = await sessionWithEpisodes(noGpu);
    expect(
      await browser.service.embedderSet({
        sessionId: browser.sessionId,
        embedder: { provider: 'webllm', model: MODEL },
      }),
    ).toMatchObject({
      ok: false,
      problems: [{ path: 'embedder.provider', message: 'WebLLM cannot embed here: WebGPU found no GPU' }],
    });
    const unknown = await browser.service.embedderSet({
      sessionId: browser.sessionId,
      embedder: { provider: 'webllm', model: 'SmolLM2-360M-Instruct-q4f16_1-MLC' },
    });
    expect(unknown).toMatchObject({ ok: false, problems: [{ path: 'embedder.model' }] });
    expect(!unknown.ok && unknown.problems[0]!.message).toMatch(
      /^there is no WebLLM embedding model SmolLM2-360M-Instruct-q4f16_1-MLC: choose one of snowflake-arctic-embed-s-q0f32-MLC-b4, /,
    );
    expect(await browser.service.embedderGet({ sessionId: browser.sessionId })).toEqual({});
  });

  it('a failed download is told by the check, and recall goes on by hypervectors', async () => {
    const host = new ScriptedWebLlmHost(new ScriptedEngine([]), undefined, (id) =>
      scriptedWebLlmEmbeddings(id, byTopic),
    );
    const { service, sessionId } = await sessionWithEpisodes(host);
    await service.embedderSet({ sessionId, embedder: { provider: 'webllm', model: MODEL } });
    host.downloadFails = 'could not download: the network cannot be reached';
    expect(await service.embedderCheck({ sessionId, operationId: 'check' })).toEqual({
      ok: false,
      problems: [{ message: 'could not download: the network cannot be reached' }],
    });
    expect((await oneCycle(service, sessionId)).observe).toMatch(/by hypervectors \(the embedder cannot be had: /);
  });
});
