import { Dexie, type Transaction } from 'dexie';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import type { KgSymbol } from '#core/kg/symbol.ts';
import type { Triple } from '#core/kg/triple.ts';
import { chunksOfGraph } from './graph-chunks.ts';

/** Upgrade functions by the schema version they lead to; they run inside Dexie's upgrade transaction. */
export const UPGRADES: Record<number, (transaction: Transaction) => Promise<void>> = {
  /** Version 1 kept one row per symbol and per triple; version 2 keeps packed chunks. */
  2: async (transaction) => {
    const sessions: { id: string }[] = await transaction.table('sessions').toArray();
    for (const { id: sessionId } of sessions) {
      const symbols: (KgSymbol & { sessionId?: string })[] = await transaction
        .table('symbols')
        .where('[sessionId+id]')
        .between([sessionId, Dexie.minKey], [sessionId, Dexie.maxKey])
        .toArray();
      const triples: (Triple & { sessionId?: string })[] = await transaction
        .table('triples')
        .where('[sessionId+subject+predicate+object]')
        .between([sessionId, Dexie.minKey, Dexie.minKey, Dexie.minKey], [sessionId, Dexie.maxKey, Dexie.maxKey, Dexie.maxKey])
        .toArray();
      const graph = KnowledgeGraph.from(
        symbols.map(({ sessionId: _sessionId, ...symbol }) => symbol),
        triples.map(({ sessionId: _sessionId, ...triple }) => triple),
      );
      const { symbolChunks, tripleChunks } = chunksOfGraph(graph, sessionId);
      await transaction.table('symbolChunks').bulkPut(symbolChunks);
      await transaction.table('tripleChunks').bulkPut(tripleChunks);
    }
  },
};
