import type { ImportOutcome, ImportProgress } from '#core/api.ts';
import type { ChangeFeed } from '#core/change-feed.ts';
import { type GraphDelta, symbolsTouchedBy } from '#core/kg/graph-delta.ts';
import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { GraphFileSource, ReadProgress } from '#core/kg/import/read-graph-file.ts';
import type { Problem, Result } from '#core/result.ts';
import type { KgImportFormat } from '#core/kg/import/statement.ts';
import { SimilarityIndex } from '#core/kg/similarity.ts';
import { warmLabelIndexes } from './label-index-warmup.ts';
import { type AnimaDatabase, starterGraphKey } from '#core/store/database.ts';
import { type ReadableDocument, readableDocument } from '#core/kg/document.ts';
import { type GraphLoadProgress, loadGraph, storeGraphDelta } from '#core/store/kg-repository.ts';
import type { SnapshotLimits } from '#core/sessions/snapshot-format.ts';
import type { SessionRecord } from '#core/store/session.ts';
import type { SessionEvent } from '#core/api/session-watch-contract.ts';
import type { ProviderReach } from '#core/llm/bind-provider.ts';
import type { SharedWithGraph } from '#core/kg/import/join.ts';
import { usablePrefixes } from '#core/kg/standard-terms.ts';
import { cancelledOutcome, statsOf } from './views.ts';

export type AgentServiceDependencies = {
  db: AnimaDatabase;
  now: () => number;
  newId: () => string;
  /** The starter graph (Turtle) loaded into a new session; absent in the CLI, whose sessions start empty. */
  loadStarterGraph?: () => Promise<string>;
  /** Whether this instance may write (another tab may hold the database); absent means always (the CLI). */
  writeAccess?: WriteAccess;
  /** What a run can bind a language model with: the network, and the in-browser engines this place has. */
  providerReach?: ProviderReach;
  /** Notices of writes between tabs; absent in the CLI, the only writer of its database. */
  changeFeed?: ChangeFeed;
  /** The limits a session must stay within to be exported and read back; the reader's, unless a test gives smaller ones. */
  snapshotLimits?: SnapshotLimits;
};

/** Permission to write, held by one tab at a time; `ready` settles once the first answer is known. */
export type WriteAccess = { ready: Promise<void>; canWrite(): boolean; onGranted(listener: () => void): void };

/** Why a tab that does not hold write access refuses a change; the UI says it in its own words. */
export const READ_ONLY_MESSAGE =
  'this session is open in another tab, which is the one that can change it; close that tab and this one takes over';

export const STARTER_GRAPH_FILE = 'starter-graph.ttl';

/** What every slice of the service shares: storage, the loaded graphs, the write queue, running operations. */
export type ServiceContext = ReturnType<typeof createServiceContext>;

/**
 * The state behind the AgentService: the in-memory graphs (one per session, loaded on first
 * use), their similarity indexes, the queue that runs writes one at a time (and tells other tabs
 * of them), the running operations that cancel() can stop, and the session events a watch hears.
 */
