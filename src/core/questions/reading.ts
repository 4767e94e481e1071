import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { MAX_GOAL_TEXT_CHARS } from '#core/names.ts';
import type { ChosenSymbol } from '#core/records/goal.ts';
import type { Problem, Result } from '#core/result.ts';
import type { Reading, TypedPattern, TypedQuery } from './reading-schema.ts';
import { displayName } from './answer-view.ts';
import { listReading } from './list-reading.ts';
import { type Built, MentionedQuestion, Unanswerable } from './mentioned-question.ts';
import { scriptOf, vocabularyOf } from './vocabulary.ts';
import { labelWords, lemmaVariants, type Word, wordsOf } from './words.ts';
import { yesNoReading } from './yes-no-reading.ts';

/** Linking verbs and words a question joins things with, placed by the relation the graph links them by. */
const LINKING_WORDS = new Set(
  (
    'use employ utilize adopt accept pay spend trade speak talk write say own hold contain include carry get take feature run circulate ' +
    'official officially legal tender current currently main primary national natively native also still'
  ).split(' '),
);
/** Words that set amounts against each other ("the most languages", "more moons than"). */
const AMOUNT_COMPARISONS = new Set(['most', 'least', 'fewest', 'more', 'less', 'fewer']);
/** Words that ask for kinds rather than individuals. */
const KIND_WORDS = new Set([
  'kind',
  'type',
  'sort',
  'species',
  'breed',
  'variety',
  'subclass',
  'subtype',
  'category',
  'class',
  'form',
]);

/**
 * Reads a question with the graph's own names, no model: finds the longest runs of words that
 * name an entity or a relation, tells the question's form by its first words (how many, is/does,
 * what is, what do... have in common, anything else lists), and joins the named symbols into a
 * typed query. A question it cannot read faithfully gets a reason instead of a query; bad input
 * (empty, too long, no words, a script the graph does not use) is refused, naming the place.
 */
export function readQuestion(
  graph: KnowledgeGraph,
  question: string,
  chosen: readonly ChosenSymbol[] = [],
): Result<Reading> {
  const problem = (message: string): Result<Reading> => ({
    ok: false,
    error: [{ path: 'question', message } satisfies Problem],
  });
  const text = question.trim();
  if (text === '') return problem('the question is empty; ask something like "Which mammals can swim?"');
  if (text.length > MAX_GOAL_TEXT_CHARS)
    return problem(`the question has ${text.length} characters, at most ${MAX_GOAL_TEXT_CHARS}`);
  const words = wordsOf(text);
  if (words.length === 0) return problem('the question has no words, only signs or emoji');
  const vocabulary = vocabularyOf(graph);
  // An empty graph has no script yet: its goals wait for an import or an endpoint to answer them.
  const foreign =
    vocabulary.scripts.size === 0
      ? undefined
      : words.find((word) => {
          const script = scriptOf(word.text);
          return script !== undefined && !vocabulary.scripts.has(script);
        });
  if (foreign)
    return problem(
      `the question is written in ${scriptOf(foreign.text)} script (at character ${foreign.start + 1}, "${foreign.text}"), and this graph names its things in ${[...vocabulary.scripts].join(', ')}`,
    );
  return { ok: true, value: readMentioned(new MentionedQuestion(graph, vocabulary, text, words, chosen)) };
}

/** The entities a question's reading placed its words on (a stop word, "as", never names one). */
export function questionSymbols(
  graph: KnowledgeGraph,
  question: string,
  chosen: readonly ChosenSymbol[] = [],
): number[] {
  const reading = readQuestion(graph, question, chosen);
  if (!reading.ok) return [];
  return [...new Set(reading.value.matched.flatMap((match) => match.symbols.map((symbol) => symbol.symbol)))].filter(
    (id) => graph.symbol(id)?.kind === 'entity',
  );
}

