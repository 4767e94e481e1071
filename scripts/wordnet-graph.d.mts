/** Types of wordnet-graph.mjs, for the tests and bench (TypeScript). */
export declare const WORDNET_NOUNS: string;
export declare const SYNSET_BASE: string;
export declare const SYNSETS: { animal: string; mammal: string; dog: string; carnivore: string };
export declare function wordnetGraph(options?: { root?: string; path?: string }): {
  text: string;
  triples: number;
  synsets: number;
};
export type WordNetSynset = {
  offset: string;
  words: string[];
  pointers: { symbol: string; offset: string; pos: string }[];
  gloss: string;
};
export declare function readWordNetNouns(path?: string): Map<string, WordNetSynset>;
