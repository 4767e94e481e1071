import type { GraphBatch } from '#core/kg/graph-batch.ts';
import type { TriplePattern } from '#core/kg/query.ts';
import type { Term } from '#core/kg/term.ts';
import { RDFS_LABEL } from '#core/kg/standard-terms.ts';
import type { ReachableEndpoint } from '#core/records/sparql-endpoint.ts';
import { createRdfParser } from '#core/kg/import/rdf-parser.ts';
import { type ResultTerm, type SparqlFailure, sparqlGraph, sparqlSelect } from './protocol.ts';
import {
  asksForGraph,
  labelLookupQuery,
  localNameLookupQuery,
  type NameBindings,
  neighbourhoodQuery,
  patternQuery,
} from './translate.ts';

/** A statement an endpoint gave, before it is staged. */
export type Statement = { subject: Term; predicate: Term; object: Term };

/** What was asked of an endpoint, in order: the provenance of what it gave. */
export type Asked = { queries: string[]; ms: number };

export type Failed = SparqlFailure & { asked: Asked };

/** What makes a row's triple the same triple. */
const rowKey = (s: ResultTerm, p: ResultTerm, o: ResultTerm) =>
  `${s.type}:${s.value} ${p.value} ${o.type}:${o.value}:${o.datatype ?? ''}:${o['xml:lang'] ?? ''}`;

/** A result term as a graph term; blank nodes are local to the one answer they came in. */
export function termOf(term: ResultTerm): Term {
  if (term.type === 'uri') return { type: 'iri', value: term.value };
  if (term.type === 'bnode') return { type: 'blank', value: `sparql-${term.value}` };
  // Set field by field, not spread: ten thousand of these are a pull's hot path.
  const literal: Term & { type: 'literal' } = { type: 'literal', value: term.value };
  if (term.datatype) literal.datatype = term.datatype;
  if (term['xml:lang']) literal.language = term['xml:lang'];
  return literal;
}

/**
 * The endpoint's IRIs for each name: by label first, then by the local name of its IRIs. A name
 * nothing matches is left out of the map (the caller says so).
 */
export async function findNames(
  endpoint: ReachableEndpoint,
  names: readonly { name: string; asPredicate: boolean }[],
  asked: Asked,
  signal?: AbortSignal,
): Promise<{ ok: true; names: NameBindings } | SparqlFailure> {
  const found: NameBindings = new Map();
  for (const { name, asPredicate } of names) {
    const key = name.toLowerCase();
    if (found.has(key)) continue;
    for (const query of [labelLookupQuery(name, endpoint.language), localNameLookupQuery(name, asPredicate)]) {
      asked.queries.push(query);
      const answer = await sparqlSelect(endpoint, query, signal);
      if (!answer.ok) return answer;
      asked.ms += answer.ms;
      const iris = answer.rows.flatMap((row) => (row.iri?.type === 'uri' ? [row.iri.value] : []));
      if (iris.length > 0) {
        found.set(key, iris);
        break;
      }
    }
  }
  return { ok: true, names: found };
}

/** The names a pattern uses that the endpoint must resolve: its labels but is-a. */
export function namesOfPatterns(patterns: readonly TriplePattern[]): { name: string; asPredicate: boolean }[] {
  return patterns.flatMap((pattern) =>
    pattern.flatMap((term, position) =>
      term.type === 'label' && !(position === 1 && term.value.toLowerCase() === 'is-a')
        ? [{ name: term.value, asPredicate: position === 1 }]
        : [],
    ),
  );
}

/**
 * Answers a goal's patterns at the endpoint and returns them as statements in the goal's own
 * terms: each answer's variables as the endpoint's IRIs, the goal's names as the goal wrote them
 * (what the endpoint says `mammal` is stands in the query text of the provenance), and each
 * answer's label beside it (rdfs:label), so its name travels.
 */
