import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { type KgSymbol, localName } from '#core/kg/symbol.ts';
import { RDFS_LABEL } from '#core/kg/standard-terms.ts';
import type { SliceLimit } from '#core/kg/slice.ts';
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

/**
 * A vocabulary built or being built: symbols with an id below `nextSymbolId` are in (`symbolCount`
 * of them); then the name facts, relation by relation (`nameRelationAt`, `namePositionAt`).
 */
type CacheEntry = {
  vocabulary: Vocabulary;
  symbolCount: number;
  nextSymbolId: number;
  nameTriples: number;
  nameRelationAt: number;
  namePositionAt: number;
  isComplete: boolean;
};
const cache = new WeakMap<KnowledgeGraph, CacheEntry>();

/** Symbols or name facts indexed between two looks at the clock. */
const ENTRIES_PER_CHECK = 512;

/**
 * The graph's vocabulary, built once (seconds at a million triples: {@link prepareVocabulary}
 * builds it ahead in slices; what is left is finished here) and then kept up to date: a cycle's
 * new symbols are added to it; it is built again only when symbols went away or name facts
 * (rdfs:label) changed.
 */
export function vocabularyOf(graph: KnowledgeGraph): Vocabulary {
  return grownVocabulary(graph, {}).vocabulary;
}

/**
 * Builds the graph's vocabulary a slice at a time, until the limit stops it: call it until it
 * returns true, yielding between calls, and {@link vocabularyOf} then answers at once.
 */
export function prepareVocabulary(graph: KnowledgeGraph, limit: SliceLimit): boolean {
  return grownVocabulary(graph, limit).isComplete;
}

function grownVocabulary(graph: KnowledgeGraph, limit: SliceLimit): CacheEntry {
  let entry = cache.get(graph);
  if (entry?.isComplete === true) {
    const cached = entry;
    if (cached.symbolCount <= graph.symbolCount) {
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
        return cached;
    }
    entry = undefined;
  }
  entry ??= emptyEntry();
  cache.set(graph, entry);
  for (;;) {
    if (!growEntry(graph, entry, limit)) return entry;
    if (entry.symbolCount === graph.symbolCount && nameTripleCount(graph, entry.vocabulary) === entry.nameTriples) {
      entry.vocabulary.classRelations = classRelationsOf(graph);
      entry.isComplete = true;
      return entry;
    }
    // Symbols went away, or name facts came, while it was being built: it starts again.
    entry = emptyEntry();
    cache.set(graph, entry);
  }
}

function emptyEntry(): CacheEntry {
  return {
    vocabulary: {
      entities: new Map(),
      relations: new Map(),
      classRelations: [],
      nameRelations: new Set(),
      scripts: new Set(),
    },
    symbolCount: 0,
    nextSymbolId: 0,
    nameTriples: 0,
    nameRelationAt: 0,
    namePositionAt: 0,
    isComplete: false,
  };
}

/** Indexes symbols, then name facts, from where the entry stopped; false when the limit stopped it first. */
function growEntry(graph: KnowledgeGraph, entry: CacheEntry, limit: SliceLimit): boolean {
  const { vocabulary } = entry;
  while (entry.nextSymbolId < graph.nextSymbolId) {
    const stop = Math.min(graph.nextSymbolId, entry.nextSymbolId + ENTRIES_PER_CHECK);
    for (let id = entry.nextSymbolId; id < stop; id++) {
      const symbol = graph.symbol(id);
      if (!symbol) continue;
      entry.symbolCount++;
      indexSymbol(vocabulary, symbol);
    }
    entry.nextSymbolId = stop;
    if (limit.shouldStop?.() === true) return false;
  }
  const nameRelations = [...vocabulary.nameRelations];
  for (; entry.nameRelationAt < nameRelations.length; entry.nameRelationAt++, entry.namePositionAt = 0) {
    const positions = graph.positionsWith(nameRelations[entry.nameRelationAt]!);
    while (entry.namePositionAt < positions.length) {
      const stop = Math.min(positions.length, entry.namePositionAt + ENTRIES_PER_CHECK);
      for (; entry.namePositionAt < stop; entry.namePositionAt++) {
        const position = positions[entry.namePositionAt]!;
        entry.nameTriples++;
        indexNameFact(graph, vocabulary, position);
      }
      if (limit.shouldStop?.() === true) return false;
    }
  }
  return true;
}

/** Indexes a thing under the value of one of its name facts (an rdfs:label). */
function indexNameFact(graph: KnowledgeGraph, vocabulary: Vocabulary, position: number): void {
  const subject = graph.symbol(graph.columns.subjects[position]!);
  const value = graph.symbol(graph.columns.objects[position]!);
  if (!subject || !value || subject.kind === 'literal') return;
  const words = labelWords(value.label);
  if (subject.kind === 'entity') addTo(vocabulary.entities, words, subject.id);
  else for (const form of relationForms(words)) addTo(vocabulary.relations, form, subject.id);
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

const LEADING_VERBS = new Set(['have', 'be', 'is', 'has']);
const TRAILING_PREPOSITIONS = new Set(['in', 'of', 'to', 'from', 'with', 'by', 'on', 'at', 'for', 'as', 'than']);

/** A relation's name as words, and as a person would say it: "has-currency" also "currency", "lives-in" also "live". */
function relationForms(words: string[]): string[][] {
  const forms = [words];
  let core = words;
  if (core.length > 1 && LEADING_VERBS.has(core[0]!)) core = core.slice(1);
  if (core.length > 1 && TRAILING_PREPOSITIONS.has(core[core.length - 1]!)) core = core.slice(0, -1);
  if (core !== words && core.length > 0 && !(core.length === 1 && core[0]!.length === 1)) forms.push(core);
  return forms;
}
