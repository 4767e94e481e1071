/**
 * Words of questions and labels, and the one lemma rule both sides share: a question's "mammals"
 * finds the label "Mammal" because both become "mammal". Written by hand rather than taken from
 * compromise or wink-nlp: every label of a graph goes through the same rule when the label index
 * is built (200,000 labels at a million triples), which those libraries would take minutes over,
 * and a lemma that differs between the question and the index finds nothing.
 */

/** A word of a text: as written (for capitals), and its lemma. */
export type Word = { text: string; lemma: string; start: number; end: number };

const WORD = /[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu;

/** Words whose "'s" is "is" ("what's a platypus"), not a possessive. */
const CONTRACTED_IS = new Set(['what', 'who', 'where', 'which', 'how', 'that', 'it', 'there', 'here', 'he', 'she']);

/** The words of a text in order; a possessive "'s" is dropped ("Jupiter's" is Jupiter), "what's" is "what is". */
export function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  for (const match of text.normalize('NFKC').matchAll(WORD)) {
    let word = match[0];
    let end = match.index + word.length;
    const lower = word.toLowerCase();
    if (/['’]s$/.test(lower)) {
      word = word.slice(0, -2);
      end -= 2;
    }
    // "what's", "it's": the "'s" is "is", a word of its own.
    if (/['’]s$/.test(lower) && CONTRACTED_IS.has(word.toLowerCase())) {
      words.push({ text: word, lemma: lemmaOf(word), start: match.index, end });
      words.push({ text: 'is', lemma: 'be', start: end, end: end + 2 });
      continue;
    }
    // "can't", "doesn't": the negation is a word of its own.
    const negated = /^(.+)n['’]t$/i.exec(word);
    if (negated) {
      const base =
        negated[1]!.toLowerCase() === 'ca' ? 'can' : negated[1]!.toLowerCase() === 'wo' ? 'will' : negated[1]!;
      words.push({ text: base, lemma: lemmaOf(base), start: match.index, end: end - 3 });
      words.push({ text: 'not', lemma: 'not', start: end - 3, end });
      continue;
    }
    words.push({ text: word, lemma: lemmaOf(word), start: match.index, end });
  }
  return words;
}

/** A label's words, with camel case split ("DomesticAnimal", "has-currency"), a parenthesis and a leading "the" left out. */
export function labelWords(label: string): string[] {
  const plain = label
    .replace(/\s*\([^)]*\)\s*/g, ' ')
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/[_-]+/g, ' ');
  const words = wordsOf(plain).map((word) => word.lemma);
  return words.length > 1 && words[0] === 'the' ? words.slice(1) : words;
}

const IRREGULAR: Record<string, string> = {
  children: 'child',
  people: 'person',
  mice: 'mouse',
  geese: 'goose',
  teeth: 'tooth',
  feet: 'foot',
  men: 'man',
  women: 'woman',
  oxen: 'ox',
  wolves: 'wolf',
  leaves: 'leaf',
  knives: 'knife',
  wives: 'wife',
  halves: 'half',
  calves: 'calf',
  shelves: 'shelf',
  lives: 'live',
  fungi: 'fungus',
  cacti: 'cactus',
  octopi: 'octopus',
  larvae: 'larva',
  phyla: 'phylum',
  genera: 'genus',
  criteria: 'criterion',
  is: 'be',
  are: 'be',
  was: 'be',
  were: 'be',
  been: 'be',
  has: 'have',
  had: 'have',
  having: 'have',
  being: 'be',
  doing: 'do',
  does: 'do',
  did: 'do',
  done: 'do',
  spoken: 'speak',
  spoke: 'speak',
  ate: 'eat',
  eaten: 'eat',
  flew: 'fly',
  flown: 'fly',
  flies: 'fly',
  swam: 'swim',
  swum: 'swim',
  found: 'find',
  got: 'get',
  gotten: 'get',
  made: 'make',
  began: 'begin',
  begun: 'begin',
  grew: 'grow',
  grown: 'grow',
  bore: 'bear',
  born: 'bear',
  kinds: 'kind',
  bus: 'bus',
  gas: 'gas',
  species: 'species',
  series: 'series',
  news: 'news',
};

/**
 * The lemma of a word, lower-cased: plurals made singular and the third person made plain
 * ("countries" country, "uses" use, "boxes" box), past and -ing forms of regular verbs made plain
 * ("used" use, "using" use). Short words, codes and names ending in -ss, -us, -is stay as they are.
 */
export function lemmaOf(word: string): string {
  const lower = word.toLowerCase().replaceAll('’', "'");
  const irregular = IRREGULAR[lower];
  if (irregular) return irregular;
  if (lower.length <= 3 || /\d/.test(lower)) return lower;
  if (lower.endsWith('ies') && lower.length > 4) return `${lower.slice(0, -3)}y`;
  if (/(?:ss|[^aeiou]us|is|ous)$/.test(lower)) return lower;
  if (/(?:sses|ches|shes|xes|zes)$/.test(lower)) return lower.slice(0, -2);
  if (/[^aeiou]oes$/.test(lower)) return lower.slice(0, -2);
  if (lower.endsWith('s') && !lower.endsWith('ss')) return lower.slice(0, -1);
  return lower;
}

/**
 * Other forms a question's word may take in a label, tried after its lemma: a past or -ing
 * form's stem ("spoken" is irregular; "used" use, "living" live).
 */
export function lemmaVariants(lemma: string): string[] {
  const variants: string[] = [];
  const stemOf = (stem: string) => {
    variants.push(`${stem}e`, stem);
    // A doubled last consonant is the verb's once: "running" run, "stopped" stop.
    if (/([^aeiouls])\1$/.test(stem)) variants.push(stem.slice(0, -1));
  };
  if (lemma.length > 3 && lemma.endsWith('ed')) stemOf(lemma.slice(0, -2));
  // "using" (five letters) is "use": a stem of two letters is still a verb's.
  if (lemma.length > 4 && lemma.endsWith('ing')) stemOf(lemma.slice(0, -3));
  // British spelling: "colour" finds has-color.
  if (lemma.length > 5 && lemma.endsWith('our')) variants.push(`${lemma.slice(0, -3)}or`);
  return variants;
}

/**
 * Words that never name a symbol on their own (an "as" is never the code AS): articles,
 * pronouns, prepositions, auxiliaries and the words that shape a question. Written in capitals
 * ("US", "IT") a word is a name again.
 */
export const STOP_WORDS = new Set(
  (
    'a an the of in on at to for by with as from into onto about than then also too very just only ' +
    'and or nor but if so not no yes ' +
    'be do have can could would should will shall may might must ' +
    'what which who whom whose how where when why there here ' +
    'i me my we us our you your he him his she her it its they them their this that these those ' +
    'all every each any some many much more most few several both either neither other another ' +
    'find list name show give tell count describe explain please let know want need ' +
    'kind sort type thing one ones'
  ).split(' '),
);

/** Words that deny: a question with one is about what is not so, which a graph of facts does not record. */
export const NEGATIONS = new Set([
  'not',
  'never',
  'without',
  'except',
  'cannot',
  'none',
  'neither',
  'nor',
  'unlike',
  'lack',
  'lacking',
]);

/** Words a question is shaped by, which name nothing in a graph (besides the stop words). */
export const QUESTION_WORDS = new Set([
  'common',
  'share',
  'exist',
  'belong',
  'call',
  'same',
  'together',
  'between',
  'known',
  'example',
  'member',
  'instance',
  'kind',
  'total',
  'number',
  'altogether',
]);
