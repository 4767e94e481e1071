import { readFileSync } from 'node:fs';

/**
 * A real public graph for the SPARQL tests and bench, nobody here wrote: the noun hierarchy of
 * Princeton WordNet 3.0 as Debian's `wordnet-base` installs it, converted to N-Triples in the
 * standard vocabularies an endpoint serves (rdfs:subClassOf for a hypernym, rdf:type for an
 * instance's hypernym, rdfs:label and skos:prefLabel for its words, rdfs:comment for its gloss),
 * under the IRIs of WordNet's own RDF edition. Only the tree under `root` (a synset offset) is
 * kept, and the path from it up to "entity", so a class closure has somewhere to climb.
 */
export const WORDNET_NOUNS = process.env.ANIMA_WORDNET_NOUNS ?? '/usr/share/wordnet/data.noun';
export const SYNSET_BASE = 'http://wordnet-rdf.princeton.edu/wn30/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const SUBCLASS_OF = 'http://www.w3.org/2000/01/rdf-schema#subClassOf';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const COMMENT = 'http://www.w3.org/2000/01/rdf-schema#comment';
const PREF_LABEL = 'http://www.w3.org/2004/02/skos/core#prefLabel';

/** Well-known synsets of WordNet 3.0 (offsets in data.noun). */
export const SYNSETS = { animal: '00015388', mammal: '01861778', dog: '02084071', carnivore: '02075296' };

/**
 * Reads data.noun, the one reader of WordNet's format here (the analogy evaluation uses it too):
 * `offset lex_filenum ss_type w_cnt (word lex_id)... p_cnt (symbol offset pos source/target)... | gloss`,
 * each synset's words (underscores as spaces), pointers and gloss, by offset.
 */
export function readWordNetNouns(path = WORDNET_NOUNS) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(
      `cannot read WordNet's nouns at ${path} (install Debian's wordnet-base, or set ANIMA_WORDNET_NOUNS): ${error.message}`,
      { cause: error },
    );
  }
  const synsets = new Map();
  for (const line of text.split('\n')) {
    // The licence header's lines start with two spaces.
    if (line === '' || line.startsWith(' ')) continue;
    const cut = line.indexOf(' | ');
    const fields = (cut === -1 ? line : line.slice(0, cut)).trim().split(' ');
    const wordCount = parseInt(fields[3], 16);
    const words = Array.from({ length: wordCount }, (_, index) =>
      fields[4 + index * 2].replace(/\(.*\)$/, '').replaceAll('_', ' '),
    );
    let at = 4 + wordCount * 2;
    const pointerCount = Number(fields[at++]);
    const pointers = Array.from({ length: pointerCount }, () => {
      const pointer = { symbol: fields[at], offset: fields[at + 1], pos: fields[at + 2] };
      at += 4;
      return pointer;
    });
    synsets.set(fields[0], { offset: fields[0], words, pointers, gloss: cut === -1 ? '' : line.slice(cut + 3).trim() });
  }
  return synsets;
}

/** A synset's noun pointers of the given kinds (`@` hypernym, `@i` instance hypernym, `~`/`~i` hyponyms). */
const nounPointers = (synset, symbols) =>
  synset.pointers
    .filter((pointer) => pointer.pos === 'n' && symbols.includes(pointer.symbol))
    .map((pointer) => pointer.offset);

const iri = (offset) => `<${SYNSET_BASE}${offset}-n>`;
const literal = (text) =>
  `${JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}@en`;

/** The N-Triples of the tree under `root` (with the hypernym path above it), and its synset count. */
export function wordnetGraph({ root = SYNSETS.animal, path = WORDNET_NOUNS } = {}) {
  const synsets = readWordNetNouns(path);
  if (!synsets.has(root)) throw new Error(`WordNet has no noun synset ${root}`);
  const kept = new Set();
  const pending = [root];
  while (pending.length > 0) {
    const offset = pending.pop();
    if (kept.has(offset)) continue;
    kept.add(offset);
    pending.push(...nounPointers(synsets.get(offset), ['~', '~i']));
  }
  for (
    let offset = nounPointers(synsets.get(root), ['@'])[0];
    offset !== undefined;
    offset = nounPointers(synsets.get(offset), ['@'])[0]
  )
    kept.add(offset);
  const lines = [];
  for (const offset of kept) {
    const synset = synsets.get(offset);
    const subject = iri(offset);
    for (const hypernym of nounPointers(synset, ['@']))
      if (kept.has(hypernym)) lines.push(`${subject} <${SUBCLASS_OF}> ${iri(hypernym)} .`);
    for (const type of nounPointers(synset, ['@i']))
      if (kept.has(type)) lines.push(`${subject} <${RDF_TYPE}> ${iri(type)} .`);
    synset.words.forEach((word, index) => {
      if (index === 0) lines.push(`${subject} <${PREF_LABEL}> ${literal(word)} .`);
      lines.push(`${subject} <${LABEL}> ${literal(word)} .`);
    });
    if (synset.gloss !== '') lines.push(`${subject} <${COMMENT}> ${literal(synset.gloss)} .`);
  }
  return { text: `${lines.join('\n')}\n`, triples: lines.length, synsets: kept.size };
}
