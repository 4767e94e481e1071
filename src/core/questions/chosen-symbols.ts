import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { type ChosenSymbol, MAX_CHOSEN_SYMBOLS, type SymbolChoice } from '#core/records/goal.ts';
import type { Problem, Result } from '#core/result.ts';
import { displayName } from './answer-view.ts';
import { vocabularyOf } from './vocabulary.ts';
import { labelWords, wordsOf } from './words.ts';

/** Words as the reader compares them: their lemmas ("Mercury's" and "mercury" are the same words). */
export function wordsKey(text: string): string {
  return wordsOf(text)
    .map((word) => word.lemma)
    .join(' ');
}

/**
 * The symbols chosen for a question's words, checked against the graph before anything is
 * stored: each names words the question has and a symbol the graph holds (an entity or a
 * relation, by id, IRI or name; a name two symbols answer to is refused, naming both). Problems
 * name the choice: `chosenSymbols.0: there is no symbol "Quicksilver" in this graph`.
 */
export function chosenSymbolsOf(
  graph: KnowledgeGraph,
  question: string,
  choices: readonly SymbolChoice[],
): Result<ChosenSymbol[]> {
  const problems: Problem[] = [];
  if (choices.length > MAX_CHOSEN_SYMBOLS)
    return {
      ok: false,
      error: [{ path: 'chosenSymbols', message: `${choices.length} symbols chosen, at most ${MAX_CHOSEN_SYMBOLS}` }],
    };
  const questionKey = ` ${wordsKey(question)} `;
  const chosen: ChosenSymbol[] = [];
  for (const [index, choice] of choices.entries()) {
    const path = `chosenSymbols.${index}`;
    const key = wordsKey(choice.words);
    if (key === '' || !questionKey.includes(` ${key} `)) {
      problems.push({ path, message: `the question has no words "${choice.words}" to choose a symbol for` });
      continue;
    }
    const found = symbolOf(graph, choice.symbol);
    if (typeof found === 'string') problems.push({ path, message: found });
    else if (chosen.some((other) => wordsKey(other.words) === key))
      problems.push({ path, message: `"${choice.words}" has a symbol chosen twice` });
    else chosen.push({ words: choice.words, symbol: found });
  }
  return problems.length > 0 ? { ok: false, error: problems } : { ok: true, value: chosen };
}

/** The entity or relation a choice names, or why there is none. */
function symbolOf(graph: KnowledgeGraph, named: number | string): number | string {
  if (typeof named === 'number') {
    const symbol = graph.symbol(named);
    if (!symbol) return `there is no symbol ${named} in this graph`;
    return symbol.kind === 'literal' ? `symbol ${named} is a value ("${symbol.label}"), not a thing to name` : named;
  }
  const byIri = graph.symbolByIri(named);
  if (byIri && byIri.kind !== 'literal') return byIri.id;
  let candidates = graph.symbolsNamed(named).map((symbol) => symbol.id);
  // A graph that names its things by rdfs:label ("dog" for wnid:02084071-n): by those names.
  if (candidates.length === 0) {
    const { entities, relations } = vocabularyOf(graph);
    const key = labelWords(named).join(' ');
    candidates = [...(entities.get(key) ?? []), ...(relations.get(key) ?? [])];
  }
  candidates = candidates.filter((id) => graph.symbol(id)?.kind !== 'literal');
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length > 1)
    return `"${named}" names ${candidates.map((id) => graph.symbol(id)?.iri ?? displayName(graph, id)).join(' and ')}: give the IRI of the one you mean`;
  return `there is no symbol "${named}" in this graph`;
}

/** The symbol chosen for these words, if one is. */
export function chosenFor(chosen: readonly ChosenSymbol[], words: string): number | undefined {
  if (chosen.length === 0) return undefined;
  const key = wordsKey(words);
  return chosen.find((choice) => wordsKey(choice.words) === key)?.symbol;
}
