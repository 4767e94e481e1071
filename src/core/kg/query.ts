import type { Problem, Result } from '#core/result.ts';
import type { KnowledgeGraph } from './graph.ts';
import { ANIMA_IRI_BASE, literalKey, localName } from './symbol.ts';
import { GraphVocabulary } from './vocabulary.ts';
import { expandPrefixedName, WELL_KNOWN_PREFIXES } from './standard-terms.ts';

/** A term of a query pattern: a variable, or a symbol given by label, IRI or quoted literal. */
export type QueryTerm =
  | { type: 'variable'; name: string }
  | { type: 'label' | 'iri'; value: string }
  | { type: 'literal'; value: string; language?: string };
export type TriplePattern = [QueryTerm, QueryTerm, QueryTerm];
/** One answer: each variable bound to a symbol id. */
export type Bindings = Record<string, number>;

/**
 * Parses `?x is-a mammal . ?x has-part ?y`: patterns of three terms separated by ` . `.
 * Terms are `?name`, a label (case-insensitive) or prefixed name (`rdfs:label`), `<iri>`, or
 * `"a quoted label or literal"`, with a language if need be (`"chien"@fr`). A relation alone
 * (`rdfs:subClassOf`) stands for `?subject rdfs:subClassOf ?object`.
 */
export function parseQuery(text: string): Result<TriplePattern[]> {
  const tokens: QueryTerm[][] = [[]];
  // A label may hold dots (v1.2) but not end in one: `mammal.` is the label mammal and the pattern's end.
  const tokenPattern =
    /\s*(?:(\?[\p{L}\p{N}_-]+)|<([^>]*)>|"((?:[^"\\]|\\.)*)"(?:@([A-Za-z]+(?:-[A-Za-z0-9]+)*))?|(\.)(?=\s|$)|([^\s"<>]+?)(?=\.?(?:\s|$)))/uy;
  let position = 0;
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: [{ message: 'the query is empty; try ?x is-a mammal' }] };
  while (position < trimmed.length) {
    tokenPattern.lastIndex = position;
    const match = tokenPattern.exec(trimmed);
    if (!match) return { ok: false, error: [{ message: `cannot read the query at character ${position + 1}` }] };
    position = tokenPattern.lastIndex;
    const [, variable, iri, quoted, language, dot, label] = match;
    const current = tokens[tokens.length - 1]!;
    if (dot !== undefined) tokens.push([]);
    else if (variable !== undefined) current.push({ type: 'variable', name: variable.slice(1) });
    else if (iri !== undefined) current.push({ type: 'iri', value: iri });
    else if (quoted !== undefined)
      current.push({
        type: 'literal',
        value: quoted.replace(/\\(.)/g, '$1'),
        ...(language !== undefined ? { language } : {}),
      });
    else if (label !== undefined) current.push({ type: 'label', value: label });
  }
  const patterns = tokens.filter((pattern, index) => pattern.length > 0 || index < tokens.length - 1);
  // A relation alone (`rdfs:subClassOf`, `is-a`) asks for its facts: ?subject relation ?object.
  const [only] = patterns;
  if (patterns.length === 1 && only!.length === 1 && only![0]!.type !== 'variable' && only![0]!.type !== 'literal')
    return {
      ok: true,
      value: [[{ type: 'variable', name: 'subject' }, only![0]!, { type: 'variable', name: 'object' }]],
    };
  const problems: Problem[] = patterns.flatMap((pattern, index) =>
    pattern.length === 3
      ? []
      : [{ path: `pattern ${index + 1}`, message: `needs 3 terms (subject predicate object), has ${pattern.length}` }],
  );
  if (problems.length > 0) return { ok: false, error: problems };
  return { ok: true, value: patterns as TriplePattern[] };
}

/** The outcome of a query: answers, and the labels the graph does not know (which explain an empty answer). */
export type QueryAnswer = { variables: string[]; rows: Bindings[]; isTruncated: boolean; unknownTerms: string[] };

/** A pattern term once resolved: a variable, or the symbols a constant may stand for (a predicate also backwards, through its inverses). */
type ResolvedTerm =
  { type: 'variable'; name: string } | { type: 'constant'; ids: readonly number[]; inverseIds?: readonly number[] };

/** What a query reads its names with: the prefixes of `rdfs:label`-style names (when absent: the graph's, beside the well-known ones). */
export type QueryOptions = { prefixes?: Readonly<Record<string, string>> };

