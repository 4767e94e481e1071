import type { KnowledgeGraph } from './graph.ts';
import type { SimilarityHit } from './similarity-options.ts';
import type { SimilarityIndex } from './similarity.ts';
import { isNameRelation, relationWords } from './names.ts';
import { GraphVocabulary } from './vocabulary.ts';
import { textWords } from './hypervector.ts';

/** Why a predicate's facts are never copied from one symbol to another. */
export type UncopyableBecause = 'metadata' | 'name' | 'code' | 'functional';

/** A fact proposed for a symbol by analogy: a (predicate, object) its similar symbols share. */
export type AnalogyProposal = {
  predicate: number;
  object: number;
  /** How many of the similar symbols have it. */
  support: number;
  /** Their similarities summed over those of all similar symbols considered (0..1]. */
  share: number;
  /** Their similarities summed over the number of similar symbols: the average evidence for it. */
  strength: number;
  /** The similar symbols that have it, most similar first. */
  sharers: number[];
};

export type AnalogyOptions = {
  /** Similar symbols consulted, by meaning or by name (default 10). */
  neighbours?: number;
  /** Least similarity a symbol needs to be consulted (default 0.6). */
  minSimilarity?: number;
};

const DEFAULT_NEIGHBOURS = 10;
const DEFAULT_MIN_SIMILARITY = 0.6;
/** Outgoing triples read from one similar symbol at most: a hub is judged by its first ones. */
export const FACTS_PER_NEIGHBOUR = 256;
/** Subjects read per predicate to judge it functional: bounds the cost on any graph size. */
const FUNCTIONAL_SAMPLE_SUBJECTS = 1_000;
/** Objects read per sampled subject: two already make a predicate non-functional. */
const FUNCTIONAL_SCAN_PER_SUBJECT = 512;
/** Fewer subjects than this say nothing about a predicate: one or two facts are one object each by chance. */
const FUNCTIONAL_MIN_SUBJECTS = 3;
/** Objects sampled per predicate to judge whether its values are identifiers. */
const CODE_SAMPLE_OBJECTS = 64;

const DISJOINT_IRI = 'http://www.w3.org/2002/07/owl#disjointWith';

/**
 * Class membership and subclass predicates: a tree taxonomy gives each node one parent by
 * construction, so they look functional, yet a thing may belong to many classes. They are judged
 * by names and codes only.
 */
const TAXONOMIC_NAMES = new Set(['isa', 'type', 'subclassof', 'instanceof', 'kindof', 'subclass']);

const CODE_WORDS = new Set(['code', 'id', 'identifier', 'isbn', 'issn', 'doi', 'sku', 'uuid', 'guid']);

function looksLikeCode(words: readonly string[]): boolean {
  const first = words[0] ?? '';
  return words.some((word) => CODE_WORDS.has(word)) || first.startsWith('alpha') || first.startsWith('iso');
}

/** A literal that reads as an identifier: no spaces, and a digit in it or 2 to 4 capitals (FRA, Q42, 978-0-14). */
function looksLikeIdentifier(value: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/.test(value) && (/\d/.test(value) || /^[A-Z]{2,4}$/.test(value));
}

/**
 * What a graph's predicates allow analogy to copy. Judgements are cached until the graph's
 * triple count changes (it has no revision number; a batch adds or removes triples), and each
 * reads a bounded sample, so a cycle never scans a large graph.
 */
class PredicateJudge {
  #tripleCount = -1;
  readonly #verdicts = new Map<number, UncopyableBecause | null>();
  readonly #graph: KnowledgeGraph;

  constructor(graph: KnowledgeGraph) {
    this.#graph = graph;
  }

  uncopyable(predicate: number): UncopyableBecause | undefined {
    if (this.#tripleCount !== this.#graph.tripleCount) {
      this.#verdicts.clear();
      this.#tripleCount = this.#graph.tripleCount;
    }
    let verdict = this.#verdicts.get(predicate);
    if (verdict === undefined) {
      verdict = this.#judge(predicate) ?? null;
      this.#verdicts.set(predicate, verdict);
    }
    return verdict ?? undefined;
  }

