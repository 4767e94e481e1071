import type { KnowledgeGraph } from './graph.ts';
import {
  type Hypervector,
  bindToRandom,
  bundle,
  randomHypervector,
  similarity,
  textWords,
  wordHypervector,
} from './hypervector.ts';
import type { SymbolKind } from './symbol.ts';
import { type LabelIndex, growLabelIndex, syncedLabelIndex } from './label-words.ts';
import type { SliceLimit } from './slice.ts';
import {
  SIMILARITY_INDEX_DEFAULTS,
  type NearestOptions,
  type SimilarityHit,
  type SimilarityIndexOptions,
} from './similarity-options.ts';
import { isNameRelation } from './names.ts';
import type { TripleColumns } from './triple-columns.ts';

/** Confidence is counted in tenths when bundling: a 0.9 triple weighs 9, a 0.04 one nothing. */
const CONFIDENCE_LEVELS = 10;

/** Seed spaces: a seed is `space * 2^32 + id`, so a symbol's vector never equals a role's. */
const BASE_SEED_SPACE = 1;
const OUTGOING_ROLE_SEED_SPACE = 2;
const INCOMING_ROLE_SEED_SPACE = 3;

/** Role vectors kept before the cache is emptied (relations are few; this only bounds odd graphs). */
const ROLE_CACHE_SIZE = 4_096;
/** Feature vectors kept (5 MB at 10,000 dimensions). */
const FEATURE_CACHE_SIZE = 4_096;
/** Word vectors kept for label similarity (5 MB at 10,000 dimensions). */
const WORD_CACHE_SIZE = 4_096;

/** Which way a triple is seen from a symbol: as its subject (outgoing) or as its object (incoming). */
type Direction = 'outgoing' | 'incoming';

/** One thing a symbol's meaning is made of: a domain triple seen from that symbol. */
type Feature = { predicate: number; other: number; direction: Direction; weight: number };

/**
 * Similarity of symbols in a knowledge graph, by hypervectors.
 *
 * - A symbol's base vector is random, seeded from its id; it is computed when needed, never stored.
 * - Its meaning vector bundles its neighbourhood: `bind(outgoingRole(p), base(o))` for each domain
 *   triple `(it, p, o)` and `bind(incomingRole(p), base(s))` for each `(s, p, it)`, weighted by
 *   confidence (in tenths). Symbols with the same parents and properties (Dog and Wolf: is-a
 *   Canine, has-part Fur, eats Meat) so get close vectors. A predicate has two role vectors of its
 *   own, apart from its base vector, so "incoming via p" differs from "outgoing via p" and a
 *   feature (p, o) never equals (o, p). Metadata triples (`agent:` predicates) and names (rdfs:label,
 *   schema:name, a relation called label: see isNameRelation) are left out: they are bookkeeping
 *   and names, not meaning; other literal objects (a
 *   colour, a year) are kept, as symbols sharing a value do share a property. A symbol without
 *   domain triples has its base vector as its meaning. A hub is described by its first
 *   `featureLimit` triples (outgoing first, in the order they were added).
 * - Meaning vectors are cached (least recently used, bounded). Triples added to the graph are
 *   noticed on the next call (the graph appends them), and the vectors of their subjects and
 *   objects recomputed; a raised confidence or a removal needs {@link invalidate}.
 *
 * The index for {@link nearest}: the graph's own positions by subject and by object (read from its
 * columns, so no triple objects are made), from which candidates are gathered structurally: the
 * symbols that share a feature with
 * the query symbol (the same predicate to the same object, or from the same subject), plus its
 * direct neighbours. Rarer features are taken first; at most `candidatesPerFeature` symbols come
 * from one feature (the first in index order) and at most `candidateLimit` in all. Only
 * candidates get meaning vectors and scores, so a query never touches the whole graph.
 */
export class SimilarityIndex {
  /** Dimensions of every vector of this index. */
  readonly dimensions: number;
  readonly #graph: KnowledgeGraph;
  readonly #limits: Required<SimilarityIndexOptions>;
  /** Triples seen so far: those appended since have ends whose meanings are out of date. */
  #seenCount = 0;
  readonly #meanings = new Map<number, Hypervector>();
  readonly #roles = new Map<number, Hypervector>();
  readonly #featureVectors = new Map<string, Hypervector>();
  readonly #words = new Map<string, Hypervector>();
  readonly #isLeftOutPredicate = new Map<number, boolean>();
  #labelIndex: LabelIndex | undefined;

