#!/usr/bin/env node
/**
 * Writes the WordNet fixtures of tests/fixtures/public (see its README) from WordNet 3.0's noun
 * database as Debian's wordnet-base installs it: an RDFS class hierarchy with instances, a SKOS
 * thesaurus and an OWL ontology with a transitive property and its inverse. Run again, it writes
 * the same bytes.
 *
 *   node scripts/wordnet-rdf.mjs [/usr/share/wordnet] [tests/fixtures/public]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [directory = '/usr/share/wordnet', output = 'tests/fixtures/public'] = process.argv.slice(2);

/** data.noun: `offset lex_filenum ss_type w_cnt (word lex_id)… p_cnt (symbol offset pos source/target)… | gloss`. */
const synsets = new Map();
for (const line of readFileSync(join(directory, 'data.noun'), 'utf8').split('\n')) {
  if (line.length === 0 || line.startsWith(' ')) continue;
  const fields = line.slice(0, line.indexOf(' | ') === -1 ? undefined : line.indexOf(' | ')).split(' ');
  const wordCount = Number.parseInt(fields[3], 16);
  const words = Array.from({ length: wordCount }, (_, index) =>
    fields[4 + 2 * index].replace(/\(.*\)$/, '').replaceAll('_', ' '),
  );
  let at = 4 + 2 * wordCount;
  const pointerCount = Number.parseInt(fields[at++], 10);
  const pointers = [];
  for (let index = 0; index < pointerCount; index++, at += 4)
    if (fields[at + 2] === 'n') pointers.push({ symbol: fields[at], offset: fields[at + 1] });
  synsets.set(fields[0], { words, pointers });
}

const HEADER = (what) =>
  `# ${what}\n# Converted by scripts/wordnet-rdf.mjs from WordNet 3.0 (Debian wordnet-base, /usr/share/wordnet/data.noun).\n` +
  `# WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. Licence: licenses/wordnet.debian-copyright.txt\n`;
const PREFIXES = `@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix wn: <http://wordnet-rdf.princeton.edu/ontology#> .
@prefix wnid: <http://wordnet-rdf.princeton.edu/id/> .
`;
const id = (offset) => `wnid:${offset}-n`;
const literal = (text) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"@en`;
const pointed = (offset, symbols) =>
  synsets
    .get(offset)
    .pointers.filter((pointer) => symbols.includes(pointer.symbol))
    .map((pointer) => pointer.offset);

/** The synsets under roots through the given pointers, breadth-first, roots first, at most `limit`. */
function below(roots, symbols, limit = Infinity, depth = Infinity) {
  const order = [...roots];
  const seen = new Set(roots);
  let frontier = [...roots];
  for (let level = 0; level < depth && frontier.length > 0 && order.length < limit; level++) {
    const next = [];
    for (const offset of frontier)
      for (const child of pointed(offset, symbols)) {
        if (seen.has(child) || order.length >= limit) continue;
        seen.add(child);
        order.push(child);
        next.push(child);
      }
    frontier = next;
  }
  return order;
}

/** Hypernyms from a synset up to the top (class ancestors), each once. */
function above(offsets) {
  return below(offsets, ['@', '@i']).filter((offset) => !offsets.includes(offset));
}

// 1. RDFS: the canine and planet subtrees (classes by hypernym, individuals by instance hypernym), with their ancestors.
{
  const roots = ['02083346', '09394007'];
  const inTree = below(roots, ['~', '~i']);
  const all = [...new Set([...inTree, ...above(roots)])];
  const lines = [
    HEADER('WordNet 3.0 nouns under canine (02083346) and planet (09394007) as an RDFS class hierarchy with instances'),
    PREFIXES,
  ];
  for (const offset of all) {
    const { words } = synsets.get(offset);
    const statements = [];
    for (const parent of pointed(offset, ['@']))
      if (all.includes(parent)) statements.push(`rdfs:subClassOf ${id(parent)}`);
    for (const parent of pointed(offset, ['@i'])) if (all.includes(parent)) statements.push(`rdf:type ${id(parent)}`);
    if (pointed(offset, ['@i']).length === 0) statements.push('rdf:type rdfs:Class');
    statements.push(`rdfs:label ${words.map(literal).join(', ')}`);
    lines.push(`${id(offset)} ${statements.join(' ;\n  ')} .`);
  }
  writeFileSync(join(output, 'wordnet-canine-planet.rdfs.ttl'), `${lines.join('\n')}\n`);
}