  #judge(predicate: number): UncopyableBecause | undefined {
    const graph = this.#graph;
    if (graph.isMetadata({ predicate })) return 'metadata';
    const symbol = graph.symbol(predicate);
    if (symbol === undefined) return 'metadata';
    if (isNameRelation(symbol)) return 'name';
    const words = relationWords(symbol);
    if (looksLikeCode(words) || this.#valuesAreIdentifiers(predicate)) return 'code';
    const isTaxonomic =
      TAXONOMIC_NAMES.has(words.join('')) || GraphVocabulary.of(graph).relationNamed('is-a').ids.includes(predicate);
    if (!isTaxonomic && this.#isFunctional(predicate)) return 'functional';
    return undefined;
  }

  /** Whether most of a sample of the predicate's objects are literals that read as identifiers. */
  #valuesAreIdentifiers(predicate: number): boolean {
    const positions = this.#graph.positionsWith(predicate);
    const step = Math.max(1, Math.floor(positions.length / CODE_SAMPLE_OBJECTS));
    let sampled = 0;
    let identifiers = 0;
    for (let index = 0; index < positions.length && sampled < CODE_SAMPLE_OBJECTS; index += step) {
      const object = this.#graph.symbol(this.#graph.columns.objects[positions[index]!]!);
      sampled++;
      if (object?.kind === 'literal' && looksLikeIdentifier(object.label)) identifiers++;
    }
    return sampled > 0 && identifiers / sampled >= 0.8;
  }

  /**
   * Functional in the graph: every subject that has the predicate has exactly one object for it
   * (capital, born-in, alpha-2), judged on up to FUNCTIONAL_SAMPLE_SUBJECTS subjects spread over
   * its triples, and only once at least FUNCTIONAL_MIN_SUBJECTS subjects have it. Copying such a
   * fact gives a symbol its neighbour's one value, which is wrong unless the two are the same thing.
   */
  #isFunctional(predicate: number): boolean {
    const graph = this.#graph;
    const { subjects, predicates, objects } = graph.columns;
    const positions = graph.positionsWith(predicate);
    const step = Math.max(1, Math.floor(positions.length / FUNCTIONAL_SAMPLE_SUBJECTS));
    const seen = new Set<number>();
    for (let index = 0; index < positions.length && seen.size < FUNCTIONAL_SAMPLE_SUBJECTS; index += step) {
      const subject = subjects[positions[index]!]!;
      if (seen.has(subject)) continue;
      seen.add(subject);
      let only: number | undefined;
      let read = 0;
      for (const position of graph.positionsFrom(subject)) {
        if (read++ >= FUNCTIONAL_SCAN_PER_SUBJECT) break;
        if (predicates[position] !== predicate) continue;
        if (only === undefined) only = objects[position];
        else if (objects[position] !== only) return false;
      }
    }
    return seen.size >= FUNCTIONAL_MIN_SUBJECTS;
  }
}

const judges = new WeakMap<KnowledgeGraph, PredicateJudge>();

/** Why analogy never copies a predicate's facts, or undefined when it may (a relational predicate). */
export function uncopyableBecause(graph: KnowledgeGraph, predicate: number): UncopyableBecause | undefined {
  let judge = judges.get(graph);
  if (judge === undefined) {
    judge = new PredicateJudge(graph);
    judges.set(graph, judge);
  }
  return judge.uncopyable(predicate);
}

/** The disjointness predicates a graph has: owl:disjointWith, or a relation named disjoint-with. */
function disjointPredicates(graph: KnowledgeGraph): number[] {
  const ids = new Set<number>();
  const byIri = graph.symbolByIri(DISJOINT_IRI);
  if (byIri) ids.add(byIri.id);
  for (const symbol of graph.symbolsNamed('disjoint-with')) ids.add(symbol.id);
  for (const symbol of graph.symbolsNamed('disjointWith')) ids.add(symbol.id);
  return [...ids];
}

/**
 * Whether the graph contradicts `subject predicate object`: it already holds it or its inverse
 * (`object predicate subject`), or the subject already has that predicate to a class the graph
 * states disjoint with the object.
 */
export function contradicted(
  graph: KnowledgeGraph,
  subject: number,
  predicate: number,
  object: number,
  disjoint = disjointPredicates(graph),
): boolean {
  if (graph.positionOf(subject, predicate, object) !== -1 || graph.positionOf(object, predicate, subject) !== -1)
    return true;
  if (disjoint.length === 0) return false;
  const { predicates, objects } = graph.columns;
  for (const position of graph.positionsFrom(subject)) {
    if (predicates[position] !== predicate) continue;
    const other = objects[position]!;
    if (
      disjoint.some(
        (relation) =>
          graph.positionOf(other, relation, object) !== -1 || graph.positionOf(object, relation, other) !== -1,
      )
    )
      return true;
  }
  return false;
}

