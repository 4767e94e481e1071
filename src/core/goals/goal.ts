import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { parseQuery, type TriplePattern } from '#core/kg/query.ts';
import type { Problem, Result } from '#core/result.ts';
import { type RequestedChange, requestedChangesOf } from '#core/kg/requested-change.ts';
import { singular } from '#core/kg/sentence-facts.ts';
import { looksLikeQuestion } from '#core/questions/question-form.ts';
import type { ChosenSymbol, Goal } from '#core/records/goal.ts';

export const DEFAULT_STALL_THRESHOLD = 5;

/**
 * A goal is abandoned once it has gone this many times its stall threshold of its own cycles
 * without progress. At 1x reflection demotes and re-plans it (and criteria that split are split),
 * at 2x it suggests a split by hand; by 3x every remedy had its turn, and going on would only
 * repeat them (15 cycles at the default threshold of 5).
 */
export const ABANDON_STALL_FACTOR = 3;

/** Why an active goal is abandoned for stalling, if it has stalled that long. */
export function stalledTooLong(
  goal: Pick<Goal, 'status' | 'cyclesWorked' | 'lastProgressCycle' | 'stallThreshold'>,
): string | undefined {
  const stagnantFor = goal.cyclesWorked - goal.lastProgressCycle;
  if (goal.status !== 'active' || stagnantFor < ABANDON_STALL_FACTOR * goal.stallThreshold) return undefined;
  return `no progress in ${stagnantFor} of its cycles (${ABANDON_STALL_FACTOR} times its stall threshold of ${goal.stallThreshold}): demoted and re-planned, it still found nothing new`;
}
export const DEFAULT_PRIORITY = 128;

/**
 * Success criteria, read: keywords to find, patterns that must have at least `minCount` answers,
 * changes to the graph the goal asks for (met when the graph is as asked), or a question in plain
 * words (met when the graph answers it; read anew each cycle, as the graph grows). `keywords` are
 * the description's, for the tools that look for words.
 */
export type Criteria =
  | { kind: 'keywords'; keywords: string[] }
  | {
      kind: 'question';
      question: string;
      keywords: string[];
      chosen?: readonly ChosenSymbol[];
      /** How many answers the goal asks for ("Find 400 kinds of bird"); absent: any answer. */
      minCount?: number;
    }
  | { kind: 'pattern'; patterns: TriplePattern[]; minCount: number; text: string }
  | { kind: 'changes'; changes: RequestedChange[]; keywords: string[] };

/** A request for a number of things: "Find 400 kinds of bird", "List at least 5 mammals", "Name 3 planets". */
const COUNTED_REQUEST =
  /^(?:please\s+)?(?:find|list|name|give(?:\s+me)?|show(?:\s+me)?)\s+(?:at\s+least\s+)?(?<count>\d{1,7})\s+(?<things>[^.?!]*\p{L}[^.?!]*?)[.!]?$/iu;

/**
 * A goal to learn about one thing: "Learn about Mars", "Explore the Milky Way", "Find out about
 * bats", "Find everything about Germany" (with "everything", "all" or "anything", "about" is needed:
 * "Find all mammals" lists mammals).
 */
const LEARNING_GOAL =
  /^(?:please\s+)?(?:(?:learn|explore|research|study|read|discover|find\s+out|know(?:\s+more)?)(?:\s+(?:more\s+)?about)?|(?:find|tell\s+me|show\s+me|learn)\s+(?:everything|all|anything)(?:\s+you\s+can)?\s+about)\s+(?<topic>[^.?!]*[\p{L}\p{N}][^.?!]*?)[.!]?$/iu;

const PATTERN_CRITERIA = /^(?<pattern>.*\?[\p{L}\p{N}_-]+.*?)(?:\s*,\s*at least\s+(?<count>\d+))?\s*$/iu;

/**
 * Reads success criteria. A text with a `?variable` is a pattern, optionally followed by
 * `, at least N` (default 1); anything else gives keywords: its words longer than 3 letters,
 * lower-cased. Empty criteria fall back to the changes the description asks for ("Remember that
 * Tux is a penguin"), else to the question it asks ("Which birds can swim?"), else to its keywords. `isKnown` spells plurals as the graph does.
 */
