import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { type KgSymbol, localName } from '#core/kg/symbol.ts';
import { RDFS_LABEL } from '#core/kg/standard-terms.ts';
import { labelWords } from './words.ts';

/** rdf:type and rdfs:subClassOf: a graph in RDF's own words says "is a" with them. */
export const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
export const RDFS_SUBCLASS_OF = 'http://www.w3.org/2000/01/rdf-schema#subClassOf';

/** The longest label, in words, a question's words are matched against. */
export const MAX_PHRASE_WORDS = 6;

/**
 * What a graph calls its things, indexed by the lemmas of their names so a question is read in
 * time independent of the graph's size: every entity and relation under its label, its IRI's
 * local name and each rdfs:label value. Relations are also found by their label without a
 * leading has/is and a trailing preposition ("has-currency" by "currency", "lives-in" by "live").
 */
export type Vocabulary = {
  entities: Map<string, number[]>;
  relations: Map<string, number[]>;
  /** The relations that say "is a" (is-a, rdf:type, rdfs:subClassOf), whose chains make classes. */
  classRelations: number[];
  /** The relations whose values are names (label, rdfs:label): never an answer's relation. */
  nameRelations: Set<number>;
  /** The scripts the graph's names are written in (Latin, Cyrillic...), to tell a question in another. */
  scripts: Set<string>;
};

type CacheEntry = { symbolCount: number; nextSymbolId: number; nameTriples: number; vocabulary: Vocabulary };
const cache = new WeakMap<KnowledgeGraph, CacheEntry>();

/**
 * The graph's vocabulary, built once (seconds at a million triples) and then kept up to date: a
 * cycle's new symbols are added to it; it is built again only when symbols went away or name
 * facts (rdfs:label) changed.
 */
export function vocabularyOf(graph: KnowledgeGraph): Vocabulary {
  const cached = cache.get(graph);
  if (cached && cached.symbolCount <= graph.symbolCount) {
    if (cached.nextSymbolId < graph.nextSymbolId) {
      for (let id = cached.nextSymbolId; id < graph.nextSymbolId; id++) {
        const symbol = graph.symbol(id);
        if (symbol) indexSymbol(cached.vocabulary, symbol);
      }
      cached.vocabulary.classRelations = classRelationsOf(graph);
      cached.symbolCount = graph.symbolCount;
      cached.nextSymbolId = graph.nextSymbolId;
    }
    if (cached.symbolCount === graph.symbolCount && nameTripleCount(graph, cached.vocabulary) === cached.nameTriples)
      return cached.vocabulary;
  }
  const vocabulary = buildVocabulary(graph);
  cache.set(graph, {
    symbolCount: graph.symbolCount,
    nextSymbolId: graph.nextSymbolId,
    nameTriples: nameTripleCount(graph, vocabulary),
    vocabulary,
  });
  return vocabulary;
}

function nameTripleCount(graph: KnowledgeGraph, vocabulary: Vocabulary): number {
  let count = 0;
  for (const relation of vocabulary.nameRelations) count += graph.positionsWith(relation).length;
  return count;
}

const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Han',
  'Arabic',
  'Hebrew',
  'Devanagari',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Thai',
];
const SCRIPT_PATTERNS = SCRIPTS.map((script) => [script, new RegExp(`\\p{Script=${script}}`, 'u')] as const);

/** The script of a word's first letter, if it is one of the common ones. */
export function scriptOf(word: string): string | undefined {
  for (const [script, pattern] of SCRIPT_PATTERNS) if (pattern.test(word)) return script;
  return undefined;
}

function addTo(index: Map<string, number[]>, words: string[], id: number) {
  if (words.length === 0 || words.length > MAX_PHRASE_WORDS) return;
  const key = words.join(' ');
  const ids = index.get(key);
  if (!ids) index.set(key, [id]);
  else if (!ids.includes(id)) ids.push(id);
}

/** Indexes a symbol under its label and its IRI's local name. */
function indexSymbol(vocabulary: Vocabulary, symbol: KgSymbol): void {
  if (symbol.kind === 'literal') return;
  const names = new Set([symbol.label]);
  if (symbol.iri !== undefined) names.add(localName(symbol.iri));
  for (const name of names) {
    const words = labelWords(name);
    if (words[0] !== undefined) {
      const script = scriptOf(words[0]);
      if (script) vocabulary.scripts.add(script);
    }
    if (symbol.kind === 'entity') addTo(vocabulary.entities, words, symbol.id);
    else for (const form of relationForms(words)) addTo(vocabulary.relations, form, symbol.id);
  }
  if (symbol.kind === 'relation' && (symbol.iri === RDFS_LABEL || symbol.label.toLowerCase() === 'label'))
    vocabulary.nameRelations.add(symbol.id);
}

function classRelationsOf(graph: KnowledgeGraph): number[] {
  return [
    ...new Set([
      ...graph.symbolsNamed('is-a'),
      ...[RDF_TYPE, RDFS_SUBCLASS_OF].flatMap((iri) => graph.symbolByIri(iri) ?? []),
    ]),
  ]
    .filter((symbol) => symbol.kind === 'relation')
    .map((symbol) => symbol.id);
}

function buildVocabulary(graph: KnowledgeGraph): Vocabulary {
  const vocabulary: Vocabulary = {
    entities: new Map(),
    relations: new Map(),
    classRelations: [],
    nameRelations: new Set(),
    scripts: new Set(),
  };
  for (const symbol of graph.symbols()) indexSymbol(vocabulary, symbol);
  for (const relation of vocabulary.nameRelations) {
    for (const position of graph.positionsWith(relation)) {
      const subject = graph.symbol(graph.columns.subjects[position]!);
      const value = graph.symbol(graph.columns.objects[position]!);
      if (!subject || !value || subject.kind === 'literal') continue;
      const words = labelWords(value.label);
      if (subject.kind === 'entity') addTo(vocabulary.entities, words, subject.id);
      else for (const form of relationForms(words)) addTo(vocabulary.relations, form, subject.id);
    }
  }
  vocabulary.classRelations = classRelationsOf(graph);
  return vocabulary;
}

const LEADING_VERBS = new Set(['have', 'be', 'is', 'has']);
const TRAILING_PREPOSITIONS = new Set(['in', 'of', 'to', 'from', 'with', 'by', 'on', 'at', 'for', 'as']);

/** A relation's name as words, and as a person would say it: "has-currency" also "currency", "lives-in" also "live". */
function relationForms(words: string[]): string[][] {
  const forms = [words];
  let core = words;
  if (core.length > 1 && LEADING_VERBS.has(core[0]!)) core = core.slice(1);
  if (core.length > 1 && TRAILING_PREPOSITIONS.has(core[core.length - 1]!)) core = core.slice(0, -1);
  if (core !== words && core.length > 0 && !(core.length === 1 && core[0]!.length === 1)) forms.push(core);
  return forms;
}
