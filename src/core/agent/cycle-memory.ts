import type { AnimaDatabase } from '#core/store/database.ts';
import type { Decision } from './cycle.ts';
import type { CycleRecord } from '#core/records/cycle.ts';
import type { ToolOutcome } from '#core/tools/tool.ts';
import { type ConsolidationContext, consolidate } from '#core/memory/episodes.ts';
import type { Episode } from '#core/records/episode.ts';
import { addToMemory, memoryPressure } from '#core/memory/working-memory.ts';
import type { MemoryEntry } from '#core/records/memory-entry.ts';
import type { AgentSettings } from '#core/records/agent-settings.ts';
import type { Goal } from '#core/records/goal.ts';
import { type CommitContext, labelOf } from './commit-context.ts';

/**
 * Where a cycle consolidates working memory by itself: halfway between the session's threshold
 * (where memory_consolidate becomes a choice, favoured by the pressure term) and full, so memory
 * never reaches its capacity even when the loop keeps choosing other tools.
 */
export function automaticConsolidationPressure(threshold: number): number {
  return (threshold + 1) / 2;
}

/**
 * Consolidates the working memory entries made before cycle `before` into episodes and removes
 * them, with a provenance record; call inside a transaction over workingMemory, episodes and
 * provenance. Returns the number of episodes made, or undefined at once when there is nothing to
 * consolidate: awaiting an async function that does no database work would let Dexie lose the
 * caller's transaction, and the writes after it would commit on their own (the crash soak found it).
 */
export function consolidateMemory(
  db: AnimaDatabase,
  context: ConsolidationContext & { before: number; entries: readonly MemoryEntry[]; reason: string },
): Promise<number> | undefined {
  const { episodes, consolidated } = consolidate(context.entries, context);
  return episodes.length === 0 ? undefined : storeConsolidation(db, episodes, consolidated, context);
}

async function storeConsolidation(
  db: AnimaDatabase,
  episodes: Episode[],
  consolidated: MemoryEntry[],
  context: { sessionId: string; cycle: number; now: number; reason: string },
): Promise<number> {
  const ids = (await db.episodes.bulkAdd(episodes, { allKeys: true })) as number[];
  await db.workingMemory.bulkDelete(consolidated.flatMap((entry) => (entry.id !== undefined ? [entry.id] : [])));
  await db.provenance.add({
    sessionId: context.sessionId,
    kind: 'consolidation',
    // An entry of this cycle that goes straight to an episode was never stored: it has no id.
    sources: consolidated.map((entry) => (entry.id !== undefined ? `memory:${entry.id}` : `memory:new:${entry.kind}`)),
    confidence: 1,
    cycle: context.cycle,
    detail: `${context.reason}: ${consolidated.length} entries became episodes ${ids.join(', ')}`,
    createdAt: context.now,
  });
  return episodes.length;
}

/**
 * The entries of goals that ended become their episodes (one per goal, this cycle's entries
 * included): what was tried for a goal is kept once it can no longer use it, and its room in
 * working memory is freed. Returns the entries left at once, and the writes to await (none when
 * no entry is a goal's that ended: see {@link consolidateMemory} on awaiting nothing); call
 * inside a transaction over workingMemory, episodes and provenance.
 */
export function consolidateEndedGoals(
  db: AnimaDatabase,
  context: CommitContext,
  ended: readonly Pick<Goal, 'id' | 'status'>[],
  entries: readonly MemoryEntry[],
): { left: MemoryEntry[]; storing: Promise<number> | undefined } {
  const endedIds = new Set(ended.map((goal) => goal.id));
  const isClosing = (entry: MemoryEntry) => entry.goalId !== undefined && endedIds.has(entry.goalId);
  const closing = entries.filter(isClosing);
  const left = entries.filter((entry) => !isClosing(entry));
  if (closing.length === 0) return { left, storing: undefined };
  const label = labelOf(context);
  const storing = consolidateMemory(db, {
    sessionId: context.sessionId,
    cycle: context.cycle,
    now: context.startedAt,
    before: context.cycle + 1,
    entries: closing,
    reason: ended.map((goal) => `goal ${goal.id} ${goal.status}`).join(', '),
    ...(label ? { label } : {}),
  });
  return { left, storing };
}

/**
 * Counts a recall on each episode consulted, once per use, in one write. The episodes are those
 * the cycle read: it runs alone, so they are as stored, and reading them again cost a request each.
 */
function countRecalls(
  db: AnimaDatabase,
  episodeIds: readonly number[],
  episodes: readonly Episode[],
): Promise<unknown> {
  const uses = new Map<number, number>();
  for (const episodeId of episodeIds) uses.set(episodeId, (uses.get(episodeId) ?? 0) + 1);
  const recalled = episodes.flatMap((episode) => {
    const used = episode.id === undefined ? undefined : uses.get(episode.id);
    return used === undefined ? [] : [{ ...episode, recalls: (episode.recalls ?? 0) + used }];
  });
  return db.episodes.bulkPut(recalled);
}

/**
 * The cycle's memory work, in its transaction: memory_consolidate's move into episodes (what the
 * loop chose), the uses of what the decision consulted (entries and episodes, among those the
 * cycle `read`), the entries of the goals that ended in the cycle (its own included) become their
 * episodes, then the cycle's other entries enter working memory (the weakest entries make room,
 * with provenance), and past the automatic pressure, the earlier entries become episodes.
 */