  constructor(graph: KnowledgeGraph, options: SimilarityIndexOptions = {}) {
    const defaults = SIMILARITY_INDEX_DEFAULTS;
    this.#graph = graph;
    this.#limits = {
      dimensions: options.dimensions ?? defaults.dimensions,
      cacheSize: options.cacheSize ?? defaults.cacheSize,
      featureLimit: options.featureLimit ?? defaults.featureLimit,
      candidatesPerFeature: options.candidatesPerFeature ?? defaults.candidatesPerFeature,
      candidateLimit: options.candidateLimit ?? defaults.candidateLimit,
    };
    this.dimensions = this.#limits.dimensions;
  }

  /** The random vector that stands for a symbol itself, seeded from its id. */
  baseVector(symbolId: number): Hypervector {
    return randomHypervector(seedOf(BASE_SEED_SPACE, symbolId), this.dimensions);
  }

  /** The vector of what a symbol is related to, and how (see the class comment). */
  meaningVector(symbolId: number): Hypervector {
    this.#sync();
    return this.#meaning(symbolId);
  }

  /** How similar the meanings of two symbols are. An unknown id counts as a symbol without triples. */
  similarityOf(a: number, b: number): number {
    this.#sync();
    return similarity(this.#meaning(a), this.#meaning(b));
  }

  /**
   * The symbols most similar in meaning to one symbol, most similar first (ties by label), never
   * the symbol itself. Only symbols sharing a feature with it, or next to it, are considered (see
   * the class comment), so a symbol without domain triples has no neighbours.
   */
  nearest(symbolId: number, options: NearestOptions = {}): SimilarityHit[] {
    const { k = 10, minSimilarity, kinds = ['entity'] } = options;
    if (k < 1 || this.#graph.symbol(symbolId) === undefined) return [];
    this.#sync();
    const query = this.#meaning(symbolId);
    const hits: SimilarityHit[] = [];
    for (const candidate of this.#structuralCandidates(symbolId, new Set(kinds))) {
      const score = similarity(query, this.#meaning(candidate));
      if (minSimilarity === undefined || score >= minSimilarity) hits.push({ symbolId: candidate, similarity: score });
    }
    return this.#best(hits, k);
  }

  /**
   * The entities (or relations, when asked) whose labels are most like a text, by
   * `textSimilarity` of the label words. Only labels sharing a word with the text are considered,
   * found through a word index, built ahead in slices ({@link prepareLabelIndex}) or else
   * finished on the first call, and kept up to date with new symbols; rarer words are taken first, within the same caps as {@link nearest}.
   */
  nearestToText(text: string, k = 10, options: Omit<NearestOptions, 'k'> = {}): SimilarityHit[] {
    const { minSimilarity, kinds = ['entity'] } = options;
    const words = textWords(text);
    if (k < 1 || words.length === 0) return [];
    const query = this.#bundleOfWords(words);
    const labelIndex = this.#syncedLabelIndex();
    const allowedKinds = new Set(kinds);
    const postings = [...new Set(words)]
      .map((word) => labelIndex.symbolsByWord.get(word) ?? [])
      .sort((a, b) => a.length - b.length);
    const candidates = new Set<number>();
    for (const posting of postings) {
      let taken = 0;
      for (const candidate of posting) {
        if (candidates.size >= this.#limits.candidateLimit || taken >= this.#limits.candidatesPerFeature) break;
        if (candidates.has(candidate) || !this.#isAllowed(candidate, allowedKinds)) continue;
        candidates.add(candidate);
        taken++;
      }
    }
    const hits: SimilarityHit[] = [];
    for (const candidate of candidates) {
      const label = this.#graph.symbol(candidate)?.label ?? '';
      const score = similarity(query, this.#bundleOfWords(textWords(label)));
      if (minSimilarity === undefined || score >= minSimilarity) hits.push({ symbolId: candidate, similarity: score });
    }
    return this.#best(hits, k);
  }

  /**
   * Builds the label word index of {@link nearestToText} ahead of its first use, a slice at a time:
   * call it until it returns true, yielding between calls. A query before then finishes the rest.
   */
  prepareLabelIndex(limit: SliceLimit): boolean {
    const { index, isComplete } = growLabelIndex(this.#graph, this.#labelIndex, limit);
    this.#labelIndex = index;
    return isComplete;
  }

  /** Forgets the meaning vectors of symbols whose triples changed other than by addition (a raised confidence, a removal). */
  invalidate(symbolIds: Iterable<number>): void {
    for (const symbolId of symbolIds) this.#meanings.delete(symbolId);
    // After a removal the graph is shorter: triples appended from here on are still new.
    this.#seenCount = Math.min(this.#seenCount, this.#graph.tripleCount);
  }

  /** Forgets every cached vector and the label word index, e.g. after many confidences changed. */
  invalidateAll(): void {
    this.#meanings.clear();
    this.#roles.clear();
    this.#featureVectors.clear();
    this.#isLeftOutPredicate.clear();
    this.#labelIndex = undefined;
  }

  /** Takes in the triples added since the last call: their ends' meanings are out of date. */
  #sync(): void {
    const from = this.#seenCount;
    const to = this.#graph.tripleCount;
    this.#seenCount = to;
    if (to - from === 0 || this.#meanings.size === 0) return;
    // Walking the new triples costs far less than recomputing the meanings it keeps (each bundles
    // up to featureLimit vectors): the cache is emptied only after more triples than it holds.
    if (to - from > this.#limits.cacheSize) {
      this.#meanings.clear();
      return;
    }
    const { subjects, objects } = this.#graph.columns;
    for (let position = from; position < to; position++) {
      this.#meanings.delete(subjects[position]!);
      this.#meanings.delete(objects[position]!);
    }
  }

  #meaning(symbolId: number): Hypervector {
    const cached = this.#meanings.get(symbolId);
    if (cached !== undefined) {
      // Move to the end: the Map's order is the recency order.
      this.#meanings.delete(symbolId);
      this.#meanings.set(symbolId, cached);
      return cached;
    }
    const features = this.#features(symbolId);
    const vector =
      features.length === 0
        ? this.baseVector(symbolId)
        : bundle(
            features.map((feature) => this.#featureVector(feature)),
            features.map((feature) => feature.weight),
          );
    this.#meanings.set(symbolId, vector);
    if (this.#meanings.size > this.#limits.cacheSize) {
      const oldest = this.#meanings.keys().next();
      if (oldest.done !== true) this.#meanings.delete(oldest.value);
    }
    return vector;
  }

  /** The domain triples of a symbol that make up its meaning: outgoing first, then incoming, up to the feature limit. */
  #features(symbolId: number): Feature[] {
    const features: Feature[] = [];
    const limit = this.#limits.featureLimit;
    const columns = this.#graph.columns;
    for (const direction of ['outgoing', 'incoming'] as const) {
      const others = direction === 'outgoing' ? columns.objects : columns.subjects;
      eachPosition(this.#graph, symbolId, direction, (position) => {
        if (features.length >= limit) return false;
        const weight = this.#weightAt(columns, position);
        if (weight > 0)
          features.push({ predicate: columns.predicates[position]!, other: others[position]!, direction, weight });
        return true;
      });
    }
    return features;
  }

  /** A triple's weight in a meaning vector: its confidence in tenths, or 0 for triples left out. */
  #weightAt(columns: Readonly<TripleColumns>, position: number): number {
    const predicate = columns.predicates[position]!;
    let isLeftOut = this.#isLeftOutPredicate.get(predicate);
    if (isLeftOut === undefined) {
      const relation = this.#graph.symbol(predicate);
      isLeftOut = this.#graph.isMetadata({ predicate }) || (relation !== undefined && isNameRelation(relation));
      this.#isLeftOutPredicate.set(predicate, isLeftOut);
    }
    return isLeftOut ? 0 : Math.round(columns.confidences[position]! * CONFIDENCE_LEVELS);
  }

  /**
   * `bind(role(p), base(other))`. Many symbols share a few features (is-a Person, colour Red), so
   * recent ones are kept; the cache is emptied when full, which bounds it without bookkeeping.
   */
  #featureVector(feature: Feature): Hypervector {
    const key = `${feature.direction === 'outgoing' ? '>' : '<'}${feature.predicate} ${feature.other}`;
    let vector = this.#featureVectors.get(key);
    if (vector === undefined) {
      if (this.#featureVectors.size >= FEATURE_CACHE_SIZE) this.#featureVectors.clear();
      vector = bindToRandom(
        this.#roleVector(feature.predicate, feature.direction),
        seedOf(BASE_SEED_SPACE, feature.other),
      );
      this.#featureVectors.set(key, vector);
    }
    return vector;
  }

  #roleVector(predicate: number, direction: Direction): Hypervector {
    const key = seedOf(direction === 'outgoing' ? OUTGOING_ROLE_SEED_SPACE : INCOMING_ROLE_SEED_SPACE, predicate);
    let vector = this.#roles.get(key);
    if (vector === undefined) {
      if (this.#roles.size >= ROLE_CACHE_SIZE) this.#roles.clear();
      vector = randomHypervector(key, this.dimensions);
      this.#roles.set(key, vector);
    }
    return vector;
  }

  /**
   * The symbols worth scoring against one symbol: for each of its features, rarest first, the
   * symbol on the other end and the symbols sharing that feature, within the caps.
   */
  #structuralCandidates(symbolId: number, allowedKinds: ReadonlySet<SymbolKind>): Set<number> {
    const { candidateLimit, candidatesPerFeature } = this.#limits;
    const columns = this.#graph.columns;
    // Symbols sharing (p, o) are subjects of o's incoming triples; sharing (s, p), objects of s's outgoing ones.
    const sources = this.#features(symbolId).map((feature, order) => {
      const sharedFrom: Direction = feature.direction === 'outgoing' ? 'incoming' : 'outgoing';
      return { feature, order, sharedFrom, size: positionsOf(this.#graph, feature.other, sharedFrom).length };
    });
    sources.sort((a, b) => a.size - b.size || a.order - b.order);
    const candidates = new Set<number>();
    const consider = (candidate: number): boolean => {
      if (candidate === symbolId || candidates.has(candidate) || !this.#isAllowed(candidate, allowedKinds))
        return false;
      candidates.add(candidate);
      return true;
    };
    for (const { feature, sharedFrom } of sources) {
      if (candidates.size >= candidateLimit) break;
      consider(feature.other);
      const sharers = sharedFrom === 'incoming' ? columns.subjects : columns.objects;
      let taken = 0;
      eachPosition(this.#graph, feature.other, sharedFrom, (position) => {
        if (taken >= candidatesPerFeature || candidates.size >= candidateLimit) return false;
        if (
          columns.predicates[position] === feature.predicate &&
          this.#weightAt(columns, position) > 0 &&
          consider(sharers[position]!)
        )
          taken++;
        return true;
      });
    }
    return candidates;
  }

  #isAllowed(symbolId: number, allowedKinds: ReadonlySet<SymbolKind>): boolean {
    const symbol = this.#graph.symbol(symbolId);
    return symbol !== undefined && allowedKinds.has(symbol.kind);
  }

  /** The k best hits: most similar first, ties by label, then by id. */
  #best(hits: SimilarityHit[], k: number): SimilarityHit[] {
    const labelOf = (symbolId: number) => this.#graph.symbol(symbolId)?.label ?? '';
    hits.sort(
      (a, b) =>
        b.similarity - a.similarity ||
        labelOf(a.symbolId).localeCompare(labelOf(b.symbolId)) ||
        a.symbolId - b.symbolId,
    );
    return hits.slice(0, Math.floor(k));
  }

  /** The same vector as `hypervectorOfText` of the words, from cached word vectors. */
  #bundleOfWords(words: readonly string[]): Hypervector {
    if (words.length === 0) return wordHypervector('', this.dimensions);
    return bundle(words.map((word) => this.#wordVector(word)));
  }

  #wordVector(word: string): Hypervector {
    let vector = this.#words.get(word);
    if (vector === undefined) {
      if (this.#words.size >= WORD_CACHE_SIZE) this.#words.clear();
      vector = wordHypervector(word, this.dimensions);
      this.#words.set(word, vector);
    }
    return vector;
  }

  /** The label word index, brought up to date (see label-words.ts). */
  #syncedLabelIndex(): LabelIndex {
    this.#labelIndex = syncedLabelIndex(this.#graph, this.#labelIndex);
    return this.#labelIndex;
  }
}

/** The positions of a symbol's triples in one direction (the graph's own index). */
function positionsOf(graph: KnowledgeGraph, symbolId: number, direction: Direction): readonly number[] {
  return direction === 'outgoing' ? graph.positionsFrom(symbolId) : graph.positionsTo(symbolId);
}

/** Visits the positions of a symbol's triples in one direction, oldest first, until `visit` returns false. */
function eachPosition(
  graph: KnowledgeGraph,
  symbolId: number,
  direction: Direction,
  visit: (position: number) => boolean,
): void {
  for (const position of positionsOf(graph, symbolId, direction)) if (!visit(position)) return;
}

/** A seed unique to an id within a seed space; ids are below 2^32. */
function seedOf(space: number, id: number): number {
  return space * 2 ** 32 + id;
}
