import type { ProvenanceRecord } from '#core/kg/provenance.ts';
import type { AgentServiceImplementation } from '#core/api.ts';
import type { ServiceContext } from './service-context.ts';
import { READ_ONLY_MESSAGE } from './service-context.ts';
import { factOf, refOf, statsOf, symbolOrThrow } from './views.ts';
import { exportNTriples } from '#core/kg/export-ntriples.ts';
import { formatFromFileName } from '#core/kg/import/statement.ts';
import { derivationsProvenance, provenanceOfFact, stageDerivations } from '#core/kg/inference.ts';
import { ForwardChaining } from '#core/kg/forward-chaining.ts';
import { sliceOf, yieldToEvents } from '#core/kg/slice.ts';
import { parseQuery, runQuery } from '#core/kg/query.ts';
import { searchSymbols } from '#core/kg/search.ts';
import { shortestPath } from '#core/kg/traversal.ts';
import { storeGraphDelta } from '#core/store/kg-repository.ts';
import { isQuotaExceeded, storageFull } from '#core/store/quota.ts';
import { WELL_KNOWN_PREFIXES } from '#core/kg/standard-terms.ts';

type KgMethods =
  | 'kgStats'
  | 'kgPrefixes'
  | 'kgSearch'
  | 'kgSymbol'
  | 'kgImport'
  | 'kgExport'
  | 'kgQuery'
  | 'kgInfer'
  | 'kgSimilar'
  | 'kgPath'
  | 'kgProvenance';

/** How long a slice of a full materialisation holds the worker before it yields (a cancel waits no longer). */
const INFERENCE_SLICE_MS = 25;