export async function rememberCycle(
  context: CommitContext,
  decision: Decision,
  record: CycleRecord,
  outcome: ToolOutcome,
  read: { memory: MemoryEntry[]; episodes: readonly Episode[] },
  settings: AgentSettings,
  endedGoals: readonly Pick<Goal, 'id' | 'status'>[],
): Promise<void> {
  const { db, sessionId, cycle, startedAt } = context;
  const label = labelOf(context);
  let held = read.memory;
  if (outcome.consolidation) {
    const consolidating = consolidateMemory(db, {
      sessionId,
      cycle,
      now: startedAt,
      before: cycle,
      entries: held,
      reason: `memory_consolidate at ${Math.round(memoryPressure(held.length, settings.memoryCapacity) * 100)}% full`,
      ...(label ? { label } : {}),
    });
    if (consolidating) await consolidating;
    held = [];
  }
  const consulted = new Set(decision.consulted?.entryIds ?? []);
  // New objects: what was read may be shared (the database's mirror keeps its rows frozen).
  held = held.map((memoryEntry) =>
    memoryEntry.id !== undefined && consulted.has(memoryEntry.id)
      ? { ...memoryEntry, referenceCount: memoryEntry.referenceCount + 1 }
      : memoryEntry,
  );
  const recalled = decision.consulted?.episodeIds ?? [];
  if (recalled.length > 0) await countRecalls(db, recalled, read.episodes);
  const succeeded = record.outcome === 'completed' || record.outcome === 'advanced';
  const entry = (kind: MemoryEntry['kind'], content: string, symbols: number[], relevance: number): MemoryEntry => ({
    sessionId,
    content,
    symbols,
    kind,
    timestamp: startedAt,
    relevance,
    sourceCycle: cycle,
    referenceCount: 0,
    goalId: decision.goal.id,
    ...(kind === 'action' ? { tool: decision.tool.name, succeeded } : {}),
  });
  const goalSymbols = decision.state.goalSymbols.slice(0, 20);
  const newEntries = [
    entry('observation', record.observe, goalSymbols, 0.3),
    entry('decision', `chose ${record.decide}`, [], 0.4),
    // The action is about the goal's symbols too: what it tried them with, and how it went, is what an episode keeps.
    entry('action', record.act, [...new Set([...goalSymbols, ...outcome.symbols])].slice(0, 50), succeeded ? 0.8 : 0.4),
  ];
  // The entries of goals that ended, this cycle's too, go to their episodes, not back into
  // working memory: they take no room there, and nothing is evicted for them.
  let staying = newEntries;
  if (endedGoals.length > 0) {
    const closed = consolidateEndedGoals(db, context, endedGoals, [...held, ...newEntries]);
    if (closed.storing) await closed.storing;
    const left = new Set(closed.left);
    held = held.filter((memoryEntry) => left.has(memoryEntry));
    staying = newEntries.filter((memoryEntry) => left.has(memoryEntry));
  }
  const { evicted } = addToMemory(held, staying, settings.memoryCapacity);
  const evictedStored = evicted.filter((memoryEntry) => memoryEntry.id !== undefined);
  // Most cycles evict nothing: no request then.
  if (evictedStored.length > 0) await db.workingMemory.bulkDelete(evictedStored.map((memoryEntry) => memoryEntry.id!));
  if (evicted.length > 0)
    await db.provenance.add({
      sessionId,
      kind: 'eviction',
      sources: evicted.map((memoryEntry) =>
        memoryEntry.id !== undefined ? `memory:${memoryEntry.id}` : `memory:new:${memoryEntry.kind}`,
      ),
      confidence: 1,
      cycle,
      detail: `working memory full: evicted ${evicted.length} entries holding it least (low relevance, seldom used, old): ${evicted.map((memoryEntry) => memoryEntry.content.slice(0, 60)).join(' | ')}`,
      createdAt: startedAt,
    });
  // A new entry weaker than everything already held may be evicted at once: it is then not stored.
  const added = staying.filter((memoryEntry) => !evicted.includes(memoryEntry));
  // The uses counted on the entries kept and the new entries go in one write.
  const usedKept = held.filter(
    (memoryEntry) => memoryEntry.id !== undefined && consulted.has(memoryEntry.id) && !evicted.includes(memoryEntry),
  );
  const keys = (await db.workingMemory.bulkPut([...usedKept, ...added], { allKeys: true })) as number[];
  // What working memory holds now, in id order as stored, without reading it back.
  const now = [
    ...held.filter((memoryEntry) => !evicted.includes(memoryEntry)),
    ...added.map((memoryEntry, index) => ({ ...memoryEntry, id: keys[usedKept.length + index]! })),
  ];
  const automatic = automaticConsolidationPressure(settings.consolidationThreshold);
  if (memoryPressure(now.length, settings.memoryCapacity) >= automatic) {
    const consolidating = consolidateMemory(db, {
      sessionId,
      cycle,
      now: startedAt,
      before: cycle,
      entries: now,
      reason: `working memory ${Math.round(automatic * 100)}% full`,
      ...(label ? { label } : {}),
    });
    if (consolidating) await consolidating;
  }
}
