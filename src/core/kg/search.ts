import type { KnowledgeGraph } from './graph.ts';
import type { KgSymbol } from './symbol.ts';
import { GraphVocabulary } from './vocabulary.ts';

/** A symbol found by search, and the text that matched (its own label, or an rdfs:label value). */
export type SearchHit = { symbol: KgSymbol; matchedText: string; isLabelLiteral: boolean };

/**
 * Finds entities and relations whose label, or one of whose names (rdfs:label, skos:prefLabel, ...), contains the text
 * (case-insensitive). Exact matches first, then prefixes, then the rest; ties by label.
 */
export function searchSymbols(
  graph: KnowledgeGraph,
  text: string,
  limit: number,
): { hits: SearchHit[]; total: number } {
  const needle = text.normalize('NFKC').toLowerCase().trim();
  if (needle === '') return { hits: [], total: 0 };
  const found = new Map<number, SearchHit & { rank: number }>();
  const consider = (symbol: KgSymbol, matchedText: string, isLabelLiteral: boolean) => {
    const haystack = matchedText.normalize('NFKC').toLowerCase();
    const position = haystack.indexOf(needle);
    if (position < 0) return;
    const rank = haystack === needle ? 0 : position === 0 ? 1 : 2;
    const previous = found.get(symbol.id);
    if (!previous || rank < previous.rank) found.set(symbol.id, { symbol, matchedText, isLabelLiteral, rank });
  };
  for (const symbol of graph.symbols()) if (symbol.kind !== 'literal') consider(symbol, symbol.label, false);
  // Every name a thing is given (rdfs:label, skos:prefLabel and altLabel, schema:name, foaf:name, ...), in any language.
  const { subjects, objects } = graph.columns;
  for (const predicate of GraphVocabulary.of(graph).relationNamed('label').ids) {
    for (const position of graph.positionsWith(predicate)) {
      const subject = graph.symbol(subjects[position]!);
      const value = graph.symbol(objects[position]!);
      if (subject && value?.kind === 'literal' && subject.kind !== 'literal') consider(subject, value.label, true);
    }
  }
  const sorted = [...found.values()].sort((a, b) => a.rank - b.rank || a.symbol.label.localeCompare(b.symbol.label));
  return { hits: sorted.slice(0, limit).map(({ rank: _rank, ...hit }) => hit), total: sorted.length };
}
