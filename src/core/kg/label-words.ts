import type { KnowledgeGraph } from './graph.ts';
import { textWords } from './hypervector.ts';
import { pushTo } from './position-lists.ts';
import type { SliceLimit } from './slice.ts';

/**
 * Which entities and relations have a word in their label, in the order they were indexed.
 * Symbols with an id below `nextSymbolId` are indexed (`symbolCount` of them); the rest are not yet.
 */
export type LabelIndex = { symbolsByWord: Map<string, number[]>; nextSymbolId: number; symbolCount: number };

/** Symbols indexed between two looks at the clock. */
const SYMBOLS_PER_CHECK = 512;

function emptyLabelIndex(): LabelIndex {
  return { symbolsByWord: new Map(), nextSymbolId: 0, symbolCount: 0 };
}

/**
 * Indexes the graph's symbols from where the index stopped, until every symbol is in or the
 * limit stops it (a million symbols take about a second: built in slices, nothing blocks that
 * long). Symbols only ever get new, higher ids, so new ones are taken in as they come; if, once
 * all are in, the count disagrees with the graph (symbols went away, or were loaded out of
 * order), the index starts again. Returns the index and whether it is complete.
 */
export function growLabelIndex(
  graph: KnowledgeGraph,
  previous: LabelIndex | undefined,
  limit: SliceLimit = {},
): { index: LabelIndex; isComplete: boolean } {
  let index = previous ?? emptyLabelIndex();
  for (;;) {
    const end = graph.nextSymbolId;
    while (index.nextSymbolId < end) {
      const stop = Math.min(end, index.nextSymbolId + SYMBOLS_PER_CHECK);
      for (let symbolId = index.nextSymbolId; symbolId < stop; symbolId++) {
        const symbol = graph.symbol(symbolId);
        if (symbol === undefined) continue;
        index.symbolCount++;
        if (symbol.kind !== 'literal')
          for (const word of new Set(textWords(symbol.label))) pushTo(index.symbolsByWord, word, symbolId);
      }
      index.nextSymbolId = stop;
      if (index.nextSymbolId < end && limit.shouldStop?.() === true) return { index, isComplete: false };
    }
    if (index.symbolCount === graph.symbolCount) return { index, isComplete: true };
    index = emptyLabelIndex();
  }
}

/** The label word index, complete and up to date (see {@link growLabelIndex}). */
export function syncedLabelIndex(graph: KnowledgeGraph, previous: LabelIndex | undefined): LabelIndex {
  return growLabelIndex(graph, previous).index;
}
