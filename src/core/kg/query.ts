import type { Problem, Result } from '#core/result.ts';
import type { KnowledgeGraph } from './graph.ts';
import { ANIMA_IRI_BASE, literalKey, localName } from './symbol.ts';

/** A term of a query pattern: a variable, or a symbol given by label, IRI or quoted literal. */
export type QueryTerm = { type: 'variable'; name: string } | { type: 'label' | 'iri' | 'literal'; value: string };
export type TriplePattern = [QueryTerm, QueryTerm, QueryTerm];
/** One answer: each variable bound to a symbol id. */
export type Bindings = Record<string, number>;

/**
 * Parses `?x is-a mammal . ?x has-part ?y`: patterns of three terms separated by ` . `.
 * Terms are `?name`, a label (case-insensitive), `<iri>`, or `"a quoted label or literal"`.
 */
export function parseQuery(text: string): Result<TriplePattern[]> {
  const tokens: QueryTerm[][] = [[]];
  // A label may hold dots (v1.2) but not end in one: `mammal.` is the label mammal and the pattern's end.
  const tokenPattern = /\s*(?:(\?[\p{L}\p{N}_-]+)|<([^>]*)>|"((?:[^"\\]|\\.)*)"|(\.)(?=\s|$)|([^\s"<>]+?)(?=\.?(?:\s|$)))/uy;
  let position = 0;
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: [{ message: 'the query is empty; try ?x is-a mammal' }] };
  while (position < trimmed.length) {
    tokenPattern.lastIndex = position;
    const match = tokenPattern.exec(trimmed);
    if (!match) return { ok: false, error: [{ message: `cannot read the query at character ${position + 1}` }] };
    position = tokenPattern.lastIndex;
    const [, variable, iri, quoted, dot, label] = match;
    const current = tokens[tokens.length - 1]!;
    if (dot !== undefined) tokens.push([]);
    else if (variable !== undefined) current.push({ type: 'variable', name: variable.slice(1) });
    else if (iri !== undefined) current.push({ type: 'iri', value: iri });
    else if (quoted !== undefined) current.push({ type: 'literal', value: quoted.replace(/\\(.)/g, '$1') });
    else if (label !== undefined) current.push({ type: 'label', value: label });
  }
  const patterns = tokens.filter((pattern, index) => pattern.length > 0 || index < tokens.length - 1);
  const problems: Problem[] = patterns.flatMap((pattern, index) =>
    pattern.length === 3 ? [] : [{ path: `pattern ${index + 1}`, message: `needs 3 terms (subject predicate object), has ${pattern.length}` }],
  );
  if (problems.length > 0) return { ok: false, error: problems };
  return { ok: true, value: patterns as TriplePattern[] };
}

/** The outcome of a query: answers, and the labels the graph does not know (which explain an empty answer). */
export type QueryAnswer = { variables: string[]; rows: Bindings[]; isTruncated: boolean; unknownTerms: string[] };

/** A pattern term once resolved: a variable, or the symbols a constant may stand for. */
type ResolvedTerm = { type: 'variable'; name: string } | { type: 'constant'; ids: number[] };

/**
 * Matches conjunctive patterns against the graph; most selective pattern first, at most `limit`
 * rows. A name stands for every symbol of that name (see KnowledgeGraph.symbolsNamed).
 */
