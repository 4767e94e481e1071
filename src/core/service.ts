import { DEFAULT_STALL_THRESHOLD, type Goal, parseCriteria } from './agent/goal.ts';
import { recallEpisodes } from './agent/episodes.ts';
import { consolidateMemory, runCycle } from './agent/run-cycle.ts';
import { DEFAULT_MEMORY_CAPACITY, memoryPressure } from './agent/working-memory.ts';
import type { AgentServiceImplementation, Fact, GoalView, GraphStats, ImportOutcome, ImportProgress } from './api.ts';
import { exportNTriples } from './kg/export-ntriples.ts';
import type { GraphDelta, KnowledgeGraph } from './kg/graph.ts';
import { readGraphFile, type GraphFileSource } from './kg/import/read-graph-file.ts';
import { formatFromFileName, type KgImportFormat } from './kg/import/statement.ts';
import { derivationProvenance, stageInference } from './kg/inference.ts';
import { parseQuery, runQuery } from './kg/query.ts';
import { SimilarityIndex, symbolsTouchedBy } from './kg/similarity.ts';
import { shortestPath } from './kg/traversal.ts';
import { searchSymbols } from './kg/search.ts';
import type { KgSymbol } from './kg/symbol.ts';
import type { Triple } from './kg/triple.ts';
import { ACTIVE_SESSION_KEY, type AnimaDatabase } from './store/database.ts';
import { type GraphLoadProgress, loadGraph, storeGraphDelta } from './store/kg-repository.ts';
import type { SessionRecord } from './store/session.ts';

/** What the service needs from where it runs (worker or CLI): storage, the clock, ids, the starter graph. */
export type AgentServiceDependencies = {
  db: AnimaDatabase;
  now: () => number;
  newId: () => string;
  /** The starter graph (Turtle) loaded into a new session; absent in the CLI, whose sessions start empty. */
  loadStarterGraph?: () => Promise<string>;
  /** Whether this instance may write (another tab may hold the database); absent means always (the CLI). */
  writeAccess?: WriteAccess;
};

/** Permission to write, held by one tab at a time; `ready` settles once the first answer is known. */
export type WriteAccess = { ready: Promise<void>; canWrite(): boolean; onGranted(listener: () => void): void };

/** Why a tab that does not hold write access refuses a change; the UI says it in its own words. */
const READ_ONLY_MESSAGE = 'this session is open in another tab, which is the one that can change it; close that tab and this one takes over';

const STARTER_GRAPH_FILE = 'starter-graph.ttl';
const starterGraphKey = (sessionId: string) => `starterGraph:${sessionId}`;

/**
 * The one API of the agent: the worker exposes it with Comlink, the CLI calls it directly. It
 * owns the in-memory graphs and is the only writer of the database. Writes run one at a time.
 */