/** The knowledge graph's slice of the AgentService. */
export function kgService(context: ServiceContext): Pick<AgentServiceImplementation, KgMethods> {
  const { db, now, graphOf, sessionOf, exclusively, canWrite, operations, similarityOf, applyStored, importInto } =
    context;
  let lastProvenance: { id: number; record: ProvenanceRecord } | undefined;
  return {
    async kgStats({ sessionId }) {
      return statsOf(await graphOf(sessionId));
    },

    async kgPrefixes({ sessionId }) {
      const declared = (await sessionOf(sessionId)).prefixes ?? {};
      const known = Object.entries(WELL_KNOWN_PREFIXES).filter(([prefix]) => !Object.hasOwn(declared, prefix));
      return {
        prefixes: [
          ...known.map(([prefix, namespace]) => ({ prefix, namespace, isDeclared: false })),
          ...Object.entries(declared).map(([prefix, namespace]) => ({ prefix, namespace, isDeclared: true })),
        ].sort((a, b) => a.prefix.localeCompare(b.prefix)),
      };
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

    async kgImport({ sessionId, operationId, fileName, format, data, linkSameLabels, language, dryRun }, onProgress) {
      const chosen = format ?? formatFromFileName(fileName);
      if (!chosen) {
        return {
          ok: false,
          reason: 'unknown-format',
          problems: [
            { message: `cannot tell the format of "${fileName}": use a .nt, .ttl or .csv file, or choose the format` },
          ],
        };
      }
      // A preview writes nothing: another tab's writing does not stop it.
      if (!dryRun && !canWrite()) return { ok: false, reason: 'read-only', problems: [{ message: READ_ONLY_MESSAGE }] };
      const controller = new AbortController();
      operations.set(operationId, controller);
      try {
        return await importInto({
          sessionId,
          source: data,
          fileName,
          format: chosen,
          kind: 'import',
          ...(dryRun ? { dryRun } : {}),
          ...(linkSameLabels !== undefined ? { linkSameLabels } : {}),
          ...(language !== undefined ? { language } : {}),
          signal: controller.signal,
          onWriting: () => operations.delete(operationId),
          onProgress,
        });
      } catch (error) {
        // The import is stored in one transaction, and the graph takes it in only once it is stored: nothing changed.
        if (isQuotaExceeded(error)) return storageFull();
        throw error;
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
        rows: answer.rows.map((row) =>
          Object.fromEntries(Object.entries(row).map(([name, id]) => [name, refOf(symbolOrThrow(graph, id))])),
        ),
        isTruncated: answer.isTruncated,
        unknownTerms: answer.unknownTerms,
      };
    },

    async kgInfer({ sessionId, operationId, minConfidence, maxIterations, maxDerived, limit }, onProgress) {
      if (!canWrite()) return { ok: false, reason: 'read-only', problems: [{ message: READ_ONLY_MESSAGE }] };
      const controller = new AbortController();
      if (operationId !== undefined) operations.set(operationId, controller);
      try {
        return await exclusively(async () => {
          const session = await sessionOf(sessionId);
          const graph = await graphOf(sessionId);
          const startedAt = now();
          // A slice at a time, yielding between: a cancel, a query or a Pause is answered meanwhile.
          // The graph does not change between slices, as writes wait for this one.
          const chaining = new ForwardChaining(graph, { minConfidence, maxIterations, maxDerived });
          while (!chaining.isDone) {
            chaining.advance(sliceOf(INFERENCE_SLICE_MS));
            onProgress?.({ phase: 'deriving', ...chaining.progress });
            await yieldToEvents();
            if (controller.signal.aborted)
              return {
                ok: false as const,
                reason: 'cancelled' as const,
                problems: [{ message: 'inference was cancelled: nothing it derived was stored' }],
              };
          }
          // Storing is one transaction, all or nothing: from here a cancel has nothing to stop.
          if (operationId !== undefined) operations.delete(operationId);
          onProgress?.({ phase: 'storing', ...chaining.progress });
          const result = chaining.result();
          const { delta, derivationOf } = stageDerivations(graph, result.derivations, startedAt);
          const stored = await storeGraphDelta(db, {
            graph,
            sessionId,
            delta,
            now: startedAt,
            provenance: {
              perBatch: (triples) =>
                derivationsProvenance(triples.map(derivationOf), {
                  sessionId,
                  cycle: session.cycle,
                  createdAt: startedAt,
                }),
            },
          });
          applyStored(graph, stored);
          const changed = [...stored.addedTriples, ...stored.updatedTriples].slice(0, limit);
          return {
            ok: true as const,
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
      } finally {
        if (operationId !== undefined) operations.delete(operationId);
      }
    },

    async kgSimilar({ sessionId, symbolId, text, k }) {
      const graph = await graphOf(sessionId);
      const index = similarityOf(graph);
      const hits = symbolId !== undefined ? index.nearest(symbolId, { k }) : index.nearestToText(text ?? '', k);
      return {
        hits: hits.map((hit) => ({ symbol: refOf(symbolOrThrow(graph, hit.symbolId)), similarity: hit.similarity })),
      };
    },

    async kgPath({ sessionId, from, to, maxLength }) {
      const graph = await graphOf(sessionId);
      if (!graph.symbol(from) || !graph.symbol(to)) return { isFound: false };
      const path = shortestPath(graph, from, to, { maxLength });
      return path
        ? {
            isFound: true,
            steps: path.map((step) => ({ fact: factOf(graph, step.triple), isForward: step.isForward })),
          }
        : { isFound: false };
    },

    async kgProvenance({ sessionId, provenanceId, fact }) {
      // Records are never changed once written and ids never reused: the facts of one batch, asked
      // about one after another (a goal's findings), read their record once.
      const record =
        lastProvenance?.id === provenanceId ? lastProvenance.record : await db.provenance.get(provenanceId);
      if (record) lastProvenance = { id: provenanceId, record };
      if (!record || record.sessionId !== sessionId) return { isFound: false };
      // A batch of derivations is told for the one fact asked about (its list stays in storage).
      const graph = record.derivations ? await graphOf(sessionId) : undefined;
      return {
        isFound: true,
        record: { ...(graph ? provenanceOfFact(graph, record, fact) : record), id: provenanceId },
      };
    },
  };
}
