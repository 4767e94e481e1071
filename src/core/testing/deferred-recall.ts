import type { CycleRecord } from '#core/api.ts';
import { runCycle } from '#core/agent/run-cycle.ts';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import { cachedEmbeddings } from '#core/llm/embedding-cache.ts';
import { openAiEmbedder } from '#core/llm/openai-embeddings.ts';
import { AnimaDatabase } from '#core/store/database.ts';
import { loadGraph } from '#core/store/kg-repository.ts';
import { memoryRecall } from '#core/tools/memory-recall.ts';
import { defineTool } from '#core/tools/tool.ts';
import { startOpenAiServer } from './openai-server.ts';
import { freshIndexedDb, testService } from './test-database.ts';

/** How many episodes the session has by default: more than a cycle embeds, so memory_recall defers the rest. */
export const RECALL_EPISODES = 100;
/** The key of the session's embeddings endpoint (a device secret). */
export const RECALL_ENDPOINT_KEY = 'sk-background-secret';

/** An embedding by topic: canines one way, rockets and planets another. */
export const byTopic = (text: string) => [
  0.05,
  /wol|dog|canine/i.test(text) ? 1 : 0,
  /rocket|planet/i.test(text) ? 1 : 0,
];

/**
 * A session whose goal ("Find canines") has more episodes to recall than a cycle embeds, with an
 * embedder bound (an endpoint's `topics` model, served here) and the device's endpoint set;
 * `refuse` makes the endpoint refuse every request after the first two. Close the server when done.
 */
export async function sessionWithManyEpisodes(
  indexedDb: ReturnType<typeof freshIndexedDb> = freshIndexedDb(),
  options: { refuse?: boolean; episodes?: number } = {},
) {
  const episodes = options.episodes ?? RECALL_EPISODES;
  let requests = 0;
  const server = await startOpenAiServer([], {
    embeddings: (input, request) =>
      options.refuse && requests++ > 1
        ? { status: 401, body: JSON.stringify({ error: { message: `bad key ${request.authorization}` } }) }
        : input.map(byTopic),
  });
  const endpoint = { baseUrl: server.baseUrl, model: 'topics', apiKey: RECALL_ENDPOINT_KEY };
  const { db, service } = testService({ db: new AnimaDatabase('anima', indexedDb) });
  const { session } = await service.open({});
  const sessionId = session.id;
  await service.kgImport({ sessionId, operationId: 'op', fileName: 'zoo.csv', data: 'Wolf,is-a,Canine\n' });
  await service.goalAdd({ sessionId, description: 'Find canines', criteria: '?x is-a unicorn' });
  const canine = (await service.kgSearch({ sessionId, text: 'Canine' })).hits[0]!.symbol.id;
  await db.episodes.bulkAdd(
    Array.from({ length: episodes }, (_, index) => ({
      sessionId,
      summary: index === 7 ? 'the wolves were found' : `episode about rockets number ${index}`,
      // Two episodes learned about the goal's symbol (one among the latest a cycle reads): memory_recall has something to offer.
      learnings: index === 7 || index === episodes - 1 ? [canine] : [],
      tools: [],
      timestamp: index,
      cycle: 0,
    })),
  );
  await service.embedderSet({ sessionId, embedder: { provider: 'openai-compatible', model: 'topics' } });
  await service.inferenceSet({ settings: { provider: 'none', openAi: endpoint, limits: {}, confidenceCap: 0.7 } });
  const embedded = () => server.requests.flatMap((request) => request.body.input as string[]);
  return { db, service, sessionId, endpoint, embedded, close: server.close };
}

/** One cycle in which memory_recall is the only tool: with more episodes than it embeds, it defers the rest. */
export async function recallCycle(
  db: AnimaDatabase,
  sessionId: string,
  endpoint: Parameters<typeof openAiEmbedder>[0],
): Promise<CycleRecord> {
  const graph = await loadGraph(db, sessionId);
  return (await runCycle({
    db,
    sessionId,
    graph,
    similarity: new SimilarityIndex(graph),
    now: () => 7,
    documents: [],
    tools: [defineTool(memoryRecall)],
    embeddings: cachedEmbeddings(db, openAiEmbedder(endpoint)),
  }))!;
}