// 2. SKOS: the feline subtree as a thesaurus, broader and narrower as WordNet states both.
{
  const inTree = below(['02120997'], ['~', '~i']);
  const lines = [
    HEADER('WordNet 3.0 nouns under feline (02120997) as a SKOS thesaurus'),
    PREFIXES,
    `wn:felines a skos:ConceptScheme ; skos:prefLabel "felines"@en ; skos:hasTopConcept ${id('02120997')} .`,
  ];
  for (const offset of inTree) {
    const { words } = synsets.get(offset);
    const statements = ['a skos:Concept', 'skos:inScheme wn:felines', `skos:prefLabel ${literal(words[0])}`];
    if (words.length > 1) statements.push(`skos:altLabel ${words.slice(1).map(literal).join(', ')}`);
    const broader = pointed(offset, ['@', '@i']).filter((parent) => inTree.includes(parent));
    if (broader.length > 0) statements.push(`skos:broader ${broader.map(id).join(', ')}`);
    const narrower = pointed(offset, ['~', '~i']).filter((child) => inTree.includes(child));
    if (narrower.length > 0) statements.push(`skos:narrower ${narrower.map(id).join(', ')}`);
    lines.push(`${id(offset)} ${statements.join(' ;\n  ')} .`);
  }
  writeFileSync(join(output, 'wordnet-felines.skos.ttl'), `${lines.join('\n')}\n`);
}

// 3. OWL: Europe's parts (part meronyms, two levels), part_holonym transitive and the inverse of part_meronym.
{
  const inTree = below(['09275473'], ['%p'], 400, 2);
  const classes = [...new Set(inTree.flatMap((offset) => pointed(offset, ['@', '@i'])))];
  const lines = [
    HEADER('WordNet 3.0: Europe (09275473) and its parts, two levels of part meronyms, as an OWL ontology'),
    PREFIXES,
    'wn:part_holonym a owl:ObjectProperty, owl:TransitiveProperty ; owl:inverseOf wn:part_meronym ; rdfs:label "part of"@en .',
    'wn:part_meronym a owl:ObjectProperty, owl:TransitiveProperty ; rdfs:label "has part"@en .',
  ];
  for (const offset of classes)
    lines.push(`${id(offset)} a owl:Class ; rdfs:label ${literal(synsets.get(offset).words[0])} .`);
  for (const offset of inTree) {
    const { words } = synsets.get(offset);
    const statements = [];
    for (const type of pointed(offset, ['@i'])) statements.push(`a ${id(type)}`);
    for (const type of pointed(offset, ['@'])) statements.push(`rdfs:subClassOf ${id(type)}`);
    statements.push(`rdfs:label ${words.map(literal).join(', ')}`);
    const wholes = pointed(offset, ['#p']).filter((whole) => inTree.includes(whole));
    // WordNet states both directions; the file keeps part_holonym for the first level and part_meronym for the second, so only the inverse joins them.
    if (wholes.length > 0 && offset !== '09275473' && pointed('09275473', ['%p']).includes(offset))
      statements.push(`wn:part_holonym ${wholes.map(id).join(', ')}`);
    const parts = pointed(offset, ['%p']).filter(
      (part) => inTree.includes(part) && !pointed('09275473', ['%p']).includes(part),
    );
    if (parts.length > 0) statements.push(`wn:part_meronym ${parts.map(id).join(', ')}`);
    lines.push(`${id(offset)} ${statements.join(' ;\n  ')} .`);
  }
  writeFileSync(join(output, 'wordnet-europe.owl.ttl'), `${lines.join('\n')}\n`);
}