/** The reading of a question whose words are placed: its query, or the reason it has none. */
function readMentioned(reader: MentionedQuestion): Reading {
  const form = formOf(reader);
  const base = {
    question: reader.question,
    matched: reader.mentions.map((mention) => ({
      words: mention.words,
      symbols: [...mention.entities, ...mention.relations].map((id) => reader.note(id)),
    })),
    readBy: 'words' as const,
    ...(reader.chosen.length > 0 ? { chosen: [...reader.chosen] } : {}),
  };
  const isLinking = (word: Word) => [word.lemma, ...lemmaVariants(word.lemma)].some((form) => LINKING_WORDS.has(form));
  const unplacedWords = (used: ReadonlySet<string> = new Set()) =>
    reader.loose.filter((word) => !isLinking(word) && !used.has(word.lemma)).map((word) => word.text);
  const refuse = (reason: string, extra: Partial<Reading> = {}): Reading => ({
    ...base,
    text: `not answerable: ${reason}`,
    unplaced: reader.loose.map((word) => word.text),
    reason,
    ...extra,
  });
  if (reader.mentions.length === 0) {
    const unknown = reader.loose.map((word) => `"${word.text}"`);
    return refuse(
      unknown.length > 0
        ? `this graph has no name for ${unknown.join(', ')}`
        : 'the question names nothing this graph knows',
    );
  }
  if (reader.negated) {
    const about = reader.mentions.map((mention) => mention.words).join(', ');
    return refuse(
      `nothing in this graph says what is not so (about ${about}): it records facts, not their absence, so a question with "not" cannot be answered from it`,
    );
  }
  // "Which country has the most languages": an amount set against others, which no single fact holds.
  const placed = (index: number) => reader.mentions.some((mention) => mention.start <= index && index < mention.end);
  const comparing = reader.words.find((word, index) => AMOUNT_COMPARISONS.has(word.lemma) && !placed(index));
  if (comparing)
    return refuse(
      `the question compares amounts ("${comparing.text}"), and this graph's facts say nothing of more or fewer`,
    );
  // "the euro or the Swiss franc": patterns hold together, so an "or" would be read as "and".
  const either = reader.words.find((word, index) => word.lemma === 'or' && !placed(index));
  if (either)
    return refuse(
      `the question asks for one thing or another ("${either.text}"), and a reading here can only ask for all of them together`,
    );
  let built: Built;
  try {
    built =
      form === 'describe'
        ? describeReading(reader)
        : form === 'common'
          ? commonReading(reader)
          : form === 'yes-no'
            ? yesNoReading(reader)
            : listReading(reader, form);
    // "How many planets": the planets, not the kinds of planet; "how many kinds of birds": the kinds.
    if (form === 'count' && !reader.lemmas.some((lemma) => KIND_WORDS.has(lemma)))
      built = { ...built, query: { ...built.query, individuals: true } };
  } catch (error) {
    if (!(error instanceof Unanswerable)) throw error;
    if (error.choices) return refuse(error.message, { choices: error.choices });
    // A word the graph has no name for ("bigger") is the reason, before what the other words could not join.
    const unknown = unplacedWords();
    if (unknown.length > 0)
      return refuse(`this graph has no name for ${unknown.map((word) => `"${word}"`).join(', ')}`, {
        unplaced: unknown,
      });
    return refuse(error.message);
  }
  const unplaced = unplacedWords(built.usedWords);
  if (unplaced.length > 0)
    return refuse(`this graph has no name for ${unplaced.map((word) => `"${word}"`).join(', ')}`, { unplaced });
  return { ...base, query: built.query, text: describeQuery(reader.graph, built.query), unplaced: [] };
}

function formOf(reader: MentionedQuestion): TypedQuery['form'] {
  const [first, second] = reader.lemmas;
  if (
    (first === 'how' && (second === 'many' || second === 'much')) ||
    (first === 'count' && reader.lemmas.length > 1) ||
    reader.lemmas.includes('number')
  )
    return 'count';
  if (reader.lemmas.includes('common') || (reader.lemmas.includes('share') && reader.entityMentions().length >= 2))
    return 'common';
  if (['be', 'do', 'can', 'have'].includes(first ?? '') && reader.words[0]!.text.toLowerCase() !== 'have')
    return 'yes-no';
  // "What kind of animal is a wombat": what the last thing named is.
  const kindOf = (first === 'what' || first === 'which') && KIND_WORDS.has(second ?? '') && reader.lemmas[2] === 'of';
  const verb = reader.lemmas.indexOf('be', 3);
  const last = reader.entityMentions().at(-1);
  if (kindOf && verb > 0 && last !== undefined && last.start > verb) return 'describe';
  const onlyOne = reader.mentions.length === 1 && reader.loose.length === 0;
  // "What is a dolphin", and asked within a sentence: "tell me what a dolphin is".
  const describes =
    ((first === 'what' || first === 'who') && second === 'be') ||
    (reader.lemmas.includes('what') && reader.lemmas.at(-1) === 'be');
  if (
    onlyOne &&
    (describes || first === 'describe' || first === 'define' || (first === 'tell' && reader.lemmas.includes('about')))
  )
    return 'describe';
  return 'list';
}