/**
 * The word that names the kind in an English compound name: its last word, as the name search
 * splits words ("wren" in "marsh wren (01234)", "marsh_wren" and "sea-wren"). Names that put the
 * kind first (Latin binomials) find no kin by name this way; their facts still find kin.
 */
function headWord(label: string): string {
  return textWords(label.replace(/\s*\([^)]*\)\s*$/, '')).at(-1) ?? '';
}

/**
 * The k symbols most similar to one, by meaning (shared facts) or by name (shared label words
 * and the same last word: "marsh wren" and "cactus wren", not "Carolina wren" for "Carolina
 * parakeet"), each at the higher of its two similarities. Names find kin that the graph has not
 * yet connected; they are a reason to compare facts, never facts to copy.
 */
function similarSymbols(
  graph: KnowledgeGraph,
  similarity: SimilarityIndex,
  subject: number,
  k: number,
  minSimilarity: number,
): SimilarityHit[] {
  const best = new Map<number, number>();
  const name = graph.symbol(subject)?.label ?? '';
  const head = headWord(name);
  const byName = similarity
    .nearestToText(name, k + 1, { minSimilarity })
    .filter((hit) => hit.symbolId !== subject && headWord(graph.symbol(hit.symbolId)?.label ?? '') === head);
  for (const hit of [...similarity.nearest(subject, { k, minSimilarity }), ...byName])
    best.set(hit.symbolId, Math.max(best.get(hit.symbolId) ?? 0, hit.similarity));
  return [...best]
    .map(([symbolId, value]) => ({ symbolId, similarity: value }))
    .sort((a, b) => b.similarity - a.similarity || a.symbolId - b.symbolId)
    .slice(0, k);
}

/**
 * Facts for a symbol by analogy with its most similar symbols: each (predicate, object) that
 * similar symbols have and it lacks, over relational predicates only (never names, codes or
 * predicates functional in the graph, see {@link uncopyableBecause}), never one the graph
 * contradicts, scored by how many similar symbols share it, weighted by their similarity.
 * Best first: by share, then support, then older facts first.
 */
export function proposeByAnalogy(
  graph: KnowledgeGraph,
  similarity: SimilarityIndex,
  subject: number,
  options: AnalogyOptions = {},
): { neighbours: SimilarityHit[]; proposals: AnalogyProposal[] } {
  const neighbours = similarSymbols(
    graph,
    similarity,
    subject,
    options.neighbours ?? DEFAULT_NEIGHBOURS,
    options.minSimilarity ?? DEFAULT_MIN_SIMILARITY,
  );
  if (neighbours.length === 0) return { neighbours, proposals: [] };
  const { predicates, objects } = graph.columns;
  const candidates = new Map<
    string,
    { predicate: number; object: number; weight: number; sharers: number[]; first: number }
  >();
  let order = 0;
  for (const neighbour of neighbours) {
    let read = 0;
    for (const position of graph.positionsFrom(neighbour.symbolId)) {
      if (read++ >= FACTS_PER_NEIGHBOUR) break;
      const predicate = predicates[position]!;
      const object = objects[position]!;
      if (object === subject || uncopyableBecause(graph, predicate) !== undefined) continue;
      const key = `${predicate} ${object}`;
      const candidate = candidates.get(key);
      if (candidate === undefined)
        candidates.set(key, {
          predicate,
          object,
          weight: neighbour.similarity,
          sharers: [neighbour.symbolId],
          first: order++,
        });
      else if (!candidate.sharers.includes(neighbour.symbolId)) {
        candidate.weight += neighbour.similarity;
        candidate.sharers.push(neighbour.symbolId);
      }
    }
  }
  const total = neighbours.reduce((sum, hit) => sum + hit.similarity, 0);
  const disjoint = disjointPredicates(graph);
  const ranked = [...candidates.values()]
    .filter((candidate) => !contradicted(graph, subject, candidate.predicate, candidate.object, disjoint))
    .sort((a, b) => b.weight - a.weight || b.sharers.length - a.sharers.length || a.first - b.first);
  return {
    neighbours,
    proposals: ranked.map((candidate) => ({
      predicate: candidate.predicate,
      object: candidate.object,
      support: candidate.sharers.length,
      share: candidate.weight / total,
      strength: candidate.weight / neighbours.length,
      sharers: candidate.sharers,
    })),
  };
}