/**
 * Matches conjunctive patterns against the graph; most selective pattern first, at most `limit`
 * rows. A name stands for every symbol of that name (see KnowledgeGraph.symbolsNamed); a relation
 * for everything the vocabulary says means it (see GraphVocabulary.relationNamed: `is-a` is also
 * rdf:type, rdfs:subClassOf and skos:broader); a symbol for everything stated the same as it.
 */
export function runQuery(
  graph: KnowledgeGraph,
  patterns: TriplePattern[],
  limit: number,
  options: QueryOptions = {},
): QueryAnswer {
  const variables = [
    ...new Set(
      patterns.flatMap((pattern) => pattern.filter((term) => term.type === 'variable').map((term) => term.name)),
    ),
  ];
  const unknownTerms: string[] = [];
  const vocabulary = GraphVocabulary.of(graph);
  const resolved = patterns.map((pattern) =>
    pattern.map((term, index): ResolvedTerm => {
      if (term.type === 'variable') return term;
      const constant = resolveTerm(graph, term, index === 1, options);
      if (constant.ids.length === 0 && (constant.inverseIds?.length ?? 0) === 0)
        unknownTerms.push(term.type === 'iri' ? `<${term.value}>` : term.value);
      return constant;
    }),
  );
  if (unknownTerms.length > 0) return { variables, rows: [], isTruncated: false, unknownTerms };

  const rows: Bindings[] = [];
  // Several predicates or same-as symbols can state one answer: each answer is given once.
  const seen = new Set<string | number>();
  const keyOf =
    variables.length === 1
      ? (bindings: Bindings) => bindings[variables[0]!]!
      : (bindings: Bindings) => variables.map((name) => bindings[name]).join(' ');
  let isTruncated = false;
  const { subjects, predicates, objects } = graph.columns;
  const hasSameAs = vocabulary.hasSameAs;
  /** The symbols a bound variable stands for: itself, and what is stated the same as it. */
  const boundIds = (id: number) => (hasSameAs ? vocabulary.sameAs(id) : [id]);
  const idsOf = (term: ResolvedTerm, bindings: Bindings): readonly (number | undefined)[] =>
    term.type === 'constant'
      ? term.ids
      : bindings[term.name] !== undefined
        ? boundIds(bindings[term.name]!)
        : [undefined];
  /** Each reading of a pattern: the ids each position may take, forwards, then backwards through the predicate's inverses. */
  const readingsOf = (pattern: ResolvedTerm[], bindings: Bindings) => {
    const [subject, predicate, object] = pattern as [ResolvedTerm, ResolvedTerm, ResolvedTerm];
    const readings: {
      subjects: readonly (number | undefined)[];
      predicates: readonly (number | undefined)[];
      objects: readonly (number | undefined)[];
      isBackwards: boolean;
    }[] = [
      {
        subjects: idsOf(subject, bindings),
        predicates: idsOf(predicate, bindings),
        objects: idsOf(object, bindings),
        isBackwards: false,
      },
    ];
    if (predicate.type === 'constant' && predicate.inverseIds && predicate.inverseIds.length > 0)
      readings.push({
        subjects: idsOf(object, bindings),
        predicates: predicate.inverseIds,
        objects: idsOf(subject, bindings),
        isBackwards: true,
      });
    return readings;
  };
  const estimate = (pattern: ResolvedTerm[], bindings: Bindings): number => {
    let total = 0;
    for (const reading of readingsOf(pattern, bindings))
      for (const subject of reading.subjects)
        for (const predicate of reading.predicates)
          for (const object of reading.objects) total += graph.estimateMatches(subject, predicate, object);
    return total;
  };
  const solve = (remaining: ResolvedTerm[][], bindings: Bindings): void => {
    if (isTruncated) return;
    if (remaining.length === 0) {
      const key = keyOf(bindings);
      if (seen.has(key)) return;
      if (rows.length >= limit) isTruncated = true;
      else {
        seen.add(key);
        rows.push({ ...bindings });
      }
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
    for (const reading of readingsOf(pattern, bindings))
      for (const subject of reading.subjects)
        for (const predicate of reading.predicates)
          for (const object of reading.objects)
            for (const position of graph.matchPositions(subject, predicate, object)) {
              const [from, to] = reading.isBackwards
                ? [objects[position]!, subjects[position]!]
                : [subjects[position]!, objects[position]!];
              const next = unify(pattern, [from, predicates[position]!, to], bindings, boundIds);
              if (next) solve(rest, next);
              if (isTruncated) return;
            }
  };
  solve(resolved, {});
  return { variables, rows, isTruncated, unknownTerms };
}

/**
 * The stored triples an answer stands on: for each pattern, the triple its bound variables and
 * constants name (a constant name may stand for several symbols, a relation for its kin and
 * inverses, a symbol for what is the same as it: the one stored counts).
 */
export function triplesOfAnswer(
  graph: KnowledgeGraph,
  patterns: readonly TriplePattern[],
  row: Bindings,
  options: QueryOptions = {},
): [number, number, number][] {
  const found: [number, number, number][] = [];
  const vocabulary = GraphVocabulary.of(graph);
  for (const pattern of patterns) {
    const [subjects, predicate, objects] = pattern.map((term, index) =>
      term.type === 'variable'
        ? { ids: row[term.name] !== undefined ? vocabulary.sameAs(row[term.name]!) : [] }
        : resolveTerm(graph, term, index === 1, options),
    ) as [
      ResolvedTerm & { type: 'constant' },
      ResolvedTerm & { type: 'constant' },
      ResolvedTerm & { type: 'constant' },
    ];
    const readings: [readonly number[], readonly number[], readonly number[]][] = [
      [subjects.ids, predicate.ids, objects.ids],
      [objects.ids, predicate.inverseIds ?? [], subjects.ids],
    ];
    search: for (const [subjectIds, predicateIds, objectIds] of readings)
      for (const subject of subjectIds)
        for (const predicateId of predicateIds)
          for (const object of objectIds)
            if (graph.positionOf(subject, predicateId, object) !== -1) {
              found.push([subject, predicateId, object]);
              break search;
            }
  }
  return found;
}

/** A constant of a pattern: the symbols it names; in the predicate's place, the relation it names (see {@link runQuery}). */
function resolveTerm(
  graph: KnowledgeGraph,
  term: Exclude<QueryTerm, { type: 'variable' }>,
  isPredicate: boolean,
  options: QueryOptions,
): ResolvedTerm & { type: 'constant' } {
  const vocabulary = GraphVocabulary.of(graph);
  const prefixes = { ...WELL_KNOWN_PREFIXES, ...(options.prefixes ?? graph.prefixes) };
  const symbols = symbolsOfTerm(graph, term, prefixes);
  if (isPredicate && term.type !== 'literal') {
    if (term.type === 'label') return { type: 'constant', ...vocabulary.relationNamed(term.value, prefixes) };
    const relations = symbols.map((id) => vocabulary.relationOf(id));
    return {
      type: 'constant',
      ids: [...new Set(relations.flatMap((relation) => relation.ids))],
      inverseIds: [...new Set(relations.flatMap((relation) => relation.inverseIds))],
    };
  }
  return {
    type: 'constant',
    ids: vocabulary.hasSameAs ? [...new Set(symbols.flatMap((id) => vocabulary.sameAs(id)))] : symbols,
  };
}

function symbolsOfTerm(
  graph: KnowledgeGraph,
  term: Exclude<QueryTerm, { type: 'variable' }>,
  prefixes: Readonly<Record<string, string>>,
): number[] {
  const ids = (symbol: { id: number } | undefined) => (symbol ? [symbol.id] : []);
  switch (term.type) {
    case 'iri':
      return term.value.startsWith(ANIMA_IRI_BASE)
        ? ids(graph.symbolByLabel(localName(term.value)))
        : ids(graph.symbolByIri(term.value));
    case 'label': {
      const named = graph.symbolsNamed(term.value).map((symbol) => symbol.id);
      // A prefixed name (ex:Dog, rdfs:label) names the symbol of its IRI, unless a label says otherwise.
      const iri = named.length === 0 ? expandPrefixedName(term.value, prefixes) : undefined;
      return iri !== undefined ? ids(graph.symbolByIri(iri)) : named;
    }
    case 'literal': {
      if (term.language !== undefined) return ids(graph.symbolByKey(literalKey(term.value, undefined, term.language)));
      // Quoted text names a symbol ("Mammal · e.org") or is a value: in every language ("chat", "chat"@fr).
      return [...graph.symbolsNamed(term.value), ...graph.literalsValued(term.value)].map((symbol) => symbol.id);
    }
  }
}

/** Binds a pattern's variables to a matched triple; constants were matched by the index. A bound variable accepts what is the same as its symbol. */
function unify(
  pattern: ResolvedTerm[],
  values: number[],
  bindings: Bindings,
  boundIds: (id: number) => readonly number[],
): Bindings | undefined {
  const next = { ...bindings };
  for (const [index, term] of pattern.entries()) {
    if (term.type === 'constant') continue;
    const value = values[index]!;
    const bound = next[term.name];
    if (bound === undefined) next[term.name] = value;
    else if (bound !== value && !boundIds(bound).includes(value)) return undefined;
  }
  return next;
}
