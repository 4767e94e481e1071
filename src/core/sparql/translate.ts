import type { QueryTerm, TriplePattern } from '#core/kg/query.ts';
import { singular } from '#core/kg/sentence-facts.ts';

/**
 * Goal patterns as SPARQL over the standard vocabularies every endpoint shares: names through
 * rdfs:label and skos:prefLabel (in the language the user prefers, or none), Anima's is-a as
 * rdf:type or rdfs:subClassOf followed by the subclass closure (rdfs:subClassOf*).
 */
export const PREFIXES = [
  'PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>',
  'PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>',
  'PREFIX skos: <http://www.w3.org/2004/02/skos/core#>',
].join('\n');

/** Anima's is-a, as an endpoint says it: an instance's type or a subclass, up the class tree. */
export const IS_A_PATH = '(rdf:type|rdfs:subClassOf)/rdfs:subClassOf*';

/** A string as a SPARQL literal (JSON's escapes are SPARQL's). */
export const sparqlString = (text: string) => JSON.stringify(text);

/** An IRI as SPARQL writes it; one with characters an IRI may not hold is refused. */
export function sparqlIri(iri: string): string {
  if (!/^[a-z][a-z0-9+.-]*:[^\s<>"{}|\\^`]*$/i.test(iri))
    throw new Error(`"${iri.slice(0, 100)}" is not an IRI a SPARQL query can name`);
  return `<${iri}>`;
}

/** The spellings a name may have as a label: as written, lower case, capitalised, with spaces for hyphens, and singular. */
export function labelSpellings(name: string): string[] {
  const spaced = name.replace(/[-_]+/g, ' ').trim();
  const words = [spaced, singular(spaced)];
  return [
    ...new Set(
      words.flatMap((word) => [word, word.toLowerCase(), word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()]),
    ),
  ];
}

/**
 * The resources an endpoint names `name`: by rdfs:label or skos:prefLabel, exact literals in the
 * preferred language or none (which index lookups answer fast, even on Wikidata's size).
 */
export function labelLookupQuery(name: string, language: string, limit = 5): string {
  const literals = labelSpellings(name).flatMap((spelling) => [
    `${sparqlString(spelling)}@${language}`,
    sparqlString(spelling),
  ]);
  return `${PREFIXES}
SELECT DISTINCT ?iri WHERE {
  VALUES ?name { ${literals.join(' ')} }
  { ?iri rdfs:label ?name } UNION { ?iri skos:prefLabel ?name }
} LIMIT ${limit}`;
}

/** The resources whose IRI ends in `name` (its local name): the fallback when no label matches; a scan, so the endpoint's timeout bounds it. */
export function localNameLookupQuery(name: string, asPredicate: boolean, limit = 5): string {
  const endings = [...new Set(labelSpellings(name).concat(name))].flatMap((spelling) => [
    `/${spelling}`,
    `#${spelling}`,
  ]);
  const filter = endings.map((ending) => `STRENDS(STR(?iri), ${sparqlString(ending)})`).join(' || ');
  const where = asPredicate ? '?s ?iri ?o .' : '{ ?iri ?p ?o } UNION { ?s ?p ?iri }';
  return `SELECT DISTINCT ?iri WHERE {
  ${where}
  FILTER(isIRI(?iri) && (${filter}))
} LIMIT ${limit}`;
}

/** What a pattern's names were found as at the endpoint: their IRIs (a name may stand for several). */
export type NameBindings = Map<string, string[]>;

/** The variable a name's IRIs are bound to in the query. */
const nameVariable = (index: number) => `?anima_name_${index}`;

/**
 * A SELECT for the goal's patterns: each variable an answer, with a label beside each (in the
 * preferred language) so its name travels with it; names stand for the IRIs the endpoint gave
 * them, `is-a` for {@link IS_A_PATH}. LIMIT the endpoint's row limit.
 */
export function patternQuery(
  patterns: readonly TriplePattern[],
  names: NameBindings,
  language: string,
  limit: number,
): string {
  const nameIndex = new Map<string, number>();
  const values: string[] = [];
  const termOf = (term: QueryTerm, position: number): string => {
    if (term.type === 'variable') return `?${term.name}`;
    if (term.type === 'iri') return sparqlIri(term.value);
    if (term.type === 'literal') return sparqlString(term.value);
    if (position === 1 && term.value.toLowerCase() === 'is-a') return IS_A_PATH;
    const key = term.value.toLowerCase();
    let index = nameIndex.get(key);
    if (index === undefined) {
      index = nameIndex.size;
      nameIndex.set(key, index);
      const iris = names.get(key) ?? [];
      if (iris.length === 0) throw new Error(`no IRI for "${term.value}"`);
      values.push(`VALUES ${nameVariable(index)} { ${iris.map(sparqlIri).join(' ')} }`);
    }
    return nameVariable(index);
  };
  const triples = patterns.map((pattern) => `  ${pattern.map(termOf).join(' ')} .`);
  const variables = [
    ...new Set(patterns.flatMap((pattern) => pattern.flatMap((term) => (term.type === 'variable' ? [term.name] : [])))),
  ];
  const labels = variables.map(
    (name) =>
      `  OPTIONAL { ?${name} rdfs:label ?${name}__label . FILTER(isIRI(?${name}) && (LANG(?${name}__label) = "" || LANGMATCHES(LANG(?${name}__label), ${sparqlString(language)}))) }`,
  );
  const sampled = variables.map((name) => `(SAMPLE(?${name}__label) AS ?${name}__label)`);
  return `${PREFIXES}
SELECT ${variables.map((name) => `?${name}`).join(' ')} ${sampled.join(' ')} WHERE {
${values.map((line) => `  ${line}`).join('\n')}
${triples.join('\n')}
${labels.join('\n')}
} GROUP BY ${variables.map((name) => `?${name}`).join(' ')} LIMIT ${limit}`;
}

/** The triples with any of `nodes` as subject or object, at most `limit`: one round of a neighbourhood pull. */
export function neighbourhoodQuery(nodes: readonly string[], limit: number): string {
  return `SELECT ?s ?p ?o WHERE {
  VALUES ?node { ${nodes.map(sparqlIri).join(' ')} }
  { ?node ?p ?o . BIND(?node AS ?s) } UNION { ?s ?p ?node . BIND(?node AS ?o) }
} LIMIT ${limit}`;
}

/** Whether a query text asks for a graph (CONSTRUCT, DESCRIBE) rather than rows, read past its prologue and comments. */
export function asksForGraph(query: string): boolean {
  const body = query
    .replace(/<[^>]*>/g, '<>')
    .replace(/#[^\n]*/g, '')
    .replace(/\b(?:PREFIX\s+[^\s:]*:\s*<>|BASE\s*<>)/gi, '')
    .trim();
  return /^(?:CONSTRUCT|DESCRIBE)\b/i.test(body);
}
