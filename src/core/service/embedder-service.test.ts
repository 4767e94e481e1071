import { afterEach, describe, expect, it } from 'vitest';
import type { CycleRecord } from '#core/api.ts';
import type { InferenceSettings } from '#core/llm/inference-settings.ts';
import { startOpenAiServer, type ServerRequest } from '#core/testing/openai-server.ts';
import { testService } from '#core/testing/test-database.ts';
import { runCycle } from '#core/agent/run-cycle.ts';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import { cachedEmbeddings } from '#core/llm/embedding-cache.ts';
import { openAiEmbedder } from '#core/llm/openai-embeddings.ts';
import { loadGraph } from '#core/store/kg-repository.ts';
import { similaritySearch } from '#core/tools/similarity-search.ts';
import { defineTool } from '#core/tools/tool.ts';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** Words of two topics: an embedding model that knows canines are animals and rockets are not. */
const TOPICS = [
  ['dog', 'dogs', 'wolf', 'wolves', 'canine', 'canines', 'pack', 'howl', 'mammal'],
  ['planet', 'planets', 'rocket', 'rockets', 'mars', 'orbit'],
];
const byTopic = (text: string) => {
  const words = text.toLowerCase().split(/[^a-z]+/);
  return [0.05, ...TOPICS.map((topic) => words.filter((word) => topic.includes(word)).length)];
};

const FACTS = 'Dog,is-a,Mammal\nWolf,is-a,Mammal\nMars,is-a,Planet\n';

/** A session with two episodes: one about wolves (no word in common with the goal), one sharing the goal's first word. */
async function sessionWithEpisodes() {
  const { db, service } = testService();
  const { session } = await service.open({});
  const sessionId = session.id;
  await service.kgImport({ sessionId, operationId: 'op', fileName: 'zoo.csv', data: FACTS });
  await service.goalAdd({ sessionId, description: 'Find canines', criteria: '?x is-a canine' });
  const episode = { sessionId, learnings: [], tools: [], timestamp: 1, cycle: 0 };
  const [wolves, rockets] = (await db.episodes.bulkAdd(
    [
      { ...episode, summary: 'wolves howl with the pack' },
      { ...episode, summary: 'find the planets, find the rockets' },
    ],
    { allKeys: true },
  )) as number[];
  return { db, service, sessionId, wolves: wolves!, rockets: rockets! };
}

async function serverOfTopics(options: { refuse?: boolean } = {}) {
  const server = await startOpenAiServer([], {
    embeddings: (input, request: ServerRequest) =>
      options.refuse
        ? { status: 401, body: JSON.stringify({ error: { message: `no such key: ${request.authorization}` } }) }
        : input.map(byTopic),
  });
  close = server.close;
  const inference: InferenceSettings = {
    provider: 'none',
    openAi: { baseUrl: server.baseUrl, model: 'chat', apiKey: 'sk-embedding-secret' },
    limits: {},
    confidenceCap: 0.7,
  };
  const embedded = () => server.requests.flatMap((request) => request.body.input as string[]);
  return { server, inference, embedded };
}

async function oneCycle(
  service: ReturnType<typeof testService>['service'],
  sessionId: string,
  inference?: InferenceSettings,
): Promise<CycleRecord> {
  const cycles: CycleRecord[] = [];
  await service.agentRun(
    { sessionId, operationId: 'run', maxCycles: 1, ...(inference ? { inference } : {}) },
    (record) => cycles.push(record),
  );
  return cycles[0]!;
}

