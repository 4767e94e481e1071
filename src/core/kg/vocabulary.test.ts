import { describe, expect, it } from 'vitest';
import { KnowledgeGraph } from './graph.ts';
import { readGraphFile } from './import/read-graph-file.ts';
import { inferRules } from './forward-chaining.ts';
import { stageInference } from './inference.ts';
import { parseQuery, runQuery, triplesOfAnswer } from './query.ts';
import { transitiveClosure } from './traversal.ts';
import { GraphVocabulary } from './vocabulary.ts';
import { expandPrefixedName, RDF_TYPE, WELL_KNOWN_PREFIXES } from './standard-terms.ts';

const PREFIXES = `@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix ex: <http://example.org/> .
`;
const EX = { ex: 'http://example.org/' };

async function turtleGraph(text: string, graph = new KnowledgeGraph()): Promise<KnowledgeGraph> {
  const batch = graph.batch({ now: 1 });
  const read = await readGraphFile({ source: PREFIXES + text, format: 'turtle', batch });
  if (!read.ok) throw new Error(JSON.stringify(read.error));
  graph.apply(batch.delta);
  return graph;
}

function inferred(graph: KnowledgeGraph): KnowledgeGraph {
  graph.apply(stageInference(graph, { now: 2 }).delta);
  return graph;
}

/** The answers of a query as sorted lines of IRI local names (`x=rex`). */
function answers(graph: KnowledgeGraph, query: string): string[] {
  const parsed = parseQuery(query);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  const answer = runQuery(graph, parsed.value, 1000, { prefixes: EX });
  return answer.rows
    .map((row) =>
      Object.entries(row)
        .map(([name, id]) => `${name}=${graph.symbol(id)!.label}`)
        .join(' '),
    )
    .sort();
}

const TAXONOMY = `
ex:Dog rdfs:subClassOf ex:Mammal ; rdfs:label "dog"@en, "chien"@fr .
ex:Mammal rdfs:subClassOf ex:Animal .
ex:Sparrow rdfs:subClassOf ex:Bird .
ex:Bird rdfs:subClassOf ex:Animal .
ex:rex rdf:type ex:Dog .
ex:tweety a ex:Sparrow .
ex:Dog a ex:Species .
`;

