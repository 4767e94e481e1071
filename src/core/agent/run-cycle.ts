import type { KnowledgeGraph } from '../kg/graph.ts';
import type { SimilarityIndex } from '../kg/similarity.ts';
import type { AnimaDatabase } from '../store/database.ts';
import { storeGraphDelta } from '../store/kg-repository.ts';
import { TOOLS } from '../tools/registry.ts';
import { type CycleRecord, decide, decomposeIfStalled, evaluateGoal, type NoToolAvailable } from './cycle.ts';
import type { Goal } from './goal.ts';
import { consolidate } from './episodes.ts';
import { addToMemory, DEFAULT_MEMORY_CAPACITY, type MemoryEntry, memoryPressure } from './working-memory.ts';

/** Above this memory pressure, a cycle consolidates working memory into episodes (DESIGN: 0.8). */
export const CONSOLIDATION_PRESSURE = 0.8;

/**
 * Consolidates working memory into episodes and removes the consolidated entries, with a
 * provenance record; call inside a transaction over workingMemory, episodes and provenance.
 */
export async function consolidateMemory(
  db: AnimaDatabase,
  context: { sessionId: string; cycle: number; now: number; entries: readonly MemoryEntry[]; reason: string },
): Promise<number> {
  const { episodes, consolidated } = consolidate(context.entries, context);
  if (episodes.length === 0) return 0;
  const ids = (await db.episodes.bulkAdd(episodes, { allKeys: true })) as number[];
  await db.workingMemory.bulkDelete(consolidated.map((entry) => entry.id!).filter((id) => id !== undefined));
  await db.provenance.add({
    sessionId: context.sessionId,
    kind: 'consolidation',
    sources: consolidated.map((entry) => `memory:${entry.id}`),
    confidence: 1,
    cycle: context.cycle,
    detail: `${context.reason}: ${consolidated.length} entries became episodes ${ids.join(', ')}`,
    createdAt: context.now,
  });
  return episodes.length;
}

/** What running one cycle needs from the service: storage, the loaded graph and its similarity index, the clock. */
export type CycleDependencies = {
  db: AnimaDatabase;
  sessionId: string;
  graph: KnowledgeGraph;
  similarity: SimilarityIndex;
  now: () => number;
  /** Called after the graph took in the cycle's changes, before they are committed. */
  onGraphApplied?: (delta: Parameters<KnowledgeGraph['apply']>[0]) => void;
};

/**
 * Runs one Observe-Orient-Decide-Act cycle for the session and commits everything it changed
 * (graph facts with provenance, goals, working memory, the cycle record, the session's cycle
 * count) in one transaction. Returns undefined when no goal is active. If the commit fails, the
 * in-memory graph may hold the cycle's facts: the caller must reload it (see the service).
 */