export async function answerPatterns(
  endpoint: ReachableEndpoint,
  patterns: readonly TriplePattern[],
  signal?: AbortSignal,
): Promise<{ ok: true; statements: Statement[]; answers: number; isTruncated: boolean; asked: Asked } | Failed> {
  const asked: Asked = { queries: [], ms: 0 };
  const found = await findNames(endpoint, namesOfPatterns(patterns), asked, signal);
  if (!found.ok) return { ...found, asked };
  const missing = namesOfPatterns(patterns).filter(({ name }) => !found.names.has(name.toLowerCase()));
  if (missing.length > 0)
    return {
      ok: false,
      kind: 'malformed',
      reason: `the endpoint ${endpoint.name} names nothing ${missing.map(({ name }) => `"${name}"`).join(' or ')} (by label or IRI)`,
      ms: asked.ms,
      asked,
    };
  const query = patternQuery(patterns, found.names, endpoint.language, endpoint.rowLimit);
  asked.queries.push(query);
  const answer = await sparqlSelect(endpoint, query, signal);
  if (!answer.ok) return { ...answer, asked };
  asked.ms += answer.ms;
  const statements: Statement[] = [];
  const label = { type: 'iri', value: RDFS_LABEL } as const;
  for (const row of answer.rows) {
    const termFor = (term: TriplePattern[number]): Term | undefined => {
      if (term.type !== 'variable')
        return term.type === 'iri'
          ? { type: 'iri', value: term.value }
          : term.type === 'literal'
            ? { type: 'literal', value: term.value }
            : { type: 'label', value: term.value };
      const bound = row[term.name];
      return bound ? termOf(bound) : undefined;
    };
    for (const pattern of patterns) {
      const [subject, predicate, object] = pattern.map(termFor);
      if (subject && predicate && object) statements.push({ subject, predicate, object });
    }
    for (const [name, bound] of Object.entries(row)) {
      const named = row[`${name}__label`];
      if (bound.type === 'uri' && named && !name.endsWith('__label'))
        statements.push({ subject: termOf(bound), predicate: label, object: termOf(named) });
    }
  }
  return { ok: true, statements, answers: answer.rows.length, isTruncated: answer.isTruncated, asked };
}

export type PullProgress = { round: number; depth: number; triples: number };

/**
 * The triples within `depth` steps of `around` (either direction), breadth first, a query per
 * round (frontiers in slices of 100 nodes). More than `maxTriples` is too large: nothing is
 * returned, so nothing partial is ever written.
 */
export async function pullNeighbourhood(
  endpoint: ReachableEndpoint,
  options: {
    around: string;
    depth: number;
    maxTriples: number;
    signal?: AbortSignal;
    onProgress?: (progress: PullProgress) => void;
  },
): Promise<{ ok: true; statements: Statement[]; asked: Asked } | Failed> {
  const asked: Asked = { queries: [], ms: 0 };
  const seen = new Set<string>([options.around]);
  const kept = new Map<string, Statement>();
  let frontier = [options.around];
  let round = 0;
  for (let depth = 1; depth <= options.depth && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (let start = 0; start < frontier.length; start += 100) {
      const room = options.maxTriples - kept.size;
      // One more than the room: an answer that fills it says the neighbourhood is larger.
      const limit = Math.min(endpoint.rowLimit, room + 1);
      const query = neighbourhoodQuery(frontier.slice(start, start + 100), limit);
      asked.queries.push(query);
      const answer = await sparqlSelect(endpoint, query, options.signal);
      if (!answer.ok) return { ...answer, asked };
      asked.ms += answer.ms;
      for (const row of answer.rows) {
        const { s, p, o } = row;
        if (!s || !p || !o) continue;
        const key = rowKey(s, p, o);
        if (kept.has(key)) continue;
        kept.set(key, { subject: termOf(s), predicate: termOf(p), object: termOf(o) });
        for (const node of [s, o])
          if (node.type === 'uri' && !seen.has(node.value)) {
            seen.add(node.value);
            next.push(node.value);
          }
      }
      // A full answer under the room may have been cut by the row limit: as good as too large.
      if (kept.size > options.maxTriples || answer.isTruncated || (answer.rows.length >= limit && limit <= room))
        return {
          ok: false,
          kind: 'too-large',
          reason: `more than ${options.maxTriples.toLocaleString('en')} triples lie within ${depth} step${depth === 1 ? '' : 's'} of ${options.around} at the endpoint ${endpoint.name}: nothing was brought in (ask for a smaller depth, or raise its row limit)`,
          ms: asked.ms,
          asked,
        };
      options.onProgress?.({ round: ++round, depth, triples: kept.size });
    }
    frontier = next;
  }
  return { ok: true, statements: [...kept.values()], asked };
}