describe('RDFS class hierarchies', () => {
  it('answers is-a with subclasses and members however the file said them', async () => {
    const graph = await turtleGraph(TAXONOMY);
    expect(answers(graph, '?x is-a Mammal')).toEqual(['x=dog']);
    inferred(graph);
    expect(answers(graph, '?x is-a Mammal')).toEqual(['x=dog', 'x=rex']);
    // Named by its rdfs:label, found by it too.
    expect(answers(graph, '?x is-a dog')).toEqual(['x=rex']);
    expect(answers(graph, '?x is-a Animal')).toEqual(['x=Bird', 'x=Mammal', 'x=Sparrow', 'x=dog', 'x=rex', 'x=tweety']);
  });

  it('keeps each derived fact in the vocabulary of its premise: a type climbs as rdf:type, a subclass as rdfs:subClassOf', async () => {
    const graph = inferred(await turtleGraph(TAXONOMY));
    expect(answers(graph, '?x rdf:type ex:Animal')).toEqual(['x=rex', 'x=tweety']);
    expect(answers(graph, '?x rdfs:subClassOf ex:Animal')).toEqual(['x=Bird', 'x=Mammal', 'x=Sparrow', 'x=dog']);
    // A type's type is not its members' type: rex is no Species.
    expect(answers(graph, 'ex:rex is-a ?c')).toEqual(['c=Animal', 'c=Mammal', 'c=dog']);
  });

  it('names the stored triple an answer stands on, in its own predicate', async () => {
    const graph = inferred(await turtleGraph(TAXONOMY));
    const parsed = parseQuery('?x is-a Mammal');
    if (!parsed.ok) throw new Error('unread');
    const rex = graph.symbolByIri('http://example.org/rex')!.id;
    const [[, predicate]] = triplesOfAnswer(graph, parsed.value, { x: rex }) as [[number, number, number]];
    expect(graph.symbol(predicate)?.iri).toBe(RDF_TYPE);
  });

  it('proves a closure over rdf:type up rdfs:subClassOf chains, as a reasoner would', async () => {
    const graph = await turtleGraph(TAXONOMY);
    const vocabulary = GraphVocabulary.of(graph);
    const isA = vocabulary.relationNamed('is-a');
    const types = vocabulary.typeIds();
    const animal = graph.symbolByIri('http://example.org/Animal')!.id;
    const closure = transitiveClosure(
      graph,
      { members: isA.ids, chain: isA.ids.filter((id) => !types.has(id)) },
      animal,
    );
    expect(closure.map((id) => graph.symbol(id)!.label).sort()).toEqual([
      'Bird',
      'Mammal',
      'Sparrow',
      'dog',
      'rex',
      'tweety',
    ]);
  });

  it('types the subjects and objects of a property with a domain or range, refusing nothing', async () => {
    const graph = inferred(
      await turtleGraph(`
ex:Person a rdfs:Class .
ex:owns rdfs:domain ex:Person ; rdfs:range ex:Thing .
ex:alice ex:owns ex:car .
ex:bob ex:owns "a bike" .
ex:Person rdfs:subClassOf ex:Agent .`),
    );
    expect(answers(graph, '?x rdf:type ex:Person')).toEqual(['x=alice', 'x=bob']);
    expect(answers(graph, '?x is-a ex:Agent')).toEqual(['x=Person', 'x=alice', 'x=bob']);
    expect(answers(graph, '?x a ex:Thing')).toEqual(['x=car']);
  });

  it('reads owl:equivalentClass both ways in the class chain', async () => {
    const graph = inferred(
      await turtleGraph(
        'ex:Hound owl:equivalentClass ex:Dog . ex:Dog rdfs:subClassOf ex:Mammal . ex:rex a ex:Hound . ex:fido a ex:Dog .',
      ),
    );
    expect(answers(graph, '?x rdf:type ex:Mammal')).toEqual(['x=fido', 'x=rex']);
    expect(answers(graph, '?x rdf:type ex:Hound')).toEqual(['x=fido', 'x=rex']);
  });
});

describe('properties the graph defines', () => {
  it('reads a sub-property of rdfs:subClassOf as is-a, in queries and rules', async () => {
    const graph = await turtleGraph(
      'ex:kindOf rdfs:subPropertyOf rdfs:subClassOf . ex:Puppy ex:kindOf ex:Dog . ex:Dog rdfs:subClassOf ex:Mammal .',
    );
    expect(answers(graph, '?x is-a Dog')).toEqual(['x=Puppy']);
    expect(answers(graph, '?x rdfs:subClassOf ex:Dog')).toEqual(['x=Puppy']);
    inferred(graph);
    expect(answers(graph, '?x is-a Mammal')).toEqual(['x=Dog', 'x=Puppy']);
  });

  it('closes an owl:TransitiveProperty and reads its owl:inverseOf backwards', async () => {
    const graph = await turtleGraph(`
ex:partOf a owl:TransitiveProperty ; owl:inverseOf ex:hasPart .
ex:Paris ex:partOf ex:France .
ex:Europe ex:hasPart ex:France .
ex:France ex:hasPart ex:Brittany .`);
    expect(answers(graph, '?x ex:partOf ex:France')).toEqual(['x=Brittany', 'x=Paris']);
    inferred(graph);
    expect(answers(graph, '?x ex:partOf ex:Europe')).toEqual(['x=Brittany', 'x=France', 'x=Paris']);
    expect(answers(graph, 'ex:Europe ex:hasPart ?x')).toEqual(['x=Brittany', 'x=France', 'x=Paris']);
  });

  it('makes an owl:SymmetricProperty hold both ways', async () => {
    const graph = inferred(await turtleGraph('ex:borders a owl:SymmetricProperty . ex:France ex:borders ex:Spain .'));
    expect(answers(graph, 'ex:Spain ex:borders ?x')).toEqual(['x=France']);
  });
});