export async function runCycle(dependencies: CycleDependencies): Promise<CycleRecord | undefined> {
  const { db, sessionId, graph, similarity, now } = dependencies;
  const [session, goals, memory, episodes] = await db.transaction('r', [db.sessions, db.goals, db.workingMemory, db.episodes], () =>
    Promise.all([
      db.sessions.get(sessionId),
      db.goals.where('sessionId').equals(sessionId).toArray(),
      db.workingMemory.where('sessionId').equals(sessionId).sortBy('id'),
      db.episodes.where('sessionId').equals(sessionId).sortBy('id'),
    ]),
  );
  if (!session) throw new Error(`no session with id ${sessionId}`);
  const cycle = session.cycle + 1;
  const startedAt = now();
  const decision = decide({
    sessionId,
    cycle,
    now: startedAt,
    graph,
    similarity,
    goals,
    memoryEntryCount: memory.length,
    memoryCapacity: DEFAULT_MEMORY_CAPACITY,
    episodes,
    tools: TOOLS,
  });
  if (!decision) return undefined;
  if (!('tool' in decision)) return commitIdleCycle(db, decision, { sessionId, cycle, startedAt });
  const outcome = decision.tool.run(decision.input, decision.state);

  return db.transaction('rw', [db.sessions, db.goals, db.workingMemory, db.episodes, db.cycles, db.provenance, db.symbolChunks, db.tripleChunks], async () => {
    const change = outcome.graphChange;
    if (change) {
      const stored = await storeGraphDelta(db, { graph, sessionId, delta: change.delta, provenance: change.provenance, now: startedAt });
      graph.apply(stored);
      dependencies.onGraphApplied?.(stored);
    }
    const evaluated = evaluateGoal(graph, decision, outcome);
    if (change?.inferredAtTripleCount !== undefined) evaluated.goal.inferredAtTripleCount = change.inferredAtTripleCount;
    const updatedGoals: Goal[] = [evaluated.goal];
    let statusChange = evaluated.statusChange;
    const split = decomposeIfStalled(evaluated.goal, startedAt);
    if (split) {
      updatedGoals[0] = split.parent;
      updatedGoals.push(...split.children);
      statusChange = split.parent.statusReason;
    }
    // A child that completes lets its parent be looked at again once all its siblings are done.
    if (evaluated.goal.status === 'completed' && evaluated.goal.parentId !== undefined) {
      const siblings = goals.filter((goal) => goal.parentId === evaluated.goal.parentId && goal.id !== evaluated.goal.id);
      const parent = goals.find((goal) => goal.id === evaluated.goal.parentId);
      if (parent && parent.status === 'suspended' && siblings.every((sibling) => sibling.status === 'completed'))
        updatedGoals.push({ ...parent, status: 'active', statusReason: 'its sub-goals are complete', lastProgressCycle: parent.cyclesWorked });
    }

    const act = `${outcome.summary} -> ${evaluated.outcome}${statusChange ? ` (${statusChange})` : ''}`;
    const record: CycleRecord = { ...decision.record, act, outcome: evaluated.outcome, ...(statusChange ? { statusChange } : {}) };
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
      ...(kind === 'action' ? { tool: decision.tool.name } : {}),
    });
    const newEntries = [
      entry('observation', record.observe, decision.state.goalSymbols.slice(0, 20), 0.3),
      entry('decision', `chose ${record.decide}`, [], 0.4),
      entry('action', act, outcome.symbols.slice(0, 50), evaluated.outcome === 'no-change' ? 0.4 : 0.8),
    ];
    const { evicted } = addToMemory(memory, newEntries);

    await db.goals.bulkPut(updatedGoals);
    const evictedStored = evicted.filter((memoryEntry) => memoryEntry.id !== undefined);
    await db.workingMemory.bulkDelete(evictedStored.map((memoryEntry) => memoryEntry.id!));
    if (evicted.length > 0)
      await db.provenance.add({
        sessionId,
        kind: 'eviction',
        sources: evicted.map((memoryEntry) => (memoryEntry.id !== undefined ? `memory:${memoryEntry.id}` : `memory:new:${memoryEntry.kind}`)),
        confidence: 1,
        cycle,
        detail: `working memory full: evicted ${evicted.length} low-relevance entries: ${evicted.map((memoryEntry) => memoryEntry.content.slice(0, 60)).join(' | ')}`,
        createdAt: startedAt,
      });
    // A new entry weaker than everything already held may be evicted at once: it is then not stored.
    await db.workingMemory.bulkAdd(newEntries.filter((memoryEntry) => !evicted.includes(memoryEntry)));
    const held = await db.workingMemory.where('sessionId').equals(sessionId).toArray();
    if (memoryPressure(held.length) > CONSOLIDATION_PRESSURE) await consolidateMemory(db, { sessionId, cycle, now: startedAt, entries: held, reason: 'memory pressure above 0.8' });
    if (split)
      await db.provenance.add({
        sessionId,
        kind: 'decomposition',
        sources: [`goal:${split.parent.id}`],
        confidence: 1,
        cycle,
        detail: `${split.parent.description}: ${split.parent.statusReason}: ${split.children.map((child) => child.successCriteria).join(' | ')}`,
        createdAt: startedAt,
      });
    await db.cycles.add(record);
    await db.provenance.add({
      sessionId,
      kind: 'decision',
      sources: [`goal:${decision.goal.id}`, `tool:${decision.tool.name}`],
      confidence: 1,
      cycle,
      detail: `${record.decide} -> ${evaluated.outcome}`,
      createdAt: startedAt,
    });
    await db.sessions.update(sessionId, { cycle, updatedAt: startedAt });
    return record;
  });
}

/**
 * When no tool can work on the goal, looping would only repeat that: the goal is suspended with
 * every tool's reason (the user can resume it once something changed), in a recorded cycle.
 */
async function commitIdleCycle(db: AnimaDatabase, idle: NoToolAvailable, context: { sessionId: string; cycle: number; startedAt: number }): Promise<CycleRecord> {
  const reasons = idle.record.candidates.map((candidate) => `${candidate.tool}: ${candidate.skippedBecause}`).join('; ');
  const statusChange = `suspended: no tool can work on it now (${reasons})`;
  const record: CycleRecord = { ...idle.record, tool: 'none', input: null, act: `nothing to do -> failed (${statusChange})`, outcome: 'failed', statusChange };
  await db.transaction('rw', [db.sessions, db.goals, db.cycles, db.provenance], async () => {
    await db.goals.put({ ...idle.goal, status: 'suspended', statusReason: statusChange, cyclesWorked: idle.goal.cyclesWorked + 1 });
    await db.cycles.add(record);
    await db.provenance.add({ sessionId: context.sessionId, kind: 'decision', sources: [`goal:${idle.goal.id}`], confidence: 1, cycle: context.cycle, detail: record.act, createdAt: context.startedAt });
    await db.sessions.update(context.sessionId, { cycle: context.cycle, updatedAt: context.startedAt });
  });
  return record;
}
