import { readFileSync } from 'node:fs';
import { Store } from 'oxigraph';
import { describe, expect, it } from 'vitest';
import { KnowledgeGraph } from './graph.ts';
import { readGraphFile } from './import/read-graph-file.ts';
import { stageInference } from './inference.ts';
import { parseQuery, runQuery } from './query.ts';
import { transitiveClosure } from './traversal.ts';
import { GraphVocabulary } from './vocabulary.ts';

/**
 * Published data in the standard vocabularies (WordNet 3.0 converted to RDFS, SKOS and OWL: see
 * tests/fixtures/public/README.md), closed by Anima's rules and checked answer for answer against
 * an independent engine: oxigraph's SPARQL property paths.
 */
const FIXTURES = new URL('../../../tests/fixtures/public/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');

async function closedGraph(text: string): Promise<KnowledgeGraph> {
  const graph = new KnowledgeGraph();
  const batch = graph.batch({ now: 1 });
  const result = await readGraphFile({ source: text, format: 'turtle', batch });
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  graph.apply(batch.delta);
  const inference = stageInference(graph, { now: 2, maxIterations: 30 });
  expect(inference.result.hasConverged).toBe(true);
  graph.apply(inference.delta);
  return graph;
}

function oxigraph(text: string): Store {
  const store = new Store();
  store.load(text, { format: 'text/turtle' });
  return store;
}

/** The IRIs SPARQL binds to ?x, sorted. */
function sparqlAnswers(store: Store, query: string): string[] {
  const solutions = store.query(query) as Map<string, { value: string; termType: string }>[];
  return [
    ...new Set(
      solutions
        .map((solution) => solution.get('x')!)
        .filter((term) => term.termType === 'NamedNode')
        .map((term) => term.value),
    ),
  ].sort();
}

/** The IRIs Anima's query binds to ?x, sorted. */
function animaAnswers(graph: KnowledgeGraph, query: string): string[] {
  const parsed = parseQuery(query);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  const answer = runQuery(graph, parsed.value, 100_000, {
    prefixes: { wn: 'http://wordnet-rdf.princeton.edu/ontology#' },
  });
  expect(answer.isTruncated).toBe(false);
  return [...new Set(answer.rows.map((row) => graph.symbol(row.x!)!.iri).filter((iri) => iri !== undefined))].sort();
}

/** Every IRI that stands as the object of a predicate in the file: the targets to ask about. */
function objectsOf(store: Store, predicatePath: string): string[] {
  return sparqlAnswers(store, `SELECT DISTINCT ?x WHERE { ?s ${predicatePath} ?x }`);
}

describe('an RDFS class hierarchy with instances (WordNet canines and planets)', async () => {
  const text = read('wordnet-canine-planet.rdfs.ttl');
  const store = oxigraph(text);
  const graph = await closedGraph(text);
  const classes = objectsOf(
    store,
    '<http://www.w3.org/2000/01/rdf-schema#subClassOf>|<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>',
  );

  it('holds classes to ask about', () => {
    expect(classes.length).toBeGreaterThan(50);
  });

  it('answers ?x is-a C as SPARQL answers rdfs:subClassOf+ and rdf:type/rdfs:subClassOf*, for every class', () => {
    for (const target of classes) {
      const expected = sparqlAnswers(
        store,
        `PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
         SELECT ?x WHERE { { ?x rdfs:subClassOf+ <${target}> } UNION { ?x rdf:type/rdfs:subClassOf* <${target}> } }`,
      );
      expect({ target, answers: animaAnswers(graph, `?x is-a <${target}>`) }).toEqual({ target, answers: expected });
    }
  });

  it('finds the same closure by proof, without stored inferences', async () => {
    const plain = new KnowledgeGraph();
    const batch = plain.batch({ now: 1 });
    await readGraphFile({ source: text, format: 'turtle', batch });
    plain.apply(batch.delta);
    const vocabulary = GraphVocabulary.of(plain);
    const isA = vocabulary.relationNamed('is-a');
    const types = vocabulary.typeIds();
    for (const target of classes) {
      const expected = sparqlAnswers(
        store,
        `PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
         SELECT ?x WHERE { { ?x rdfs:subClassOf+ <${target}> } UNION { ?x rdf:type/rdfs:subClassOf* <${target}> } }`,
      );
      const closure = transitiveClosure(
        plain,
        { members: isA.ids, chain: isA.ids.filter((id) => !types.has(id)) },
        plain.symbolByIri(target)!.id,
      );
      expect({ target, answers: closure.map((id) => plain.symbol(id)!.iri!).sort() }).toEqual({
        target,
        answers: expected,
      });
    }
  });
});