describe('SKOS thesauri', () => {
  it('reads broader and narrower as one transitive hierarchy under is-a', async () => {
    const graph = await turtleGraph(`
ex:animals a skos:Concept ; skos:prefLabel "animals"@en .
ex:mammals skos:broader ex:animals .
ex:animals skos:narrower ex:birds .
ex:dogs skos:broader ex:mammals .
ex:mammals skos:narrower ex:cats .`);
    expect(answers(graph, '?x is-a ex:animals')).toEqual(['x=birds', 'x=mammals']);
    expect(answers(graph, '?x skos:broader ex:mammals')).toEqual(['x=dogs']);
    inferred(graph);
    expect(answers(graph, '?x is-a ex:animals')).toEqual(['x=birds', 'x=cats', 'x=dogs', 'x=mammals']);
  });
});

describe('same-as links', () => {
  it('lets queries see through owl:sameAs and skos:exactMatch, each answer once', async () => {
    const graph = await turtleGraph(`
ex:Dog owl:sameAs <http://www.wikidata.org/entity/Q144> .
<http://www.wikidata.org/entity/Q144> rdfs:subClassOf ex:Mammal ; ex:says "woof" .
ex:Dog rdfs:subClassOf ex:Mammal .
ex:Mammal skos:exactMatch ex:Mammalia .
ex:Cat rdfs:subClassOf ex:Mammalia .`);
    expect(answers(graph, 'ex:Dog is-a ex:Mammal')).toEqual(['']);
    expect(answers(graph, '?x is-a ex:Mammal')).toEqual(['x=Cat', 'x=Dog', 'x=Q144']);
    expect(answers(graph, 'ex:Dog ex:says ?s')).toEqual(['s=woof']);
    // The two names are one thing: the join finds it once, under either.
    expect(answers(graph, '?x is-a ex:Mammal . ?x ex:says ?s')).toEqual([
      expect.stringMatching(/^x=(Dog|Q144) s=woof$/),
    ]);
  });
});

describe("Anima's relations joined with standard ones", () => {
  it('aligns a predicate named like an Anima relation in another namespace', async () => {
    const graph = await turtleGraph(
      'ex:Dog <http://other.example/is-a> ex:Canine . ex:Canine rdfs:subClassOf ex:Mammal .',
    );
    const batch = graph.batch({ now: 3 });
    batch.assert(
      batch.resolve({ type: 'label', value: 'Wolf' }, 'subject'),
      batch.resolve({ type: 'label', value: 'is-a' }, 'predicate'),
      batch.resolve({ type: 'iri', value: 'http://example.org/Canine' }, 'object'),
      1,
    );
    graph.apply(batch.delta);
    expect(answers(graph, '?x is-a Canine')).toEqual(['x=Dog', 'x=Wolf']);
    expect(
      inferRules(graph)
        .derivations.map((derivation) => graph.symbol(derivation.subject)!.label)
        .sort(),
    ).toEqual(['Dog', 'Wolf']);
  });

  it('reads a relation alone as a query for its facts', async () => {
    const graph = await turtleGraph(TAXONOMY);
    expect(answers(graph, 'rdfs:subClassOf')).toEqual([
      'subject=Bird object=Animal',
      'subject=Mammal object=Animal',
      'subject=Sparrow object=Bird',
      'subject=dog object=Mammal',
    ]);
    expect(parseQuery('?x')).toMatchObject({ ok: false });
  });

  it('expands the well-known prefixes and declared ones, and nothing else', () => {
    expect(expandPrefixedName('rdfs:subClassOf', WELL_KNOWN_PREFIXES)).toBe(
      'http://www.w3.org/2000/01/rdf-schema#subClassOf',
    );
    expect(expandPrefixedName('ex:Dog', { ...WELL_KNOWN_PREFIXES, ...EX })).toBe('http://example.org/Dog');
    expect(expandPrefixedName('agent:status', WELL_KNOWN_PREFIXES)).toBeUndefined();
    expect(expandPrefixedName('Dog', WELL_KNOWN_PREFIXES)).toBeUndefined();
  });
});
