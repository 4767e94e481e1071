import { withKeys } from '#core/secrets.ts';
import type { AnimaDatabase } from '#core/store/database.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { byAttention } from './cycle.ts';
import { currentPsyche } from '#core/psyche/psyche-store.ts';
import { readWornPersona, wearPersona } from '#core/personas/worn-persona.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';
import { endpointKeySetting, endpointKeysSchema, type ReachableEndpoint } from '#core/records/sparql-endpoint.ts';
import { toolServerKeySetting, toolServerKeysSchema } from '#core/records/tool-server.ts';
import { DEFAULT_WEB_ACCESS, WEB_ACCESS_KEY, webAccessSchema } from '#core/tools/web-access.ts';
import type { Goal } from '#core/records/goal.ts';
import { type RecallBasis, recallBasis } from '#core/memory/embedded-recall.ts';
import type { EmbeddingAccess } from '#core/llm/embedding-cache.ts';
import type { Episode } from '#core/records/episode.ts';
import { settingsOfSession } from '#core/records/agent-settings.ts';

/**
 * How the goal the cycle will work on is compared with the episodes: by the bound embedder (its
 * vectors read before the cycle's transaction, which waits for nothing else), or by hypervectors.
 */
export async function recallOfNextGoal(
  dependencies: { embeddings?: EmbeddingAccess; embedderUnavailable?: string; model?: ModelAccess },
  goals: readonly Goal[],
  episodes: readonly Episode[],
): Promise<RecallBasis> {
  if (!dependencies.embeddings)
    return dependencies.embedderUnavailable
      ? { by: 'hypervectors', because: `the embedder cannot be had: ${dependencies.embedderUnavailable}` }
      : { by: 'hypervectors' };
  const next = goals.filter((goal) => goal.status === 'active').sort(byAttention)[0];
  if (!next) return { by: 'hypervectors' };
  return recallBasis(dependencies.embeddings, episodes, next.description, dependencies.model?.signal);
}

/**
 * The episodes a cycle recalls from: the latest this many. Reading and scoring them all made every
 * cycle of a long run slower than the one before; `memory_recall` asked by the user searches all.
 */
export const EPISODES_RECALLED_BY_A_CYCLE = 200;

/** What a cycle reads from the database before it decides, in one read transaction. */
export async function readCycleInputs(db: AnimaDatabase, sessionId: string) {
  const [
    session,
    goals,
    memory,
    episodes,
    psyche,
    approved,
    [webAccessSetting, endpointKeys, toolServerKeys],
    activePlans,
    finishedJobs,
  ] = await db.transaction(
    'r',
    [db.sessions, db.goals, db.workingMemory, db.episodes, db.psyches, db.approvals, db.settings, db.plans, db.jobs],
    () =>
      Promise.all([
        db.sessions.get(sessionId),
        // Only the goals still open: an ended goal is never worked on again, and a long run's ended
        // goals (each with its findings) made every cycle slower to read. Two reads: 'active', and
        // 'suspended' to 'waiting' (no status sorts between them); one cursor over the three (anyOf)
        // took longer than three reads, and three took longer than two.
        Promise.all([
          db.goals.where('[sessionId+status]').equals([sessionId, 'active']).toArray(),
          db.goals
            .where('[sessionId+status]')
            .between([sessionId, 'suspended'], [sessionId, 'waiting'], true, true)
            .toArray(),
        ]).then((byStatus) => byStatus.flat()),
        db.workingMemory.where('sessionId').equals(sessionId).sortBy('id'),
        // Newest first (an index keeps equal keys in id order), put back in id order below.
        db.episodes.where('sessionId').equals(sessionId).reverse().limit(EPISODES_RECALLED_BY_A_CYCLE).toArray(),
        currentPsyche(db, sessionId),
        // Read in index order (equal statuses in id order), then kept to the session: a filter on
        // the query would read through a cursor, a request per approval.
        db.approvals
          .where('status')
          .equals('approved')
          .toArray()
          .then((approvals) => approvals.filter((approval) => approval.sessionId === sessionId)),
        // The device settings a cycle needs, in one read: web access, the session's endpoint and tool server keys.
        db.settings.bulkGet([WEB_ACCESS_KEY, endpointKeySetting(sessionId), toolServerKeySetting(sessionId)]),
        db.plans.where('[sessionId+status]').equals([sessionId, 'active']).toArray(),
        // 'failed' and 'finished' are adjacent in the index (no status sorts between them): one
        // range query, where anyOf read through a cursor.
        db.jobs
          .where('[sessionId+status]')
          .between([sessionId, 'failed'], [sessionId, 'finished'], true, true)
          .sortBy('id'),
      ]),
  );
  if (!session) throw new Error(`no session with id ${sessionId}`);
  // A stored setting that no longer reads (an older shape) allows nothing.
  const webAccess = webAccessSchema.safeParse(webAccessSetting?.value).data ?? DEFAULT_WEB_ACCESS;
  // The session's endpoints and tool servers with their stored keys, as reachableEndpoints and
  // reachableToolServers give them, from the session and settings read above.
  const sparqlEndpoints = withKeys(
    session.sparqlEndpoints,
    endpointKeysSchema.safeParse(endpointKeys?.value).data ?? {},
  );
  const toolServers = withKeys(session.toolServers, toolServerKeysSchema.safeParse(toolServerKeys?.value).data ?? {});
  // The worn persona's guardrails join the shadow for this cycle's decisions.
  const worn = session.personaId !== undefined ? await readWornPersona(db, sessionId) : undefined;
  const acting = { ...psyche, psyche: wearPersona(psyche.psyche, worn) };
  return {
    toolServers,
    session,
    goals,
    memory,
    episodes: episodes.reverse(),
    psyche: acting,
    approved,
    webAccess,
    sparqlEndpoints,
    settings: settingsOfSession(session),
    activePlans,
    finishedJobs,
  };
}

/** The parts of decide's context that come from those inputs. */
export function cycleContextOf(
  inputs: Pick<
    Awaited<ReturnType<typeof readCycleInputs>>,
    'goals' | 'memory' | 'episodes' | 'psyche' | 'webAccess' | 'settings' | 'activePlans'
  > & { sparqlEndpoints?: readonly ReachableEndpoint[] },
) {
  return {
    ...(inputs.settings.planning ? { planning: { activePlans: inputs.activePlans } } : {}),
    goals: inputs.goals,
    memoryEntryCount: inputs.memory.length,
    memoryCapacity: inputs.settings.memoryCapacity,
    memoryEntries: inputs.memory,
    consolidationThreshold: inputs.settings.consolidationThreshold,
    episodes: inputs.episodes,
    webAccess: inputs.webAccess,
    ...(inputs.sparqlEndpoints ? { sparqlEndpoints: inputs.sparqlEndpoints } : {}),
    // Node (the CLI) has no navigator: it tries, and a failed fetch says why.
    isOnline: (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine ?? true,
    tools: TOOLS,
    psyche: inputs.psyche.psyche,
  };
}