export function parseCriteria(
  criteria: string,
  description: string,
  isKnown?: (label: string) => boolean,
): Result<Criteria> {
  const match = PATTERN_CRITERIA.exec(criteria.trim());
  if (match?.groups?.pattern) {
    const parsed = parseQuery(match.groups.pattern);
    if (!parsed.ok)
      return {
        ok: false,
        error: parsed.error.map((problem): Problem => ({
          ...problem,
          path: `criteria${problem.path ? ` ${problem.path}` : ''}`,
        })),
      };
    const minCount = match.groups.count === undefined ? 1 : Number(match.groups.count);
    if (minCount < 1)
      return { ok: false, error: [{ path: 'criteria', message: '"at least" needs a count of 1 or more' }] };
    return {
      ok: true,
      value: { kind: 'pattern', patterns: parsed.value, minCount, text: match.groups.pattern.trim() },
    };
  }
  if (criteria.trim() === '') {
    const changes = requestedChangesOf(description, isKnown);
    if (changes) return { ok: true, value: { kind: 'changes', changes, keywords: keywordsOf(description) } };
    // "Find 400 kinds of bird": the graph is asked which, and the goal needs that many answers.
    const counted = COUNTED_REQUEST.exec(description.normalize('NFKC').trim())?.groups;
    // "Find 7 things about horses" asks for facts, not for things of a kind.
    if (counted?.count !== undefined && Number(counted.count) >= 1 && !/\babout\b/i.test(counted.things!))
      return {
        ok: true,
        value: {
          kind: 'question',
          question: `Which ${counted.things!.trim()}?`,
          minCount: Number(counted.count),
          keywords: keywordsOf(description),
        },
      };
    const question = questionOfDescription(description);
    if (question !== undefined)
      return { ok: true, value: { kind: 'question', question, keywords: keywordsOf(description) } };
  }
  const keywords = keywordsOf(criteria.trim() === '' ? description : criteria);
  if (keywords.length === 0)
    return {
      ok: false,
      error: [
        {
          path: 'criteria',
          message:
            'no words longer than 3 letters to look for; give keywords or a pattern like "?x is-a mammal, at least 5"',
        },
      ],
    };
  return { ok: true, value: { kind: 'keywords', keywords } };
}

/**
 * The question a goal's description asks, if it asks one. A question is answered, not matched
 * word for word: "Find all mammals" is met by every mammal, not by the word. "Learn about Mars"
 * asks what Mars is: answered by the graph (its classes), or failed with the reason.
 */
export function questionOfDescription(description: string): string | undefined {
  // First: "Find everything about Germany" starts as a question does, but asks what Germany is.
  const topic = LEARNING_GOAL.exec(description.normalize('NFKC').trim())?.groups?.topic;
  if (topic !== undefined) return `Tell me about ${topic.trim()}`;
  return looksLikeQuestion(description) ? description.trim() : undefined;
}

/**
 * A stored goal's criteria as the cycle and its write-up read them: with the graph's own names
 * (plurals as the graph spells them). Criteria were checked when the goal was added; a goal
 * stored by an older version that no longer reads falls back to its description's words.
 */
export function criteriaOfGoal(
  goal: Pick<Goal, 'successCriteria' | 'description' | 'chosenSymbols'>,
  graph: KnowledgeGraph,
): Criteria {
  const parsed = parseCriteria(
    goal.successCriteria,
    goal.description,
    (label) => graph.symbolByLabel(label) !== undefined,
  );
  if (!parsed.ok) return { kind: 'keywords', keywords: keywordsOf(goal.description) };
  // A question is read with the symbols the user chose for its ambiguous words.
  return parsed.value.kind === 'question' && goal.chosenSymbols?.length
    ? { ...parsed.value, chosen: goal.chosenSymbols }
    : parsed.value;
}

/** Words longer than 3 letters, lower-cased, without repeats (the seed's keyword rule). */
export function keywordsOf(text: string): string[] {
  return [
    ...new Set(
      text
        .normalize('NFKC')
        .toLowerCase()
        .split(/[^\p{L}\p{N}-]+/u)
        .filter((word) => word.length > 3),
    ),
  ];
}

/**
 * Which of a keyword goal's keywords the texts hold; met when every one does. Whole words only,
 * and a keyword that names the goal's own subject (a word of its description) proves nothing:
 * every fact about Mars says "Mars".
 */
export function matchKeywords(
  goal: Pick<Goal, 'description'>,
  criteriaKeywords: readonly string[],
  texts: readonly string[],
): { keywords: readonly string[]; matched: string[]; isMet: boolean } {
  const ownNames = new Set(keywordsOf(goal.description));
  const wanted = criteriaKeywords.filter((keyword) => !ownNames.has(keyword));
  const keywords = wanted.length > 0 ? wanted : criteriaKeywords;
  // Singular on both sides: "volcano" is found in "volcanoes".
  const words = texts.map(singularWordsOf);
  const matched = keywords.filter((keyword) => words.some((set) => set.has(singular(keyword))));
  // Every keyword, not half: a goal is done when what it asked for is there, not when some of its words are.
  return { keywords, matched, isMet: matched.length === keywords.length };
}

/** The words of a text as keywords are looked for in it: NFKC, lower-cased, split at anything but letters, digits and hyphens. */
export const keywordTextWords = lastOfLongTexts((text): ReadonlySet<string> => new Set(splitKeywordText(text)));