export function createAgentService(dependencies: AgentServiceDependencies): AgentServiceImplementation {
  const { db, now, newId } = dependencies;
  const graphs = new Map<string, Promise<KnowledgeGraph>>();
  const operations = new Map<string, AbortController>();
  // One similarity index per loaded graph: a reloaded graph is a new object and gets a new index.
  const similarityIndexes = new WeakMap<KnowledgeGraph, SimilarityIndex>();
  const similarityOf = (graph: KnowledgeGraph): SimilarityIndex => {
    let index = similarityIndexes.get(graph);
    if (!index) similarityIndexes.set(graph, (index = new SimilarityIndex(graph)));
    return index;
  };
  /** Raised confidences change the meaning of their ends (added triples the index notices itself). */
  const invalidateSimilarity = (graph: KnowledgeGraph, stored: GraphDelta) => {
    if (stored.updatedTriples.length > 0) similarityIndexes.get(graph)?.invalidate(symbolsTouchedBy({ ...stored, addedTriples: [] }));
  };
  /** Applies a stored delta to the graph. */
  const applyStored = (graph: KnowledgeGraph, stored: GraphDelta) => {
    graph.apply(stored);
    invalidateSimilarity(graph, stored);
  };
  let writeQueue: Promise<unknown> = Promise.resolve();
  const canWrite = () => dependencies.writeAccess?.canWrite() ?? true;
  // Taking over from another tab: what it wrote since this tab loaded is read again from storage.
  dependencies.writeAccess?.onGranted(() => graphs.clear());

  /** Runs writes one after another, so each batch is computed against the graph it is applied to. */
  const exclusively = <T>(work: () => Promise<T>): Promise<T> => {
    const run = writeQueue.then(work, work);
    writeQueue = run.catch(() => undefined);
    return run;
  };

  /** A session's graph, loaded from storage on first use (reporting chunk progress to whoever asked first). */
  const graphOf = (sessionId: string, onProgress?: (progress: GraphLoadProgress) => void): Promise<KnowledgeGraph> => {
    let graph = graphs.get(sessionId);
    if (!graph) {
      graph = sessionOf(sessionId).then(() => loadGraph(db, sessionId, onProgress));
      graphs.set(sessionId, graph);
      graph.catch(() => graphs.delete(sessionId));
    }
    return graph;
  };

  const sessionOf = async (sessionId: string): Promise<SessionRecord> => {
    const session = await db.sessions.get(sessionId);
    if (!session) throw new Error(`no session with id ${sessionId}`);
    return session;
  };

  const importInto = async (options: {
    sessionId: string;
    source: GraphFileSource;
    fileName: string;
    format: KgImportFormat;
    kind: 'import' | 'starter-graph';
    signal?: AbortSignal;
    /** Called when writing starts: from then on the import can no longer be cancelled. */
    onWriting?: () => void;
    onProgress?: (progress: ImportProgress) => void;
  }): Promise<ImportOutcome> =>
    exclusively(async () => {
      const { sessionId, source, fileName, format, signal, onProgress } = options;
      const session = await sessionOf(sessionId);
      const graph = await graphOf(sessionId);
      const batch = graph.batch({ now: now() });
      const read = await readGraphFile({ source, format, batch, signal, onProgress: (progress) => onProgress?.({ phase: 'reading', ...progress }) });
      if (!read.ok) return read.error === 'cancelled' ? cancelledOutcome() : { ok: false, reason: 'invalid', problems: read.error };
      if (signal?.aborted) return cancelledOutcome();
      const { statements, totalBytes } = read.value;
      options.onWriting?.();
      onProgress?.({ phase: 'writing', bytesRead: totalBytes, totalBytes, statements });
      const delta = batch.delta;
      if (delta.symbols.length > 0 || delta.addedTriples.length > 0 || delta.updatedTriples.length > 0) {
        const storedAt = now();
        const stored = await storeGraphDelta(db, {
          graph,
          sessionId,
          delta,
          now: storedAt,
          provenance: {
            sessionId,
            kind: options.kind,
            sources: [fileName],
            confidence: 1,
            cycle: session.cycle,
            detail: `${format} import of ${fileName}: ${statements} statements, ${delta.addedTriples.length} new triples, ${delta.updatedTriples.length} raised in confidence`,
            createdAt: storedAt,
          },
        });
        applyStored(graph, stored);
      }
      return {
        ok: true,
        statements,
        added: delta.addedTriples.length,
        updated: delta.updatedTriples.length,
        symbolsAdded: delta.symbols.length,
        stats: statsOf(graph),
      };
    });

  const loadStarterGraphIfPending = async (sessionId: string, onProgress?: (progress: ImportProgress) => void): Promise<boolean> => {
    const state = await db.settings.get(starterGraphKey(sessionId));
    if (state?.value !== 'pending' || !dependencies.loadStarterGraph) return false;
    const outcome = await importInto({
      sessionId,
      source: await dependencies.loadStarterGraph(),
      fileName: STARTER_GRAPH_FILE,
      format: 'turtle',
      kind: 'starter-graph',
      onProgress,
    });
    if (!outcome.ok) throw new Error(`the bundled starter graph did not load: ${outcome.problems.map((problem) => problem.message).join('; ')}`);
    await db.settings.put({ key: starterGraphKey(sessionId), value: 'loaded' });
    return true;
  };

  return {
    async open(_args, onProgress) {
      await dependencies.writeAccess?.ready;
      const session = await exclusively(async () => {
        const activeId = (await db.settings.get(ACTIVE_SESSION_KEY))?.value;
        const active = typeof activeId === 'string' ? await db.sessions.get(activeId) : undefined;
        if (active) return active;
        const first = await db.sessions.orderBy('updatedAt').last();
        if (first) {
          await db.settings.put({ key: ACTIVE_SESSION_KEY, value: first.id });
          return first;
        }
        if (!canWrite()) throw new Error('Anima is setting up in another tab; reload this one in a moment');
        const created: SessionRecord = { id: newId(), name: 'My session', cycle: 0, createdAt: now(), updatedAt: now() };
        await db.transaction('rw', db.sessions, db.settings, async () => {
          await db.sessions.add(created);
          await db.settings.put({ key: ACTIVE_SESSION_KEY, value: created.id });
          // Marked pending in the same transaction: if the tab closes mid-load, the next start loads it again.
          if (dependencies.loadStarterGraph) await db.settings.put({ key: starterGraphKey(created.id), value: 'pending' });
        });
        return created;
      });
      const graph = await graphOf(session.id, (progress) => onProgress?.({ phase: 'loading-graph', ...progress }));
      const hasLoadedStarterGraph = canWrite() && (await loadStarterGraphIfPending(session.id, onProgress));
      return { session: { id: session.id, name: session.name }, stats: statsOf(graph), hasLoadedStarterGraph, canWrite: canWrite() };
    },

    async kgStats({ sessionId }) {
      return statsOf(await graphOf(sessionId));
    },

    async kgSearch({ sessionId, text, limit }) {
      const graph = await graphOf(sessionId);
      const { hits, total } = searchSymbols(graph, text, limit);
      return { hits: hits.map((hit) => ({ ...hit, symbol: refOf(hit.symbol) })), total };
    },

    async kgSymbol({ sessionId, symbolId, limit }) {
      const graph = await graphOf(sessionId);
      const symbol = graph.symbol(symbolId);
      if (!symbol) return { isFound: false };
      const outgoing = graph.outgoing(symbolId);
      const incoming = graph.incoming(symbolId);
      return {
        isFound: true,
        symbol: refOf(symbol),
        outgoing: outgoing.slice(0, limit).map((triple) => factOf(graph, triple)),
        incoming: incoming.slice(0, limit).map((triple) => factOf(graph, triple)),
        outgoingTotal: outgoing.length,
        incomingTotal: incoming.length,
      };
    },

    async kgImport({ sessionId, operationId, fileName, format, data }, onProgress) {
      const chosen = format ?? formatFromFileName(fileName);
      if (!chosen) {
        return {
          ok: false,
          reason: 'unknown-format',
          problems: [{ message: `cannot tell the format of "${fileName}": use a .nt, .ttl or .csv file, or choose the format` }],
        };
      }
      if (!canWrite()) return { ok: false, reason: 'read-only', problems: [{ message: READ_ONLY_MESSAGE }] };
      const controller = new AbortController();
      operations.set(operationId, controller);
      try {
        return await importInto({
          sessionId,
          source: data,
          fileName,
          format: chosen,
          kind: 'import',
          signal: controller.signal,
          onWriting: () => operations.delete(operationId),
          onProgress,
        });
      } finally {
        operations.delete(operationId);
      }
    },

    async kgExport({ sessionId }) {
      const session = await sessionOf(sessionId);
      const graph = await graphOf(sessionId);
      return {
        fileName: `${session.name.replace(/[^\p{L}\p{N}_-]+/gu, '-')}.nt`,
        mediaType: 'application/n-triples',
        text: exportNTriples(graph),
        tripleCount: graph.tripleCount,
      };
    },

    async kgQuery({ sessionId, query, limit }) {
      const parsed = parseQuery(query);
      if (!parsed.ok) return { ok: false, problems: parsed.error };
      const graph = await graphOf(sessionId);
      const answer = runQuery(graph, parsed.value, limit);
      return {
        ok: true,
        variables: answer.variables,
        rows: answer.rows.map((row) => Object.fromEntries(Object.entries(row).map(([name, id]) => [name, refOf(symbolOrThrow(graph, id))]))),
        isTruncated: answer.isTruncated,
        unknownTerms: answer.unknownTerms,
      };
    },

    async kgInfer({ sessionId, minConfidence, maxIterations, maxDerived, limit }) {
      if (!canWrite()) return { ok: false, reason: 'read-only', problems: [{ message: READ_ONLY_MESSAGE }] };
      return exclusively(async () => {
        const session = await sessionOf(sessionId);
        const graph = await graphOf(sessionId);
        const startedAt = now();
        const { result, delta, derivationOf } = stageInference(graph, { minConfidence, maxIterations, maxDerived, now: startedAt });
        const stored = await storeGraphDelta(db, {
          graph,
          sessionId,
          delta,
          now: startedAt,
          provenance: (triple) => derivationProvenance(graph, derivationOf(triple), { sessionId, cycle: session.cycle, createdAt: startedAt }),
        });
        applyStored(graph, stored);
        const changed = [...stored.addedTriples, ...stored.updatedTriples].slice(0, limit);
        return {
          ok: true,
          derived: stored.addedTriples.length,
          raised: stored.updatedTriples.length,
          iterations: result.iterations,
          hasConverged: result.hasConverged,
          isTruncated: result.isTruncated,
          stats: statsOf(graph),
          facts: changed.map((triple, index) => {
            const derivation = derivationOf(triple);
            return {
              fact: factOf(graph, graph.triple(triple.subject, triple.predicate, triple.object)!),
              rule: derivation.rule,
              premises: derivation.premises.map((premise) => factOf(graph, premise)),
              isNew: index < stored.addedTriples.length,
            };
          }),
        };
      });
    },

    async kgSimilar({ sessionId, symbolId, text, k }) {
      const graph = await graphOf(sessionId);
      const index = similarityOf(graph);
      const hits = symbolId !== undefined ? index.nearest(symbolId, { k }) : index.nearestToText(text ?? '', k);
      return { hits: hits.map((hit) => ({ symbol: refOf(symbolOrThrow(graph, hit.symbolId)), similarity: hit.similarity })) };
    },

    async kgPath({ sessionId, from, to, maxLength }) {
      const graph = await graphOf(sessionId);
      if (!graph.symbol(from) || !graph.symbol(to)) return { isFound: false };
      const path = shortestPath(graph, from, to, { maxLength });
      return path ? { isFound: true, steps: path.map((step) => ({ fact: factOf(graph, step.triple), isForward: step.isForward })) } : { isFound: false };
    },

    async kgProvenance({ sessionId, provenanceId }) {
      const record = await db.provenance.get(provenanceId);
      return record && record.sessionId === sessionId ? { isFound: true, record: { ...record, id: provenanceId } } : { isFound: false };
    },

    async goalAdd({ sessionId, description: text, criteria, priority }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      const description = text.trim();
      if (description === '') return { ok: false, problems: [{ path: 'description', message: 'describe the goal' }] };
      const parsed = parseCriteria(criteria, description);
      if (!parsed.ok) return { ok: false, problems: parsed.error };
      const graph = await graphOf(sessionId);
      const goal: Goal = {
        sessionId,
        description,
        successCriteria: criteria,
        priority,
        status: 'active',
        cyclesWorked: 0,
        lastProgressCycle: 0,
        stallThreshold: DEFAULT_STALL_THRESHOLD,
        findings: [],
        toolsUsed: [],
        createdAt: now(),
      };
      const id = await exclusively(() => db.goals.add(goal));
      return { ok: true, goal: goalViewOf(graph, { ...goal, id: id as number }) };
    },

    async goalList({ sessionId, findingsLimit }) {
      const graph = await graphOf(sessionId);
      const goals = await db.goals.where('sessionId').equals(sessionId).sortBy('id');
      return { goals: goals.map((goal) => goalViewOf(graph, goal, findingsLimit)) };
    },

    async goalUpdate({ sessionId, goalId, priority, status }) {
      if (!canWrite()) return { ok: false, problems: [{ message: READ_ONLY_MESSAGE }] };
      const graph = await graphOf(sessionId);
      return exclusively(async () => {
        const goal = await db.goals.get(goalId);
        if (!goal || goal.sessionId !== sessionId) return { ok: false, problems: [{ message: `there is no goal ${goalId}` }] };
        if (status !== undefined && (goal.status === 'completed' || goal.status === 'failed'))
          return { ok: false, problems: [{ message: `goal ${goalId} has ended (${goal.status}); add a new goal instead` }] };
        const reasons = { active: 'resumed by the user', suspended: 'suspended by the user', failed: 'cancelled by the user' } as const;
        const updated: Goal = {
          ...goal,
          ...(priority !== undefined ? { priority } : {}),
          // Resuming restarts the stall count, so a resumed goal is not split at once.
          ...(status !== undefined ? { status, statusReason: reasons[status], ...(status === 'active' ? { lastProgressCycle: goal.cyclesWorked } : {}) } : {}),
        };
        await db.goals.put(updated);
        return { ok: true, goal: goalViewOf(graph, updated) };
      });
    },

    async agentRun({ sessionId, operationId, maxCycles }, onProgress) {
      if (!canWrite()) return { ok: false, reason: 'read-only', problems: [{ message: READ_ONLY_MESSAGE }] };
      const controller = new AbortController();
      operations.set(operationId, controller);
      let cyclesRun = 0;
      let lastCycle = (await sessionOf(sessionId)).cycle;
      try {
        while (cyclesRun < maxCycles) {
          if (controller.signal.aborted) return { ok: true, cyclesRun, lastCycle, stoppedBecause: 'cancelled' };
          const graph = await graphOf(sessionId);
          const record = await exclusively(async () => {
            try {
              return await runCycle({ db, sessionId, graph, similarity: similarityOf(graph), now, onGraphApplied: (stored) => invalidateSimilarity(graph, stored) });
            } catch (error) {
              // The cycle's facts may be in memory but not stored: read the graph again from storage.
              graphs.delete(sessionId);
              throw error;
            }
          });
          if (!record) return { ok: true, cyclesRun, lastCycle, stoppedBecause: 'no-active-goal' };
          cyclesRun++;
          lastCycle = record.cycle;
          onProgress?.(record);
          // Lets a cancel (or any other call) in between cycles.
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        return { ok: true, cyclesRun, lastCycle, stoppedBecause: 'max-cycles' };
      } finally {
        operations.delete(operationId);
      }
    },

    async cycleList({ sessionId, limit }) {
      const cycles = await db.cycles
        .where('[sessionId+cycle]')
        .between([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER])
        .reverse()
        .limit(limit)
        .toArray();
      return { cycles };
    },

    async memoryConsolidate({ sessionId }) {
      if (!canWrite()) return { ok: false, reason: 'read-only', problems: [{ message: READ_ONLY_MESSAGE }] };
      return exclusively(async () => {
        const session = await sessionOf(sessionId);
        return db.transaction('rw', [db.workingMemory, db.episodes, db.provenance], async () => {
          const entries = await db.workingMemory.where('sessionId').equals(sessionId).toArray();
          const episodesAdded = await consolidateMemory(db, { sessionId, cycle: session.cycle, now: now(), entries, reason: 'asked for' });
          return { ok: true as const, episodesAdded, entriesLeft: await db.workingMemory.where('sessionId').equals(sessionId).count() };
        });
      });
    },

    async memoryList({ sessionId, episodeLimit }) {
      const graph = await graphOf(sessionId);
      const refs = (ids: readonly number[]) => ids.flatMap((id) => {
        const symbol = graph.symbol(id);
        return symbol ? [refOf(symbol)] : [];
      });
      const [entries, episodes, episodeTotal] = await Promise.all([
        db.workingMemory.where('sessionId').equals(sessionId).reverse().sortBy('id'),
        db.episodes.where('sessionId').equals(sessionId).reverse().sortBy('id'),
        db.episodes.where('sessionId').equals(sessionId).count(),
      ]);
      return {
        capacity: DEFAULT_MEMORY_CAPACITY,
        pressure: memoryPressure(entries.length),
        entries: entries.map((entry) => ({
          id: entry.id!,
          kind: entry.kind,
          content: entry.content,
          symbols: refs(entry.symbols),
          relevance: entry.relevance,
          sourceCycle: entry.sourceCycle,
          ...(entry.goalId !== undefined ? { goalId: entry.goalId } : {}),
          ...(entry.tool !== undefined ? { tool: entry.tool } : {}),
        })),
        episodes: episodes.slice(0, episodeLimit).map((episode) => ({
          id: episode.id!,
          ...(episode.goalId !== undefined ? { goalId: episode.goalId } : {}),
          summary: episode.summary,
          learnings: refs(episode.learnings),
          tools: episode.tools,
          cycle: episode.cycle,
        })),
        episodeTotal,
      };
    },

    async memoryRecall({ sessionId, text, symbolIds, k }) {
      const graph = await graphOf(sessionId);
      const episodes = await db.episodes.where('sessionId').equals(sessionId).toArray();
      // The words of the text that name symbols count as those symbols (one word alone barely moves a text vector).
      const named = (text ?? '').split(/[^\p{L}\p{N}_-]+/u).flatMap((word) => (word.length > 1 ? graph.symbolsNamed(word).map((symbol) => symbol.id) : []));
      return {
        episodes: recallEpisodes(episodes, { text, symbols: [...(symbolIds ?? []), ...named] }, k).map(({ episode, score }) => ({
          id: episode.id!,
          ...(episode.goalId !== undefined ? { goalId: episode.goalId } : {}),
          summary: episode.summary,
          learnings: episode.learnings.flatMap((id) => {
            const symbol = graph.symbol(id);
            return symbol ? [refOf(symbol)] : [];
          }),
          tools: episode.tools,
          score,
          cycle: episode.cycle,
        })),
      };
    },

    async cancel({ operationId }) {
      const controller = operations.get(operationId);
      controller?.abort();
      return { isCancelled: controller !== undefined };
    },
  };
}

function goalViewOf(graph: KnowledgeGraph, goal: Goal, findingsLimit = 200): GoalView {
  const findings = goal.findings
    .slice(0, findingsLimit)
    .map(([subject, predicate, object]) => graph.triple(subject, predicate, object))
    .filter((triple): triple is Triple => triple !== undefined);
  return {
    id: goal.id!,
    description: goal.description,
    successCriteria: goal.successCriteria,
    priority: goal.priority,
    status: goal.status,
    ...(goal.statusReason !== undefined ? { statusReason: goal.statusReason } : {}),
    ...(goal.parentId !== undefined ? { parentId: goal.parentId } : {}),
    cyclesWorked: goal.cyclesWorked,
    findings: findings.map((triple) => factOf(graph, triple)),
    findingsTotal: goal.findings.length,
  };
}

function cancelledOutcome(): ImportOutcome {
  return { ok: false, reason: 'cancelled', problems: [{ message: 'the import was cancelled; nothing was changed' }] };
}

function statsOf(graph: KnowledgeGraph): GraphStats {
  let entities = 0;
  let relations = 0;
  let literals = 0;
  for (const symbol of graph.symbols()) {
    if (symbol.kind === 'entity') entities++;
    else if (symbol.kind === 'relation') relations++;
    else literals++;
  }
  return { symbols: graph.symbolCount, entities, relations, literals, triples: graph.tripleCount };
}

function refOf(symbol: KgSymbol) {
  return { id: symbol.id, label: symbol.label, kind: symbol.kind, ...(symbol.iri !== undefined ? { iri: symbol.iri } : {}) };
}

function symbolOrThrow(graph: KnowledgeGraph, id: number): KgSymbol {
  const symbol = graph.symbol(id);
  if (!symbol) throw new Error(`symbol ${id} is referenced but missing`);
  return symbol;
}

function factOf(graph: KnowledgeGraph, triple: Pick<Triple, 'subject' | 'predicate' | 'object' | 'confidence' | 'provenanceId'>): Fact {
  return {
    subject: refOf(symbolOrThrow(graph, triple.subject)),
    predicate: refOf(symbolOrThrow(graph, triple.predicate)),
    object: refOf(symbolOrThrow(graph, triple.object)),
    confidence: triple.confidence,
    ...(triple.provenanceId !== undefined ? { provenanceId: triple.provenanceId } : {}),
  };
}
