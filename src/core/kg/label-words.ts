import type { KnowledgeGraph } from './graph.ts';
import { textWords } from './hypervector.ts';
import { pushTo } from './position-lists.ts';

/** Which entities and relations have a word in their label, in the order they were indexed. */
export type LabelIndex = { symbolsByWord: Map<string, number[]>; nextSymbolId: number; symbolCount: number };

function addLabelWords(index: LabelIndex, symbolId: number, label: string): void {
  for (const word of new Set(textWords(label))) pushTo(index.symbolsByWord, word, symbolId);
}

/**
 * The label word index, brought up to date. Symbols only ever get new, higher ids, so new ones
 * are indexed from where the last call stopped; if the count still disagrees with the graph
 * (symbols loaded out of order), the index is rebuilt.
 */
export function syncedLabelIndex(graph: KnowledgeGraph, previous: LabelIndex | undefined): LabelIndex {
  let index = previous;
  if (index !== undefined && graph.nextSymbolId > index.nextSymbolId) {
    for (let symbolId = index.nextSymbolId; symbolId < graph.nextSymbolId; symbolId++) {
      const symbol = graph.symbol(symbolId);
      if (symbol === undefined) continue;
      index.symbolCount++;
      if (symbol.kind !== 'literal') addLabelWords(index, symbolId, symbol.label);
    }
    index.nextSymbolId = graph.nextSymbolId;
  }
  if (index === undefined || index.symbolCount !== graph.symbolCount) {
    index = { symbolsByWord: new Map(), nextSymbolId: graph.nextSymbolId, symbolCount: 0 };
    for (const symbol of graph.symbols()) {
      index.symbolCount++;
      if (symbol.kind !== 'literal') addLabelWords(index, symbol.id, symbol.label);
    }
  }
  return index;
}