/** The singulars of a text's {@link keywordTextWords}. */
const singularWordsOf = lastOfLongTexts((text): ReadonlySet<string> => new Set(splitKeywordText(text).map(singular)));

function splitKeywordText(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u);
}

/** Texts shorter than this are read again each time: keeping them would cost more than it saves. */
const LONG_TEXT = 1_000;
/** Long texts whose reading is kept: a cycle reads its goal's findings, and the plan's lookup, again and again. */
const LONG_TEXTS_KEPT = 3;

/** `read`, with what it made of the last long texts kept (a goal's findings, unchanged, are read every cycle). */
function lastOfLongTexts<T>(read: (text: string) => T): (text: string) => T {
  const kept = new Map<string, T>();
  return (text) => {
    if (text.length < LONG_TEXT) return read(text);
    let value = kept.get(text);
    if (value === undefined) {
      value = read(text);
      if (kept.size >= LONG_TEXTS_KEPT) kept.delete(kept.keys().next().value!);
      kept.set(text, value);
    }
    return value;
  };
}

/** Facts as ids, each fact its subject, predicate and object. */
type FactsOfIds = readonly (readonly [number, number, number])[];

/** Lists of facts shorter than this get their text made again each time (see {@link factsText}). */
const LONG_FACTS = 64;
/** The last long lists of facts read, by graph, and their texts. */
const factsTexts = new WeakMap<KnowledgeGraph, { ids: number[]; text: string }[]>();

/**
 * Facts as the words of their labels, for keyword matching: each symbol once, as findings repeat
 * the goal's own symbols (2,000 findings "X is-a C5" name C5 2,000 times). A goal's findings are
 * read every cycle, mostly unchanged: the texts of the last long lists are kept, as a symbol's
 * label never changes (a graph only gains symbols); a list naming an unknown symbol is not kept.
 */
export function factsText(graph: KnowledgeGraph, facts: FactsOfIds): string {
  if (facts.length < LONG_FACTS) return textOfFacts(graph, facts).text;
  const kept = factsTexts.get(graph) ?? [];
  const found = kept.find((entry) => isSameFacts(entry.ids, facts));
  if (found) return found.text;
  const { text, namesAll } = textOfFacts(graph, facts);
  if (namesAll) factsTexts.set(graph, [{ ids: facts.flat(), text }, ...kept].slice(0, LONG_TEXTS_KEPT));
  return text;
}

/** Whether facts are those of a flat list of ids, in the same order. */
export function isSameFacts(ids: readonly number[], facts: FactsOfIds): boolean {
  if (ids.length !== facts.length * 3) return false;
  for (let index = 0; index < facts.length; index++) {
    const [subject, predicate, object] = facts[index]!;
    if (ids[3 * index] !== subject || ids[3 * index + 1] !== predicate || ids[3 * index + 2] !== object) return false;
  }
  return true;
}

/** The text of facts, and whether the graph knows every symbol they name. */
function textOfFacts(graph: KnowledgeGraph, facts: FactsOfIds): { text: string; namesAll: boolean } {
  const symbols = new Set<number>();
  for (const fact of facts) for (const id of fact) symbols.add(id);
  let namesAll = true;
  const labels = [...symbols].map((id) => {
    const symbol = graph.symbol(id);
    if (symbol === undefined) namesAll = false;
    return symbol?.label ?? '';
  });
  return { text: labels.join(' '), namesAll };
}

/**
 * The symbols a goal is about: the constants of its criteria pattern, and every entity named by
 * a word of its description or criteria (a plural "mammals" also tries "mammal").
 */
export function goalSymbols(
  graph: KnowledgeGraph,
  goal: Pick<Goal, 'description' | 'successCriteria'>,
  criteria: Criteria,
): number[] {
  const found = new Set<number>();
  // A question's symbols are those its reading placed (questionSymbols, in ../questions/): its words alone would make "as" the code AS.
  if (criteria.kind === 'question') return [];
  if (criteria.kind === 'pattern') {
    for (const pattern of criteria.patterns)
      for (const term of pattern)
        if (term.type === 'label')
          for (const symbol of graph.symbolsNamed(term.value)) if (symbol.kind === 'entity') found.add(symbol.id);
  }
  const words = `${goal.description} ${criteria.kind === 'keywords' ? goal.successCriteria : ''}`
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}_-]+/u);
  for (const word of words) {
    // Two letters can be a name (Io, C5); one letter is too vague.
    if (word.length < 2) continue;
    const candidates = [word, ...(word.toLowerCase().endsWith('s') ? [word.slice(0, -1)] : [])];
    for (const candidate of candidates)
      for (const symbol of graph.symbolsNamed(candidate)) if (symbol.kind === 'entity') found.add(symbol.id);
  }
  return [...found];
}