export function runQuery(graph: KnowledgeGraph, patterns: TriplePattern[], limit: number): QueryAnswer {
  const variables = [...new Set(patterns.flatMap((pattern) => pattern.filter((term) => term.type === 'variable').map((term) => term.name)))];
  const unknownTerms: string[] = [];
  const resolved = patterns.map((pattern) =>
    pattern.map((term): ResolvedTerm => {
      if (term.type === 'variable') return term;
      const ids = resolveTerm(graph, term);
      if (ids.length === 0) unknownTerms.push(term.type === 'iri' ? `<${term.value}>` : term.value);
      return { type: 'constant', ids };
    }),
  );
  if (unknownTerms.length > 0) return { variables, rows: [], isTruncated: false, unknownTerms };

  const rows: Bindings[] = [];
  let isTruncated = false;
  const { subjects, predicates, objects } = graph.columns;
  /** Each position of a pattern: the ids it may take (one combination per choice), or [undefined] for "any". */
  const choicesOf = (pattern: ResolvedTerm[], bindings: Bindings) =>
    pattern.map((term) => (term.type === 'constant' ? term.ids : bindings[term.name] !== undefined ? [bindings[term.name]!] : [undefined])) as [
      (number | undefined)[],
      (number | undefined)[],
      (number | undefined)[],
    ];
  const estimate = (pattern: ResolvedTerm[], bindings: Bindings): number => {
    const [subjectChoices, predicateChoices, objectChoices] = choicesOf(pattern, bindings);
    let total = 0;
    for (const subject of subjectChoices) for (const predicate of predicateChoices) for (const object of objectChoices) total += graph.estimateMatches(subject, predicate, object);
    return total;
  };
  const solve = (remaining: ResolvedTerm[][], bindings: Bindings): void => {
    if (isTruncated) return;
    if (remaining.length === 0) {
      if (rows.length >= limit) isTruncated = true;
      else rows.push({ ...bindings });
      return;
    }
    // The pattern with the fewest candidates under the current bindings goes first (index sizes, no scan).
    let bestIndex = 0;
    let bestEstimate = Infinity;
    for (const [index, pattern] of remaining.entries()) {
      const size = estimate(pattern, bindings);
      if (size < bestEstimate) {
        bestIndex = index;
        bestEstimate = size;
      }
    }
    const pattern = remaining[bestIndex]!;
    const rest = remaining.filter((_, index) => index !== bestIndex);
    const [subjectChoices, predicateChoices, objectChoices] = choicesOf(pattern, bindings);
    for (const subject of subjectChoices)
      for (const predicate of predicateChoices)
        for (const object of objectChoices)
          for (const position of graph.matchPositions(subject, predicate, object)) {
            const next = unify(pattern, [subjects[position]!, predicates[position]!, objects[position]!], bindings);
            if (next) solve(rest, next);
            if (isTruncated) return;
          }
  };
  solve(resolved, {});
  return { variables, rows, isTruncated, unknownTerms };
}

/**
 * The stored triples an answer stands on: for each pattern, the triple its bound variables and
 * constants name (a constant name may stand for several symbols: the one stored counts).
 */
export function triplesOfAnswer(graph: KnowledgeGraph, patterns: readonly TriplePattern[], row: Bindings): [number, number, number][] {
  const found: [number, number, number][] = [];
  for (const pattern of patterns) {
    const [subjects, predicates, objects] = pattern.map((term) => (term.type === 'variable' ? (row[term.name] !== undefined ? [row[term.name]!] : []) : resolveTerm(graph, term)));
    search: for (const subject of subjects!)
      for (const predicate of predicates!)
        for (const object of objects!)
          if (graph.positionOf(subject, predicate, object) !== -1) {
            found.push([subject, predicate, object]);
            break search;
          }
  }
  return found;
}

function resolveTerm(graph: KnowledgeGraph, term: Exclude<QueryTerm, { type: 'variable' }>): number[] {
  const ids = (symbol: { id: number } | undefined) => (symbol ? [symbol.id] : []);
  switch (term.type) {
    case 'iri':
      return term.value.startsWith(ANIMA_IRI_BASE) ? ids(graph.symbolByLabel(localName(term.value))) : ids(graph.symbolByIri(term.value));
    case 'label':
      return graph.symbolsNamed(term.value).map((symbol) => symbol.id);
    case 'literal': {
      const named = graph.symbolsNamed(term.value).map((symbol) => symbol.id);
      return named.length > 0 ? named : ids(graph.symbolByKey(literalKey(term.value)));
    }
  }
}

function unify(pattern: ResolvedTerm[], values: number[], bindings: Bindings): Bindings | undefined {
  const next = { ...bindings };
  for (const [index, term] of pattern.entries()) {
    const value = values[index]!;
    if (term.type === 'constant') {
      if (!term.ids.includes(value)) return undefined;
    } else if (next[term.name] === undefined) next[term.name] = value;
    else if (next[term.name] !== value) return undefined;
  }
  return next;
}
