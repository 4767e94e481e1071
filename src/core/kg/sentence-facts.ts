/**
 * Symbolic extraction of facts from plain English text, without a language model: the simple
 * sentences "X is a Y", "X is a kind of Y", "Xs are Ys" (is-a) and "X has (a, two, ...) Y" (has).
 * Anything else is left alone; a model does better (the inference issue).
 */

/** A fact a sentence states, as labels, with the sentence it came from. */
export type SentenceFact = { subject: string; predicate: 'is-a' | 'has'; object: string; sentence: string };

const WORD = String.raw`[\p{L}\p{N}][\p{L}\p{N}'-]*`;
/** One to three words: "dog", "golden retriever", "olympus mons". */
const PHRASE = String.raw`(${WORD}(?:\s+${WORD}){0,2})`;
const ARTICLE = String.raw`(?:(?:a|an|the)\s+)?`;
const QUANTITY = String.raw`(?:(?:a|an|the|some|many|several|few|two|three|four|five|six|seven|eight|nine|ten|\d+)\s+)?`;

const PATTERNS: { predicate: SentenceFact['predicate']; pattern: RegExp; isPlural?: boolean }[] = [
  {
    predicate: 'is-a',
    pattern: new RegExp(
      String.raw`^${ARTICLE}${PHRASE}\s+(?:is|was)\s+(?:a|an|one)\s+(?:kind|type|sort|form)\s+of\s+${PHRASE}$`,
      'iu',
    ),
  },
  {
    predicate: 'is-a',
    pattern: new RegExp(String.raw`^${ARTICLE}${PHRASE}\s+(?:is|was)\s+(?:a|an)\s+${PHRASE}$`, 'iu'),
  },
  {
    predicate: 'is-a',
    pattern: new RegExp(
      String.raw`^(?:all\s+)?${PHRASE}\s+are\s+(?:(?:a\s+)?(?:kind|type|sort)s?\s+of\s+)?${PHRASE}$`,
      'iu',
    ),
    isPlural: true,
  },
  {
    predicate: 'has',
    pattern: new RegExp(String.raw`^${ARTICLE}${PHRASE}\s+(?:has|had)\s+${QUANTITY}${PHRASE}$`, 'iu'),
  },
  {
    predicate: 'has',
    pattern: new RegExp(String.raw`^${ARTICLE}${PHRASE}\s+have\s+${QUANTITY}${PHRASE}$`, 'iu'),
    isPlural: true,
  },
];

/** Words that stand for something said before: "it is a planet" names nothing. */
const PRONOUNS = new Set([
  'it',
  'this',
  'that',
  'these',
  'those',
  'there',
  'he',
  'she',
  'they',
  'we',
  'you',
  'i',
  'which',
  'who',
  'what',
  'one',
  'each',
  'everything',
  'something',
  'nothing',
]);

/** A phrase starting so says the opposite, or is a verb form: "are not birds", "has no moons", "has been sleeping". */
const NOT_A_THING = /^(?:not|no|never|none|neither|nor|been|being)\b/iu;

/** Words that look plural and are not (or are the same in both). */
const INVARIANT = new Set([
  'species',
  'series',
  'news',
  'physics',
  'mathematics',
  'gas',
  'lens',
  'chaos',
  'atlas',
  'canvas',
]);

/** "volcanoes" -> "volcano", "moons" -> "moon", "berries" -> "berry"; "species", "glass", "bus" stay. */
export function singular(word: string): string {
  const lower = word.toLowerCase();
  if (lower.length <= 3 || INVARIANT.has(lower) || /(?:ss|us|is)$/.test(lower)) return word;
  if (lower.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:sses|xes|zes|ches|shes|oes)$/.test(lower)) return word.slice(0, -2);
  if (lower.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** Words in the starter graph's label style: ["golden", "retriever"] -> "GoldenRetriever". */
const joined = (words: readonly string[]) => words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');

/**
 * A phrase as a symbol label: "golden retrievers" -> "GoldenRetriever". A plural's last word is
 * made singular; of the spellings English allows ("horses": Horse or Hors; "shoes": Shoe or Sho),
 * one the graph already knows wins.
 */
function labelOf(phrase: string, isPlural: boolean, isKnown: (label: string) => boolean): string {
  const words = phrase.split(/\s+/);
  if (!isPlural) return joined(words);
  const last = words.at(-1)!;
  const spellings = [
    singular(last),
    ...(last.toLowerCase().endsWith('es') ? [last.slice(0, -1), last.slice(0, -2)] : []),
  ].map((word) => joined([...words.slice(0, -1), word]));
  return spellings.find(isKnown) ?? spellings[0]!;
}

const LIST_MARKER = /^\s*(?:#+|[-*+]|\d+[.)])\s+/u;

/**
 * The sentences of a text: split at . ! ? ; and at line breaks that end a paragraph, a list item
 * or a heading; Markdown bullets and headings are stripped.
 */
export function sentencesOf(text: string): string[] {
  const blocks: string[] = [];
  let current = '';
  for (const line of text.split(/\r?\n/u)) {
    const isBlank = line.trim() === '';
    if (isBlank || LIST_MARKER.test(line)) {
      if (current !== '') blocks.push(current);
      current = isBlank ? '' : line.replace(LIST_MARKER, '');
    } else current = current === '' ? line : `${current} ${line}`;
  }
  if (current !== '') blocks.push(current);
  return blocks
    .flatMap((block) => block.split(/[.!?;]+(?=\s|$)/u))
    .map((sentence) => sentence.replace(/\s+/gu, ' ').trim())
    .filter((sentence) => sentence.length > 0);
}

/**
 * The facts the text's simple sentences state, in order, at most `limit`. `isKnown` says whether
 * the graph knows a label, to spell plurals as it does.
 */
export function factsOfText(
  text: string,
  options: { limit?: number; isKnown?: (label: string) => boolean } = {},
): SentenceFact[] {
  const { limit = 5000, isKnown = () => false } = options;
  const facts: SentenceFact[] = [];
  for (const sentence of sentencesOf(text)) {
    for (const { predicate, pattern, isPlural = false } of PATTERNS) {
      const match = pattern.exec(sentence);
      if (!match?.[1] || !match[2]) continue;
      if (
        PRONOUNS.has(match[1].toLowerCase()) ||
        PRONOUNS.has(match[2].toLowerCase()) ||
        NOT_A_THING.test(match[2]) ||
        NOT_A_THING.test(match[1])
      )
        break;
      // "Cats are cute": a plural subject needs a plural object to be a class, not a quality.
      if (isPlural && predicate === 'is-a' && !/s$/iu.test(match[2])) break;
      facts.push({
        subject: labelOf(match[1], isPlural, isKnown),
        predicate,
        object: labelOf(match[2], isPlural || predicate === 'has', isKnown),
        sentence,
      });
      break;
    }
    if (facts.length >= limit) break;
  }
  return facts;
}

/** The words of a text, lower-cased and made singular, for "does it mention the goal?". */
export function wordsOfText(text: string): Set<string> {
  return new Set(
    text
      .normalize('NFKC')
      .toLowerCase()
      .split(/[^\p{L}\p{N}-]+/u)
      .filter((word) => word.length > 1)
      .map(singular),
  );
}