/**
 * The triples a query of the user's gives: a CONSTRUCT or DESCRIBE's graph (N-Triples or
 * Turtle), or a SELECT's rows of ?s ?p ?o. More than `maxTriples` is too large, as above.
 */
export async function pullByQuery(
  endpoint: ReachableEndpoint,
  options: { query: string; maxTriples: number; signal?: AbortSignal },
): Promise<{ ok: true; statements: Statement[]; asked: Asked } | Failed> {
  const asked: Asked = { queries: [options.query], ms: 0 };
  const tooLarge = (): Failed => ({
    ok: false,
    kind: 'too-large',
    reason: `the query gives more than ${options.maxTriples.toLocaleString('en')} triples at the endpoint ${endpoint.name}: nothing was brought in`,
    ms: asked.ms,
    asked,
  });
  if (asksForGraph(options.query)) {
    const answer = await sparqlGraph(endpoint, options.query, options.signal);
    if (!answer.ok) return { ...answer, asked };
    asked.ms += answer.ms;
    const statements: Statement[] = [];
    const format = answer.mediaType === 'text/turtle' ? 'turtle' : 'n-triples';
    const parser = createRdfParser(format, (statement) => statements.push(statement));
    const problem = parser.push(answer.text) ?? parser.end();
    if (problem)
      return {
        ok: false,
        kind: 'malformed',
        reason: `the endpoint ${endpoint.name} answered ${format === 'turtle' ? 'Turtle' : 'N-Triples'} that does not read${problem.line ? ` (line ${problem.line})` : ''}: ${problem.message}`,
        ms: asked.ms,
        asked,
      };
    return statements.length > options.maxTriples ? tooLarge() : { ok: true, statements, asked };
  }
  const answer = await sparqlSelect(endpoint, options.query, options.signal);
  if (!answer.ok) return { ...answer, asked };
  asked.ms += answer.ms;
  if (!['s', 'p', 'o'].every((name) => answer.variables.includes(name)))
    return {
      ok: false,
      kind: 'malformed',
      reason: `a SELECT to pull must give ?s ?p ?o (this one gives ${answer.variables.map((name) => `?${name}`).join(' ') || 'no variables'}); or write a CONSTRUCT`,
      ms: asked.ms,
      asked,
    };
  if (answer.isTruncated || answer.rows.length > options.maxTriples) return tooLarge();
  // A SELECT may repeat a row (a path reached twice): each triple once.
  const distinct = new Map<string, Statement>();
  for (const { s, p, o } of answer.rows)
    if (s && p && o) distinct.set(rowKey(s, p, o), { subject: termOf(s), predicate: termOf(p), object: termOf(o) });
  return { ok: true, statements: [...distinct.values()], asked };
}

/** Stages statements at the endpoint's trust: a fact already held at a higher confidence keeps it. */
export function stageStatements(batch: GraphBatch, statements: readonly Statement[], trust: number): void {
  for (const { subject, predicate, object } of statements)
    batch.assert(
      batch.resolve(subject, 'subject'),
      batch.resolve(predicate, 'predicate'),
      batch.resolve(object, 'object'),
      trust,
    );
}