/** "What is a wombat": the classes of the last thing named, nearest first. */
function describeReading(reader: MentionedQuestion): Built {
  const mention = reader.entityMentions().at(-1) ?? reader.mentions[0]!;
  if (mention.entities.length === 0)
    throw new Unanswerable(`"${mention.words}" names a relation, not a thing to describe`);
  const subject = reader.resolve(mention, mention.entities, []);
  if (reader.ancestors(subject).size === 1) {
    const described = describedThing(reader, subject);
    if (described) return described;
  }
  return {
    query: {
      form: 'describe',
      find: 'class',
      patterns: [{ subject: { symbol: subject }, predicate: reader.isA(), object: { variable: 'class' }, chain: true }],
    },
  };
}

/**
 * "What is the largest planet" where the graph has LargestPlanet, of no class, as a property of
 * Jupiter: a name ending in a kind (planet) describes the thing of that kind that has it.
 */
function describedThing(reader: MentionedQuestion, property: number): Built | undefined {
  const words = labelWords(reader.label(property));
  const kinds = (reader.vocabulary.entities.get(words.at(-1) ?? '') ?? []).filter((id) => reader.isClass(id));
  if (words.length < 2 || kinds.length !== 1) return undefined;
  const members = reader.members(kinds[0]!);
  const incoming = reader
    .relationsAround(property)
    .filter(
      (entry) =>
        entry.isObject &&
        reader.graph
          .matchPositions(undefined, entry.relation, property)
          .some((position) => members.has(reader.graph.columns.subjects[position]!)),
    );
  if (incoming.length === 0) return undefined;
  const { relation } = reader.pickRelation(incoming, property);
  return {
    query: {
      form: 'list',
      find: 'x',
      patterns: [
        { subject: { variable: 'x' }, predicate: reader.isA(), object: { symbol: kinds[0]! }, chain: true },
        { subject: { variable: 'x' }, predicate: relation, object: { symbol: property } },
      ],
    },
  };
}

/** "What do cats and dogs have in common": the classes both are in. */
function commonReading(reader: MentionedQuestion): Built {
  const mentions = reader.entityMentions();
  if (mentions.length < 2)
    throw new Unanswerable('a question about what things have in common needs two things this graph knows');
  const [a, b] = mentions.slice(0, 2).map((mention) => reader.resolve(mention, mention.entities, mentions));
  const isA = reader.isA();
  return {
    query: {
      form: 'common',
      find: 'class',
      patterns: [
        { subject: { symbol: a! }, predicate: isA, object: { variable: 'class' }, chain: true },
        { subject: { symbol: b! }, predicate: isA, object: { variable: 'class' }, chain: true },
      ],
    },
  };
}

/** A typed query in plain words: "every ?x with ?x is-a Mammal (following is-a chains)". */
export function describeQuery(graph: KnowledgeGraph, query: TypedQuery): string {
  const name = (term: TypedPattern['subject']) =>
    'variable' in term ? `?${term.variable}` : displayName(graph, term.symbol);
  // A chained pattern follows every class relation (is-a, rdf:type, rdfs:subClassOf): it is said as is-a, whichever the graph uses.
  const predicateName = (pattern: TypedPattern) =>
    pattern.chain ? 'is-a' : (graph.symbol(pattern.predicate)?.label ?? `#${pattern.predicate}`);
  const patterns = query.patterns
    .map((pattern) => `${name(pattern.subject)} ${predicateName(pattern)} ${name(pattern.object)}`)
    .join(' . ');
  const chains = query.patterns.some((pattern) => pattern.chain) ? ' (following is-a chains)' : '';
  switch (query.form) {
    case 'list':
      return `every ?${query.find} with ${patterns}${chains}`;
    case 'count':
      return `how many ?${query.find} with ${patterns}${chains}`;
    case 'yes-no':
      return `whether ${patterns}${chains}`;
    case 'describe':
      return `what ${name(query.patterns[0]!.subject)} is: every ?${query.find} with ${patterns}${chains}, the nearest first`;
    case 'common':
      return `what ${query.patterns.map((pattern) => name(pattern.subject)).join(' and ')} have in common: every ?${query.find} with ${patterns}${chains}, the nearest first`;
  }
}
