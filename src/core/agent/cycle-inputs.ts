import { withKeys } from '#core/secrets.ts';
import type { AnimaDatabase, SettingRecord } from '#core/store/database.ts';
import type { SessionRecord } from '#core/store/session.ts';
import type { MemoryEntry } from '#core/records/memory-entry.ts';
import type { PsycheVersion } from '#core/records/psyche-version.ts';
import type { Approval } from '#core/records/approval.ts';
import type { Plan } from '#core/records/plan.ts';
import type { Job } from '#core/records/job.ts';
import { TOOLS } from '#core/tools/registry.ts';
import { byAttention } from './cycle.ts';
import { latestPsycheRead, psycheOrDefault } from '#core/psyche/psyche-store.ts';
import { readWornPersona, wearPersona } from '#core/personas/worn-persona.ts';
import type { ModelAccess } from '#core/llm/model-access.ts';
import { endpointKeySetting, endpointKeysSchema, type ReachableEndpoint } from '#core/records/sparql-endpoint.ts';
import { toolServerKeySetting, toolServerKeysSchema } from '#core/records/tool-server.ts';
import { DEFAULT_WEB_ACCESS, WEB_ACCESS_KEY, webAccessSchema } from '#core/tools/web-access.ts';
import { type Goal, type GoalStatus, hasGoalEnded } from '#core/records/goal.ts';
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

/** The order of open goals as their index gives them: active, then suspended, then waiting; each by id. */
const OPEN_STATUS_ORDER: readonly GoalStatus[] = ['active', 'suspended', 'waiting'];
const byId = (a: { id?: number }, b: { id?: number }) => a.id! - b.id!;

/**
 * What a cycle reads from the database before it decides: from the database's mirror when it
 * holds them (the agent wrote them itself), otherwise in one read transaction.
 */
export async function readCycleInputs(db: AnimaDatabase, sessionId: string) {
  const deviceSettingKeys = [WEB_ACCESS_KEY, endpointKeySetting(sessionId), toolServerKeySetting(sessionId)];
  const [sessions, goals, memory, episodes, psyches, approved, deviceSettings, activePlans, finishedJobs] =
    await db.mirror.readAll<
      [SessionRecord, Goal, MemoryEntry, Episode, PsycheVersion, Approval, SettingRecord, Plan, Job]
    >(
      [
        {
          key: `session:${sessionId}`,
          table: 'sessions',
          matches: (row) => row.id === sessionId,
          order: () => 0,
          load: async () => [await db.sessions.get(sessionId)].filter((row) => row !== undefined),
        },
        {
          key: `open-goals:${sessionId}`,
          table: 'goals',
          matches: (row) => row.sessionId === sessionId && !hasGoalEnded(row.status),
          order: (a, b) => OPEN_STATUS_ORDER.indexOf(a.status) - OPEN_STATUS_ORDER.indexOf(b.status) || byId(a, b),
          // Only the goals still open: an ended goal is never worked on again, and a long run's ended
          // goals (each with its findings) made every cycle slower to read. Two reads: 'active', and
          // 'suspended' to 'waiting' (no status sorts between them); one cursor over the three (anyOf)
          // took longer than three reads, and three took longer than two.
          load: () =>
            Promise.all([
              db.goals.where('[sessionId+status]').equals([sessionId, 'active']).toArray(),
              db.goals
                .where('[sessionId+status]')
                .between([sessionId, 'suspended'], [sessionId, 'waiting'], true, true)
                .toArray(),
            ]).then((byStatus) => byStatus.flat()),
        },
        {
          key: `working-memory:${sessionId}`,
          table: 'workingMemory',
          matches: (row) => row.sessionId === sessionId,
          order: byId,
          load: () => db.workingMemory.where('sessionId').equals(sessionId).sortBy('id'),
        },
        {
          key: `recalled-episodes:${sessionId}`,
          table: 'episodes',
          matches: (row) => row.sessionId === sessionId,
          newest: { count: EPISODES_RECALLED_BY_A_CYCLE, rank: (row) => row.id! },
          order: byId,
          // Newest first (an index keeps equal keys in id order), put back in id order.
          load: async () =>
            (
              await db.episodes
                .where('sessionId')
                .equals(sessionId)
                .reverse()
                .limit(EPISODES_RECALLED_BY_A_CYCLE)
                .toArray()
            ).reverse(),
        },
        latestPsycheRead(db, sessionId),
        {
          key: `approved:${sessionId}`,
          table: 'approvals',
          matches: (row) => row.sessionId === sessionId && row.status === 'approved',
          order: byId,
          // Read in index order (equal statuses in id order), then kept to the session: a filter on
          // the query would read through a cursor, a request per approval.
          load: async () =>
            (await db.approvals.where('status').equals('approved').toArray()).filter(
              (approval) => approval.sessionId === sessionId,
            ),
        },
        {
          // The device settings a cycle needs: web access, the session's endpoint and tool server keys.
          key: `cycle-settings:${sessionId}`,
          table: 'settings',
          matches: (row) => deviceSettingKeys.includes(row.key),
          order: (a, b) => deviceSettingKeys.indexOf(a.key) - deviceSettingKeys.indexOf(b.key),
          load: async () => (await db.settings.bulkGet(deviceSettingKeys)).filter((row) => row !== undefined),
        },
        {
          key: `active-plans:${sessionId}`,
          table: 'plans',
          matches: (row) => row.sessionId === sessionId && row.status === 'active',
          order: byId,
          load: () => db.plans.where('[sessionId+status]').equals([sessionId, 'active']).toArray(),
        },
        {
          key: `finished-jobs:${sessionId}`,
          table: 'jobs',
          matches: (row) => row.sessionId === sessionId && (row.status === 'failed' || row.status === 'finished'),
          order: byId,
          // 'failed' and 'finished' are adjacent in the index (no status sorts between them): one
          // range query, where anyOf read through a cursor.
          load: () =>
            db.jobs
              .where('[sessionId+status]')
              .between([sessionId, 'failed'], [sessionId, 'finished'], true, true)
              .sortBy('id'),
        },
      ],
      (load) =>
        db.transaction(
          'r',
          [
            db.sessions,
            db.goals,
            db.workingMemory,
            db.episodes,
            db.psyches,
            db.approvals,
            db.settings,
            db.plans,
            db.jobs,
          ],
          load,
        ),
    );
  const session = sessions[0];
  const setting = (key: string) => deviceSettings.find((row) => row.key === key)?.value;
  const [webAccessSetting, endpointKeys, toolServerKeys] = deviceSettingKeys.map(setting);
  const psyche = psycheOrDefault(sessionId, psyches[0]);
  if (!session) throw new Error(`no session with id ${sessionId}`);
  // A stored setting that no longer reads (an older shape) allows nothing.
  const webAccess = webAccessSchema.safeParse(webAccessSetting).data ?? DEFAULT_WEB_ACCESS;
  // The session's endpoints and tool servers with their stored keys, as reachableEndpoints and
  // reachableToolServers give them, from the session and settings read above.
  const sparqlEndpoints = withKeys(session.sparqlEndpoints, endpointKeysSchema.safeParse(endpointKeys).data ?? {});
  const toolServers = withKeys(session.toolServers, toolServerKeysSchema.safeParse(toolServerKeys).data ?? {});
  // The worn persona's guardrails join the shadow for this cycle's decisions.
  const worn = session.personaId !== undefined ? await readWornPersona(db, sessionId) : undefined;
  const acting = { ...psyche, psyche: wearPersona(psyche.psyche, worn) };
  return {
    toolServers,
    session,
    goals,
    memory,
    episodes,
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
