/**
 * Reads a subtree of the WordNet 3.0 noun database (Debian's wordnet-base installs it in
 * /usr/share/wordnet) as facts with labels: is-a (hypernym and instance hypernym), member-of,
 * part-of and substance-of (holonyms), topic (domain), and each synset's other words as `label`
 * facts, so the evaluation also shows that names are never copied.
 */
import { join } from 'node:path';
import { readWordNetNouns } from '../../scripts/wordnet-graph.mjs';

export type WordNetFact = { subject: string; predicate: string; object: string; literal?: boolean };

const RELATIONS: Record<string, string> = {
  '@': 'is-a',
  '@i': 'is-a',
  '#m': 'member-of',
  '#p': 'part-of',
  '#s': 'substance-of',
  ';c': 'topic',
};
const HYPONYMS = new Set(['~', '~i']);

/**
 * The facts of the noun subtree under `root` (a synset offset; 00015388 is animal). A synset is
 * named by its first word, or that word and its offset where an earlier synset took the name.
 */
export function wordNetSubtree(directory: string, root: string): WordNetFact[] {
  const synsets = readWordNetNouns(join(directory, 'data.noun'));
  if (!synsets.has(root)) throw new Error(`WordNet has no noun synset ${root}`);
  const inTree = new Set([root]);
  const queue = [root];
  while (queue.length > 0) {
    for (const pointer of synsets.get(queue.shift()!)!.pointers) {
      if (!HYPONYMS.has(pointer.symbol) || pointer.pos !== 'n' || inTree.has(pointer.offset)) continue;
      inTree.add(pointer.offset);
      queue.push(pointer.offset);
    }
  }
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const nameOf = (offset: string) => {
    let name = names.get(offset);
    if (name === undefined) {
      const word = synsets.get(offset)!.words[0]!;
      name = taken.has(word.toLowerCase()) ? `${word} (${offset})` : word;
      taken.add(name.toLowerCase());
      names.set(offset, name);
    }
    return name;
  };
  const facts: WordNetFact[] = [];
  for (const offset of inTree) {
    const synset = synsets.get(offset)!;
    const subject = nameOf(offset);
    for (const pointer of synset.pointers) {
      const predicate = RELATIONS[pointer.symbol];
      if (predicate === undefined || pointer.pos !== 'n' || (offset === root && predicate === 'is-a')) continue;
      facts.push({ subject, predicate, object: nameOf(pointer.offset) });
    }
    for (const word of synset.words.slice(1)) facts.push({ subject, predicate: 'label', object: word, literal: true });
  }
  return facts;
}
