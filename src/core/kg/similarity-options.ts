import { DEFAULT_DIMENSIONS } from './hypervector.ts';
import type { SymbolKind } from './symbol.ts';

// What a similarity query asks (similarity.ts) and gets, and the limits of the index that answers it.

/** A symbol found by similarity, and how similar it is (1 alike, about 0.5 unrelated). */
export type SimilarityHit = { symbolId: number; similarity: number };

/** What `SimilarityIndex.nearest` returns and from which symbols. */
export type NearestOptions = {
  /** How many hits at most; 10 unless told. */
  k?: number;
  /** Leaves out hits less similar than this. */
  minSimilarity?: number;
  /** Which kinds of symbol may be returned; entities only unless told. */
  kinds?: readonly SymbolKind[];
};

/** Sizes and limits of a `SimilarityIndex`; the defaults suit graphs of 100,000+ symbols. */
export type SimilarityIndexOptions = {
  /** Dimensions of every vector (default 10,000: 1,250 bytes a vector). */
  dimensions?: number;
  /** Meaning vectors kept in the least-recently-used cache (default 20,000, about 25 MB at 10,000 dimensions). */
  cacheSize?: number;
  /** Triples bundled into one meaning vector at most (default 256): a hub is described by its first ones. */
  featureLimit?: number;
  /** Candidates taken from one shared feature or label word at most (default 1,000). */
  candidatesPerFeature?: number;
  /** Candidates scored by one query at most (default 5,000). */
  candidateLimit?: number;
};

/** The limits a `SimilarityIndex` uses unless told otherwise. */
export const SIMILARITY_INDEX_DEFAULTS: Required<SimilarityIndexOptions> = {
  dimensions: DEFAULT_DIMENSIONS,
  cacheSize: 20_000,
  featureLimit: 256,
  candidatesPerFeature: 1_000,
  candidateLimit: 5_000,
};