export function createServiceContext(dependencies: AgentServiceDependencies) {
  const { db, now, newId } = dependencies;
  const graphs = new Map<string, Promise<KnowledgeGraph>>();
  const operations = new Map<string, AbortController>();
  /** The operations that only watch the session (sessionWatch): they never make the agent busy. */
  const watches = new Set<string>();
  /** Whether a run, an import, a download or another long operation is under way. */
  const isBusy = () => [...operations.keys()].some((operationId) => !watches.has(operationId));
  // One similarity index per loaded graph: a reloaded graph is a new object and gets a new index.
  const similarityIndexes = new WeakMap<KnowledgeGraph, SimilarityIndex>();
  const similarityOf = (graph: KnowledgeGraph): SimilarityIndex => {
    let index = similarityIndexes.get(graph);
    if (!index) similarityIndexes.set(graph, (index = new SimilarityIndex(graph)));
    return index;
  };
  /**
   * Raised confidences and removals change the meaning of their ends (added triples the index
   * notices itself, unless a removal moved one to an earlier position: then every end is told).
   */
  const invalidateSimilarity = (graph: KnowledgeGraph, stored: GraphDelta) => {
    if (stored.updatedTriples.length > 0 || stored.removedTriples.length > 0)
      similarityIndexes
        .get(graph)
        ?.invalidate(symbolsTouchedBy(stored.removedTriples.length > 0 ? stored : { ...stored, addedTriples: [] }));
  };
  /** Applies a stored delta to the graph. */
  const applyStored = (graph: KnowledgeGraph, stored: GraphDelta) => {
    graph.apply(stored);
    invalidateSimilarity(graph, stored);
  };
  let writeQueue: Promise<unknown> = Promise.resolve();
  const canWrite = () => dependencies.writeAccess?.canWrite() ?? true;
  const sessionListeners = new Set<(event: SessionEvent) => void>();
  /** Calls `listener` on each session event until the returned function is called. */
  const onSessionEvent = (listener: (event: SessionEvent) => void): (() => void) => {
    sessionListeners.add(listener);
    return () => sessionListeners.delete(listener);
  };
  const notifySessionListeners = (event: SessionEvent) => {
    for (const listener of sessionListeners) listener(event);
  };
  /** What another tab wrote is read again from storage on next use. */
  const forgetStored = () => {
    graphs.clear();
    documentCaches.clear();
  };
  // Taking over from another tab: what it wrote since this tab loaded is read again from storage.
  dependencies.writeAccess?.onGranted(() => {
    forgetStored();
    notifySessionListeners({ kind: 'write-access' });
  });
  dependencies.changeFeed?.onChange(() => {
    // The writer's memory is the truth; a notice it gets was sent before it took over, by a tab now closed.
    if (canWrite()) return;
    forgetStored();
    notifySessionListeners({ kind: 'changed' });
  });
  const announceWrite = () => {
    if (canWrite()) dependencies.changeFeed?.announce();
  };

  /**
   * Runs writes one after another, so each batch is computed against the graph it is applied to;
   * once each has settled, the other tabs are told (a failed one may have stored part of its work).
   */
  const exclusively = <T>(work: () => Promise<T>): Promise<T> => {
    const run = writeQueue.then(work, work);
    writeQueue = run.catch(() => undefined);
    if (dependencies.changeFeed) void run.then(announceWrite, announceWrite);
    return run;
  };

  /** A session's graph, loaded from storage on first use (reporting chunk progress to whoever asked first). */
  const graphOf = (sessionId: string, onProgress?: (progress: GraphLoadProgress) => void): Promise<KnowledgeGraph> => {
    let graph = graphs.get(sessionId);
    if (!graph) {
      graph = sessionOf(sessionId).then(async (session) => {
        const loaded = await loadGraph(db, sessionId, onProgress);
        loaded.prefixes = session.prefixes ?? {};
        return loaded;
      });
      const loading = graph;
      // A failed load is reported to whoever asked for the graph; the warm-up only waits for a good one.
      loading.then(
        (loaded) =>
          warmLabelIndexes(loaded, similarityOf(loaded), {
            isCurrent: () => graphs.get(sessionId) === loading,
            isBusy,
          }),
        () => undefined,
      );
      graphs.set(sessionId, graph);
      graph.catch(() => graphs.delete(sessionId));
    }
    return graph;
  };

  // The documents of each session, in memory with their words: a cycle reads them without
  // reading or tokenising megabytes of text again. This worker is their only writer.
  const documentCaches = new Map<string, Promise<ReadableDocument[]>>();
  const documentsOf = (sessionId: string): Promise<ReadableDocument[]> => {
    let documents = documentCaches.get(sessionId);
    if (!documents) {
      documents = db.documents
        .where('sessionId')
        .equals(sessionId)
        .sortBy('id')
        .then((records) => records.map(readableDocument));
      documentCaches.set(sessionId, documents);
      documents.catch(() => documentCaches.delete(sessionId));
    }
    return documents;
  };
  const forgetDocuments = (sessionId: string) => documentCaches.delete(sessionId);

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
    /** Link new things named as existing ones to them (owl:sameAs). */
    linkSameLabels?: boolean;
    /** Only read and stage the file: the outcome says what it would do, nothing is written. */
    dryRun?: boolean;
    /** The reader's language: names in it are preferred. */
    language?: string;
    signal?: AbortSignal;
    /** Called when writing starts: from then on the import can no longer be cancelled. */
    onWriting?: () => void;
    onProgress?: (progress: ImportProgress) => void;
  }): Promise<ImportOutcome> =>
    exclusively(async () => {
      const { sessionId, source, fileName, format, signal, onProgress } = options;
      const session = await sessionOf(sessionId);
      const graph = await graphOf(sessionId);
      const read = await stageGraphFile(graph, {
        sessionId,
        source,
        format,
        signal,
        linkSameLabels: options.linkSameLabels ?? false,
        ...(options.language !== undefined ? { language: options.language } : {}),
        onProgress: (progress) => onProgress?.({ phase: 'reading', ...progress }),
      });
      if (!read.ok)
        return read.error === 'cancelled' ? cancelledOutcome() : { ok: false, reason: 'invalid', problems: read.error };
      if (signal?.aborted) return cancelledOutcome();
      const { statements, totalBytes, delta, shared, prefixes } = read.value;
      if (options.dryRun)
        return {
          ok: true,
          statements,
          added: delta.addedTriples.length,
          updated: delta.updatedTriples.length,
          symbolsAdded: delta.symbols.length,
          stats: statsOf(graph),
          ...(format !== 'csv' ? { shared } : {}),
          isDryRun: true,
        };
      // The prefixes the file declares join the session's, for its queries (a later file's win).
      const sessionPrefixes =
        Object.keys(prefixes).length > 0 ? usablePrefixes({ ...session.prefixes, ...prefixes }) : undefined;
      options.onWriting?.();
      onProgress?.({ phase: 'writing', bytesRead: totalBytes, totalBytes, statements });
      if (delta.symbols.length > 0 || delta.addedTriples.length > 0 || delta.updatedTriples.length > 0) {
        const storedAt = now();
        const stored = await storeGraphDelta(db, {
          graph,
          sessionId,
          delta,
          now: storedAt,
          ...(sessionPrefixes !== undefined ? { prefixes: sessionPrefixes } : {}),
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
        if (sessionPrefixes !== undefined) graph.prefixes = sessionPrefixes;
      }
      return {
        ok: true,
        statements,
        added: delta.addedTriples.length,
        updated: delta.updatedTriples.length,
        symbolsAdded: delta.symbols.length,
        stats: statsOf(graph),
        ...(format !== 'csv' ? { shared } : {}),
      };
    });

  /**
   * Reads a graph file into a batch and returns what it would change; the batch (its lookup maps,
   * as large as the delta) is let go here, so a large import is not held twice while it is stored.
   */
  const stageGraphFile = async (
    graph: KnowledgeGraph,
    options: {
      sessionId: string;
      source: GraphFileSource;
      format: KgImportFormat;
      signal?: AbortSignal;
      linkSameLabels: boolean;
      language?: string;
      onProgress: (progress: ReadProgress) => void;
    },
  ): Promise<
    Result<
      {
        statements: number;
        totalBytes: number;
        delta: GraphDelta;
        shared: SharedWithGraph;
        prefixes: Record<string, string>;
      },
      Problem[] | 'cancelled'
    >
  > => {
    const { sessionId, linkSameLabels, language, ...reading } = options;
    const stagedAt = now();
    const batch = graph.batch({ now: stagedAt, ...(language !== undefined ? { language } : {}) });
    // The file readers (Turtle, N-Triples, CSV) and the joining of what they read are fetched with the first import.
    const [{ readGraphFile }, { importBudget }, { joinStagedImport }] = await Promise.all([
      import('#core/kg/import/read-graph-file.ts'),
      import('#core/sessions/snapshot-size.ts'),
      import('#core/kg/import/join.ts'),
    ]);
    const read = await readGraphFile({
      ...reading,
      batch,
      onStaged: await importBudget(db, { graph, sessionId, stagedAt, limits: dependencies.snapshotLimits }),
    });
    if (!read.ok) return read;
    const shared = joinStagedImport(graph, batch, { linkSameLabels });
    return { ok: true, value: { ...read.value, delta: batch.delta, shared, prefixes: usablePrefixes(batch.prefixes) } };
  };

  const loadStarterGraphIfPending = async (
    sessionId: string,
    onProgress?: (progress: ImportProgress) => void,
  ): Promise<boolean> => {
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
    if (!outcome.ok)
      throw new Error(
        `the bundled starter graph did not load: ${outcome.problems.map((problem) => problem.message).join('; ')}`,
      );
    await db.settings.put({ key: starterGraphKey(sessionId), value: 'loaded' });
    return true;
  };

  return {
    dependencies,
    db,
    now,
    newId,
    graphs,
    operations,
    watches,
    isBusy,
    similarityOf,
    invalidateSimilarity,
    applyStored,
    canWrite,
    onSessionEvent,
    exclusively,
    graphOf,
    sessionOf,
    importInto,
    loadStarterGraphIfPending,
    documentsOf,
    forgetDocuments,
  };
}