describe('an embedder bound to a session', () => {
  it('changes what recall ranks first, says so in the cycle log, and embeds each text once across runs', async () => {
    const { service, sessionId, wolves, rockets } = await sessionWithEpisodes();
    const { inference, embedded } = await serverOfTopics();

    const byWords = await oneCycle(service, sessionId, inference);
    expect(byWords.observe).toContain(`recalled episode ${rockets} `);
    expect(byWords.observe).not.toContain(`episode ${wolves} `);
    expect(byWords.observe).toMatch(/\) by hypervectors;/);

    const set = await service.embedderSet({ sessionId, embedder: { provider: 'openai-compatible', model: 'topics' } });
    expect(set).toEqual({ ok: true, embedder: { provider: 'openai-compatible', model: 'topics' } });
    expect(await service.embedderGet({ sessionId })).toEqual({ embedder: set.ok && set.embedder });

    const byMeaning = await oneCycle(service, sessionId, inference);
    expect(byMeaning.observe).toMatch(new RegExp(`recalled episode ${wolves} \\(1\\.00\\).* by embeddings of topics;`));
    const sent = embedded();
    expect(sent).toEqual(expect.arrayContaining(['Find canines', 'wolves howl with the pack']));

    // The next run reads the vectors kept on the device: no text is sent twice.
    await oneCycle(service, sessionId, inference);
    expect(new Set(embedded()).size).toBe(embedded().length);
    expect(embedded().filter((text) => text === 'wolves howl with the pack')).toHaveLength(1);

    // Unbound: hypervectors again.
    expect(await service.embedderSet({ sessionId, embedder: null })).toEqual({ ok: true });
    expect((await oneCycle(service, sessionId, inference)).observe).toMatch(/\) by hypervectors;/);
  });

  it('falls back to hypervectors when the embedder fails, saying why with the key redacted', async () => {
    const { service, sessionId, rockets } = await sessionWithEpisodes();
    const { inference, server } = await serverOfTopics({ refuse: true });
    await service.embedderSet({ sessionId, embedder: { provider: 'openai-compatible', model: 'topics' } });
    const record = await oneCycle(service, sessionId, inference);
    expect(record.observe).toContain(`recalled episode ${rockets} `);
    expect(record.observe).toContain(
      `by hypervectors (the embedder failed: ${server.baseUrl}/embeddings answered HTTP 401: no such key: Bearer [redacted])`,
    );
    expect(JSON.stringify(record)).not.toContain('sk-embedding-secret');
  });

  it('says in words why a choice is refused, and changes nothing', async () => {
    const { service, sessionId } = await sessionWithEpisodes();
    expect(await service.embedderSet({ sessionId, embedder: { provider: 'bert', model: 'x' } })).toEqual({
      ok: false,
      problems: [{ path: 'embedder.provider', message: 'the embedder is openai-compatible, gguf or webllm' }],
    });
    expect(await service.embedderSet({ sessionId, embedder: { provider: 'gguf', model: 'nomic-embed' } })).toEqual({
      ok: false,
      problems: [
        {
          path: 'embedder.model',
          message: 'there is no GGUF model nomic-embed on this device: add it on the Models screen first',
        },
      ],
    });
    expect(
      await service.embedderSet({ sessionId, embedder: { provider: 'openai-compatible', model: ' ' } }),
    ).toMatchObject({
      ok: false,
      problems: [{ path: 'embedder.model', message: 'name the embedding model' }],
    });
    expect(await service.embedderGet({ sessionId })).toEqual({});
  });

  it('says when the bound embedder cannot be had: no endpoint to reach', async () => {
    const { service, sessionId } = await sessionWithEpisodes();
    await service.embedderSet({ sessionId, embedder: { provider: 'openai-compatible', model: 'topics' } });
    const record = await oneCycle(service, sessionId, { provider: 'none', limits: {}, confidenceCap: 0.7 });
    expect(record.observe).toContain(
      'by hypervectors (the embedder cannot be had: no OpenAI-compatible endpoint is set: give its base URL (and key) in the language model settings, where the embedder reaches it)',
    );
    expect(await service.embedderCheck({ sessionId, operationId: 'check' })).toMatchObject({ ok: false });
  });
});

describe('similarity_search with an embedder', () => {
  it("ranks the graph's candidates by their labels' embeddings, where hypervectors see only the shared facts", async () => {
    const { db, service } = testService();
    const { session } = await service.open({});
    const sessionId = session.id;
    await service.kgImport({
      sessionId,
      operationId: 'op',
      fileName: 'zoo.csv',
      data: 'Dog,is-a,Mammal\nWolf,is-a,Mammal\nRocket,is-a,Mammal\nWhale,is-a,Mammal\n',
    });
    await service.goalAdd({ sessionId, description: 'Find things like Dog', criteria: '?x is-a canine' });
    const { server } = await serverOfTopics();
    const graph = await loadGraph(db, sessionId);
    const cycle = (embeddings?: ReturnType<typeof cachedEmbeddings>) =>
      runCycle({
        db,
        sessionId,
        graph,
        similarity: new SimilarityIndex(graph),
        now: () => 5,
        documents: [],
        tools: [defineTool(similaritySearch)],
        ...(embeddings ? { embeddings } : {}),
      });
    // The three share Dog's one fact alike: hypervectors tie them, and the labels decide.
    expect((await cycle())!.act).toMatch(
      /^nearest to Dog by hypervectors: Rocket \(1\.00\), Whale \(1\.00\), Wolf \(1\.00\)/,
    );
    const embeddings = cachedEmbeddings(db, openAiEmbedder({ baseUrl: server.baseUrl, model: 'topics' }));
    expect((await cycle(embeddings))!.act).toMatch(
      /^nearest to Dog by embeddings of topics: Mammal \(1\.00\), Wolf \(1\.00\), Whale \(0\.\d\d\), Rocket \(0\.\d\d\)/,
    );
  });
});
