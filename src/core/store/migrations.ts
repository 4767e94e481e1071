import { Dexie, type Transaction } from 'dexie';
import { KnowledgeGraph } from '#core/kg/graph.ts';
import type { KgSymbol } from '#core/kg/symbol.ts';
import type { Triple } from '#core/kg/triple.ts';
import { relabelNumberedNames } from '#core/kg/numbered-names.ts';
import type { Artifact, ArtifactBytesRecord } from '#core/records/artifact.ts';
import { chunksOfGraph, type SymbolChunkRecord, type TripleChunkRecord } from './graph-chunks.ts';

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
        .between(
          [sessionId, Dexie.minKey, Dexie.minKey, Dexie.minKey],
          [sessionId, Dexie.maxKey, Dexie.maxKey, Dexie.maxKey],
        )
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
  /**
   * Names are told apart by parent or source since version 7, never numbered: a symbol labelled
   * `Mammal-2` because its local name was taken gets its name (see relabelNumberedNames).
   */
  7: async (transaction) => {
    const sessions: { id: string }[] = await transaction.table('sessions').toArray();
    for (const { id: sessionId } of sessions) {
      const range = [
        [sessionId, Dexie.minKey],
        [sessionId, Dexie.maxKey],
      ] as const;
      const symbolChunks: SymbolChunkRecord[] = await transaction
        .table('symbolChunks')
        .where('[sessionId+index]')
        .between(...range)
        .toArray();
      // Most sessions have no numbered name: their triples are never read.
      if (!symbolChunks.some((chunk) => chunk.symbols.some((symbol) => /-\d+$/u.test(symbol.label)))) continue;
      const tripleChunks: TripleChunkRecord[] = await transaction
        .table('tripleChunks')
        .where('[sessionId+index]')
        .between(...range)
        .toArray();
      const triples: Triple[] = tripleChunks.flatMap((chunk) =>
        Array.from({ length: chunk.count }, (_, at) => ({
          subject: chunk.subjects[at]!,
          predicate: chunk.predicates[at]!,
          object: chunk.objects[at]!,
          confidence: chunk.confidences[at]!,
          createdAt: chunk.createdAt[at]!,
        })),
      );
      const relabelled = new Map(
        relabelNumberedNames(
          KnowledgeGraph.from(
            symbolChunks.flatMap((chunk) => chunk.symbols),
            triples,
          ),
        ).map((symbol) => [symbol.id, symbol]),
      );
      const changed = symbolChunks.filter((chunk) => chunk.symbols.some((symbol) => relabelled.has(symbol.id)));
      await transaction.table('symbolChunks').bulkPut(
        changed.map((chunk) => ({
          ...chunk,
          symbols: chunk.symbols.map((symbol) => relabelled.get(symbol.id) ?? symbol),
        })),
      );
    }
  },
  /**
   * Version 9 kept only a goal's Markdown notes, text and all in one row; version 10 keeps
   * artifacts of any kind, their bytes apart. A note becomes a text artifact of file_io's.
   */
  10: async (transaction) => {
    type Note = {
      id: number;
      sessionId: string;
      goalId: number;
      name: string;
      mediaType: string;
      text: string;
      cycle: number;
      createdAt: number;
      updatedAt: number;
    };
    const notes: Note[] = await transaction.table('artifacts').toArray();
    const encoder = new TextEncoder();
    const bytes: ArtifactBytesRecord[] = notes.map((note) => ({
      id: note.id,
      sessionId: note.sessionId,
      bytes: encoder.encode(note.text),
    }));
    const artifacts: Artifact[] = notes.map((note, index) => ({
      id: note.id,
      sessionId: note.sessionId,
      tool: 'file_io',
      goalId: note.goalId,
      cycle: note.cycle,
      name: note.name,
      kind: 'text',
      mediaType: note.mediaType,
      size: bytes[index]!.bytes.byteLength,
      createdAt: note.createdAt,
      updatedAt: note.updatedAt,
    }));
    await transaction.table('artifacts').bulkPut(artifacts);
    await transaction.table('artifactBytes').bulkPut(bytes);
  },
};