describe('a SKOS thesaurus (WordNet felines)', async () => {
  const text = read('wordnet-felines.skos.ttl');
  const store = oxigraph(text);
  const graph = await closedGraph(text);
  const concepts = sparqlAnswers(store, 'SELECT ?x WHERE { ?x a <http://www.w3.org/2004/02/skos/core#Concept> }');

  it('answers ?x is-a C as SPARQL answers (skos:broader|^skos:narrower)+, for every concept', () => {
    expect(concepts.length).toBeGreaterThan(30);
    for (const target of concepts) {
      const expected = sparqlAnswers(
        store,
        `PREFIX skos: <http://www.w3.org/2004/02/skos/core#> SELECT ?x WHERE { ?x (skos:broader|^skos:narrower)+ <${target}> }`,
      );
      expect({ target, answers: animaAnswers(graph, `?x is-a <${target}>`) }).toEqual({ target, answers: expected });
    }
  });

  it('reads skos:prefLabel and skos:altLabel as names, with or without their language', () => {
    const bigCat = 'http://wordnet-rdf.princeton.edu/id/02127808-n';
    expect(animaAnswers(graph, '?x skos:prefLabel "big cat"@en')).toEqual([bigCat]);
    expect(animaAnswers(graph, '?x label "big cat"')).toEqual([bigCat]);
    // "cat" is the true cat's name and the big cat's other name.
    expect(animaAnswers(graph, '?x label "cat"@en')).toEqual([
      'http://wordnet-rdf.princeton.edu/id/02121620-n',
      bigCat,
    ]);
    expect(animaAnswers(graph, '?x skos:altLabel "cat"@en')).toEqual([bigCat]);
  });
});

describe('an OWL ontology with a transitive property and its inverse (WordNet: Europe and its parts)', async () => {
  const text = read('wordnet-europe.owl.ttl');
  const store = oxigraph(text);
  const graph = await closedGraph(text);
  const wholes = sparqlAnswers(
    store,
    'PREFIX wn: <http://wordnet-rdf.princeton.edu/ontology#> SELECT DISTINCT ?x WHERE { { ?p wn:part_holonym ?x } UNION { ?x wn:part_meronym ?p } }',
  );

  it('answers ?x wn:part_holonym W as SPARQL answers (wn:part_holonym|^wn:part_meronym)+, for every whole', () => {
    expect(wholes.length).toBeGreaterThan(20);
    for (const target of wholes) {
      const expected = sparqlAnswers(
        store,
        `PREFIX wn: <http://wordnet-rdf.princeton.edu/ontology#> SELECT ?x WHERE { ?x (wn:part_holonym|^wn:part_meronym)+ <${target}> }`,
      );
      expect({ target, answers: animaAnswers(graph, `?x wn:part_holonym <${target}>`) }).toEqual({
        target,
        answers: expected,
      });
    }
  });

  it('types the parts as their classes and superclasses say', () => {
    const country = 'http://wordnet-rdf.princeton.edu/id/08544813-n';
    const expected = sparqlAnswers(
      store,
      `PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> SELECT ?x WHERE { { ?x rdfs:subClassOf+ <${country}> } UNION { ?x rdf:type/rdfs:subClassOf* <${country}> } }`,
    );
    expect(expected.length).toBeGreaterThan(10);
    expect(animaAnswers(graph, `?x is-a <${country}>`)).toEqual(expected);
  });
});
