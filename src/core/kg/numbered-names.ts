import type { KnowledgeGraph } from './graph.ts';
import { nameRank, languageRank, isParentRelation, sourceOf, baseName, distinctName } from './names.ts';
import { type KgSymbol, labelKey, localName } from './symbol.ts';

/**
 * The symbols an older Anima labelled with a number because their name was taken (`Mammal-2` for
 * <http://e.org/Mammal>, `_:x-2`), labelled as imports label them now: by their best name, told
 * apart by their parent or their source (see {@link distinctName}). For migrations of stored sessions and snapshots.
 */
export function relabelNumberedNames(graph: KnowledgeGraph): KgSymbol[] {
  const numbered = [...graph.symbols()].filter((symbol) => {
    const match = /^(.+)-\d+$/u.exec(symbol.label);
    if (!match || symbol.kind === 'literal') return false;
    return symbol.iri !== undefined
      ? labelKey(match[1]!) === labelKey(localName(symbol.iri))
      : match[1]!.startsWith('_:');
  });
  const taken = new Set(
    [...graph.symbols()].filter((symbol) => symbol.kind !== 'literal').map((symbol) => labelKey(symbol.label)),
  );
  const { subjects, predicates, objects } = graph.columns;
  const relabelled: KgSymbol[] = [];
  for (const symbol of numbered) {
    taken.delete(labelKey(symbol.label));
    let best: { text: string; rank: number } | undefined;
    let parent: number | undefined;
    for (const position of graph.positionsFrom(symbol.id)) {
      const predicate = graph.symbol(predicates[position]!);
      const object = graph.symbol(objects[position]!);
      if (!predicate || !object) continue;
      const rank = nameRank(predicate);
      if (rank !== undefined && object.kind === 'literal' && object.label.trim() !== '') {
        const candidate = { text: object.label.trim(), rank: languageRank(object.language, undefined) * 10 + rank };
        if (!best || candidate.rank < best.rank) best = candidate;
      } else if (
        parent === undefined &&
        isParentRelation(predicate) &&
        object.id !== symbol.id &&
        subjects[position] === symbol.id
      )
        parent = object.id;
    }
    const name = best?.text ?? (symbol.iri !== undefined ? localName(symbol.iri) : symbol.label.replace(/-\d+$/u, ''));
    const parentLabel = parent !== undefined ? graph.symbol(parent)?.label : undefined;
    const source = symbol.iri !== undefined ? sourceOf(symbol.iri, {}) : undefined;
    const context = {
      ...(parentLabel !== undefined ? { parentName: baseName(parentLabel) } : {}),
      ...(source !== undefined ? { source } : {}),
      ...(symbol.iri !== undefined ? { iri: symbol.iri } : {}),
    };
    const label =
      distinctName(name, context, (candidate) => taken.has(labelKey(candidate))) ??
      `${name} · ${new Date(symbol.createdAt).toISOString()} ${symbol.id}`;
    taken.add(labelKey(label));
    relabelled.push({ ...symbol, label });
  }
  return relabelled;
}
