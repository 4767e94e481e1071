import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { MAX_GOAL_TEXT_CHARS } from '#core/names.ts';
import type { Problem, Result } from '#core/result.ts';
import type { Reading, TypedPattern, TypedQuery } from './reading-schema.ts';
import { displayName } from './answer-view.ts';
import { MAX_PHRASE_WORDS, scriptOf, type Vocabulary, vocabularyOf } from './vocabulary.ts';
import { labelWords, lemmaVariants, NEGATIONS, QUESTION_WORDS, STOP_WORDS, type Word, wordsOf } from './words.ts';

/** A run of a question's words that names symbols: entities, relations, or both ("currency"). */
type Mention = { words: string; start: number; end: number; entities: number[]; relations: number[] };

/** Linking verbs and words a question joins things with, placed by the relation the graph links them by. */
const LINKING_WORDS = new Set(
  (
    'use employ utilize adopt accept pay spend trade speak talk write say own hold contain include carry get take feature run circulate ' +
    'official officially legal tender current currently main primary national natively native also still'
  ).split(' '),
);
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
/** Words that ask for every member, which any list question may hold. */
const FILLER_WORDS = new Set([
  'graph',
  'database',
  'data',
  'species',
  'variety',
  'category',
  'class',
  'subclass',
  'subtype',
  'breed',
  'group',
  'exist',
  'existing',
  'known',
  'different',
  'various',
  'me',
  'us',
]);

/**
 * Reads a question with the graph's own names, no model: finds the longest runs of words that
 * name an entity or a relation, tells the question's form by its first words (how many, is/does,
 * what is, what do... have in common, anything else lists), and joins the named symbols into a
 * typed query. A question it cannot read faithfully gets a reason instead of a query; bad input
 * (empty, too long, no words, a script the graph does not use) is refused, naming the place.
 */
export function readQuestion(graph: KnowledgeGraph, question: string): Result<Reading> {
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
  return { ok: true, value: new Reader(graph, vocabulary, text, words).read() };
}

/** The entities a question's reading placed its words on (a stop word, "as", never names one). */
export function questionSymbols(graph: KnowledgeGraph, question: string): number[] {
  const reading = readQuestion(graph, question);
  if (!reading.ok) return [];
  return [...new Set(reading.value.matched.flatMap((match) => match.symbols.map((symbol) => symbol.symbol)))].filter(
    (id) => graph.symbol(id)?.kind === 'entity',
  );
}

class Reader {
  readonly mentions: Mention[] = [];
  readonly loose: Word[] = [];
  readonly negated: boolean;
  readonly lemmas: string[];
  readonly label: (id: number) => string;

  constructor(
    readonly graph: KnowledgeGraph,
    readonly vocabulary: Vocabulary,
    readonly question: string,
    readonly words: Word[],
  ) {
    this.lemmas = words.map((word) => word.lemma);
    this.negated = this.lemmas.some((lemma) => NEGATIONS.has(lemma));
    this.label = (id: number) => displayName(graph, id);
    this.#findMentions();
  }

  #findMentions() {
    const { words, vocabulary } = this;
    const isStop = (word: Word) => STOP_WORDS.has(word.lemma) && !isCapitals(word.text);
    for (let start = 0; start < words.length;) {
      let found: Mention | undefined;
      for (let length = Math.min(MAX_PHRASE_WORDS, words.length - start); length >= 1 && !found; length--) {
        const span = words.slice(start, start + length);
        if (isStop(span[span.length - 1]!) || (isStop(span[0]!) && length === 1)) continue;
        const relationsOnly = isStop(span[0]!);
        const head = span.slice(0, -1).map((word) => word.lemma);
        const last = span[span.length - 1]!.lemma;
        for (const form of [last, ...lemmaVariants(last)]) {
          const key = [...head, form].join(' ');
          // A run that starts with a stop word names only a relation ("have moons" has-moon).
          const entities = relationsOnly ? [] : (vocabulary.entities.get(key) ?? []);
          const relations = (vocabulary.relations.get(key) ?? []).filter(
            (id) => !vocabulary.classRelations.includes(id) && !vocabulary.nameRelations.has(id),
          );
          if (entities.length > 0 || relations.length > 0) {
            found = { words: span.map((word) => word.text).join(' '), start, end: start + length, entities, relations };
            break;
          }
        }
      }
      if (found) {
        this.mentions.push(found);
        start = found.end;
      } else {
        const word = words[start]!;
        if (
          !isStop(word) &&
          !NEGATIONS.has(word.lemma) &&
          !QUESTION_WORDS.has(word.lemma) &&
          !FILLER_WORDS.has(word.lemma)
        )
          this.loose.push(word);
        start++;
      }
    }
  }

  read(): Reading {
    const form = this.#form();
    const base = {
      question: this.question,
      matched: this.mentions.map((mention) => ({
        words: mention.words,
        symbols: [...mention.entities, ...mention.relations].map((id) => this.#note(id)),
      })),
      readBy: 'words' as const,
    };
    const isLinking = (word: Word) =>
      [word.lemma, ...lemmaVariants(word.lemma)].some((form) => LINKING_WORDS.has(form));
    const unplacedWords = (used: ReadonlySet<string> = new Set()) =>
      this.loose.filter((word) => !isLinking(word) && !used.has(word.lemma)).map((word) => word.text);
    const refuse = (reason: string, extra: Partial<Reading> = {}): Reading => ({
      ...base,
      text: `not answerable: ${reason}`,
      unplaced: this.loose.map((word) => word.text),
      reason,
      ...extra,
    });
    if (this.mentions.length === 0) {
      const unknown = this.loose.map((word) => `"${word.text}"`);
      return refuse(
        unknown.length > 0
          ? `this graph has no name for ${unknown.join(', ')}`
          : 'the question names nothing this graph knows',
      );
    }
    if (this.negated) {
      const about = this.mentions.map((mention) => mention.words).join(', ');
      return refuse(
        `nothing in this graph says what is not so (about ${about}): it records facts, not their absence, so a question with "not" cannot be answered from it`,
      );
    }
    let built: Built;
    try {
      built =
        form === 'describe'
          ? this.#describe()
          : form === 'common'
            ? this.#common()
            : form === 'yes-no'
              ? this.#yesNo()
              : this.#list(form);
      // "How many planets": the planets, not the kinds of planet; "how many kinds of birds": the kinds.
      if (form === 'count' && !this.lemmas.some((lemma) => KIND_WORDS.has(lemma)))
        built = { ...built, query: { ...built.query, individuals: true } };
    } catch (error) {
      if (error instanceof Unanswerable) return refuse(error.message, error.choices ? { choices: error.choices } : {});
      throw error;
    }
    const unplaced = unplacedWords(built.usedWords);
    if (unplaced.length > 0)
      return refuse(`this graph has no name for ${unplaced.map((word) => `"${word}"`).join(', ')}`, { unplaced });
    return { ...base, query: built.query, text: describeQuery(this.graph, built.query), unplaced: [] };
  }

  #form(): TypedQuery['form'] {
    const [first, second] = this.lemmas;
    if (
      (first === 'how' && (second === 'many' || second === 'much')) ||
      (first === 'count' && this.lemmas.length > 1) ||
      this.lemmas.includes('number')
    )
      return 'count';
    if (this.lemmas.includes('common') || (this.lemmas.includes('share') && this.#entityMentions().length >= 2))
      return 'common';
    if (['be', 'do', 'can', 'have'].includes(first ?? '') && this.words[0]!.text.toLowerCase() !== 'have')
      return 'yes-no';
    // "What kind of animal is a wombat": what the last thing named is.
    const kindOf = (first === 'what' || first === 'which') && KIND_WORDS.has(second ?? '') && this.lemmas[2] === 'of';
    const verb = this.lemmas.indexOf('be', 3);
    const last = this.#entityMentions().at(-1);
    if (kindOf && verb > 0 && last !== undefined && last.start > verb) return 'describe';
    const onlyOne = this.mentions.length === 1 && this.loose.length === 0;
    const describes = (first === 'what' || first === 'who') && second === 'be';
    if (
      onlyOne &&
      (describes || first === 'describe' || first === 'define' || (first === 'tell' && this.lemmas.includes('about')))
    )
      return 'describe';
    return 'list';
  }

  #entityMentions(): Mention[] {
    return this.mentions.filter((mention) => mention.entities.length > 0);
  }

  #note(id: number) {
    const symbol = this.graph.symbol(id);
    return { symbol: id, label: displayName(this.graph, id), ...(symbol?.iri ? { iri: symbol.iri } : {}) };
  }

  /** The main "is a" relation: is-a where the graph has it, else the first of rdf:type and rdfs:subClassOf. */
  #isA(): number {
    const isA = this.vocabulary.classRelations[0];
    if (isA === undefined)
      throw new Unanswerable('this graph has no is-a relation, so it says nothing about kinds of things');
    return isA;
  }

  #isClass(id: number): boolean {
    const { predicates } = this.graph.columns;
    return this.graph
      .positionsTo(id)
      .some((position) => this.vocabulary.classRelations.includes(predicates[position]!));
  }

  /** The classes of a symbol, nearest first (its is-a chains). */
  #ancestors(id: number): Set<number> {
    const seen = new Set([id]);
    let frontier = [id];
    while (frontier.length > 0) {
      const next: number[] = [];
      for (const node of frontier)
        for (const position of this.graph.positionsFrom(node)) {
          if (!this.vocabulary.classRelations.includes(this.graph.columns.predicates[position]!)) continue;
          const parent = this.graph.columns.objects[position]!;
          if (!seen.has(parent)) {
            seen.add(parent);
            next.push(parent);
          }
        }
      frontier = next;
    }
    return seen;
  }

  /** How closely a candidate is tied to the question's other symbols: an is-a chain either way, or a fact between them. */
  #relatedness(candidate: number, others: readonly number[]): number {
    const ancestors = this.#ancestors(candidate);
    let score = 0;
    for (const other of others) {
      if (ancestors.has(other) || this.#ancestors(other).has(candidate)) score += 2;
      else if (
        this.graph.positionsFrom(candidate).some((position) => this.graph.columns.objects[position] === other) ||
        this.graph.positionsTo(candidate).some((position) => this.graph.columns.subjects[position] === other)
      )
        score += 1;
    }
    return score;
  }

  /** One symbol for a mention: the only one, or the one the question's other symbols tie it to; else the user chooses. */
  #resolve(mention: Mention, candidates: readonly number[], others: readonly Mention[], wantClass = false): number {
    let pool = wantClass ? candidates.filter((id) => this.#isClass(id)) : [...candidates];
    if (pool.length === 0) pool = [...candidates];
    if (pool.length === 1) return pool[0]!;
    const otherIds = others.filter((other) => other !== mention).flatMap((other) => [...other.entities]);
    const scored = pool.map((id) => ({ id, score: this.#relatedness(id, otherIds) })).sort((a, b) => b.score - a.score);
    if (scored[0]!.score > scored[1]!.score) return scored[0]!.id;
    // Still even: the one the words name first ("cat" is the cat, for which "big cat" is only another name).
    const tied = scored.filter((entry) => entry.score === scored[0]!.score);
    const key = labelWords(mention.words).join(' ');
    const named = tied.filter((entry) => labelWords(this.label(entry.id)).join(' ') === key);
    if (named.length === 1) return named[0]!.id;
    throw new Unanswerable(`"${mention.words}" may mean ${pool.map((id) => this.label(id)).join(' or ')}; say which`, [
      { words: mention.words, symbols: pool.map((id) => this.#note(id)) },
    ]);
  }

  #describe(): Built {
    const mention = this.#entityMentions().at(-1) ?? this.mentions[0]!;
    if (mention.entities.length === 0)
      throw new Unanswerable(`"${mention.words}" names a relation, not a thing to describe`);
    const subject = this.#resolve(mention, mention.entities, []);
    return {
      query: {
        form: 'describe',
        find: 'class',
        patterns: [
          { subject: { symbol: subject }, predicate: this.#isA(), object: { variable: 'class' }, chain: true },
        ],
      },
    };
  }

  #common(): Built {
    const mentions = this.#entityMentions();
    if (mentions.length < 2)
      throw new Unanswerable('a question about what things have in common needs two things this graph knows');
    const [a, b] = mentions.slice(0, 2).map((mention) => this.#resolve(mention, mention.entities, mentions));
    const isA = this.#isA();
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

  /** Relations joining two symbols, either way, that are not names nor "is a". */
  #relationsBetween(a: number, b: number): number[] {
    const found = new Set<number>();
    const { subjects, objects, predicates } = this.graph.columns;
    for (const position of this.graph.positionsFrom(a)) if (objects[position] === b) found.add(predicates[position]!);
    for (const position of this.graph.positionsTo(a)) if (subjects[position] === b) found.add(predicates[position]!);
    return [...found].filter((id) => !this.vocabulary.nameRelations.has(id));
  }

  /** Relations whose facts have this symbol as object (`in`) or subject (`out`), but for names and "is a". */
  #relationsAround(id: number): { relation: number; isObject: boolean }[] {
    const found = new Map<string, { relation: number; isObject: boolean }>();
    const { predicates } = this.graph.columns;
    const skip = (relation: number) =>
      this.vocabulary.nameRelations.has(relation) || this.vocabulary.classRelations.includes(relation);
    for (const position of this.graph.positionsTo(id))
      if (!skip(predicates[position]!))
        found.set(`${predicates[position]} in`, { relation: predicates[position]!, isObject: true });
    for (const position of this.graph.positionsFrom(id))
      if (!skip(predicates[position]!))
        found.set(`${predicates[position]} out`, { relation: predicates[position]!, isObject: false });
    return [...found.values()];
  }

  /** The words of a relation's label, as lemmas: the question's loose words they account for. */
  #relationWords(relation: number): Set<string> {
    return new Set(wordsOf(this.label(relation).replace(/[_-]+/g, ' ')).map((word) => word.lemma));
  }

  #yesNo(): Built {
    const entityMentions = this.#entityMentions();
    if (entityMentions.length < 2)
      throw new Unanswerable(
        entityMentions.length === 0
          ? 'the question names no thing this graph knows'
          : `the question names only "${entityMentions[0]!.words}" of what this graph knows; a yes or no needs two things`,
      );
    const relationMention = this.mentions.find(
      (mention) => mention.relations.length > 0 && !entityMentions.slice(0, 2).includes(mention),
    );
    const [first, second] = entityMentions.slice(-2) as [Mention, Mention];
    const subjectMention = entityMentions.length > 2 ? entityMentions[0]! : first;
    const objectMention = second;
    const isA = this.#isA();
    // An ambiguous word takes the meaning that makes the question's symbols meet ("bat" the animal, asked about mammals).
    const subjects = subjectMention.entities;
    const objects = objectMention.entities;
    if (relationMention) {
      for (const subject of subjects)
        for (const object of objects)
          for (const relation of relationMention.relations) {
            if (this.graph.positionOf(object, relation, subject) !== -1)
              return {
                query: {
                  form: 'yes-no',
                  patterns: [{ subject: { symbol: object }, predicate: relation, object: { symbol: subject } }],
                },
              };
            if (this.graph.positionOf(subject, relation, object) !== -1)
              return {
                query: {
                  form: 'yes-no',
                  patterns: [{ subject: { symbol: subject }, predicate: relation, object: { symbol: object } }],
                },
              };
          }
      const subject = this.#resolve(subjectMention, subjects, this.mentions);
      const object = this.#resolve(objectMention, objects, this.mentions);
      const relation = relationMention.relations[0]!;
      // The way round the graph states this relation: "French official language of Switzerland" is stored Switzerland official-language French.
      const forward = this.graph
        .positionsFrom(subject)
        .some((position) => this.graph.columns.predicates[position] === relation);
      return {
        query: {
          form: 'yes-no',
          patterns: [
            forward
              ? { subject: { symbol: subject }, predicate: relation, object: { symbol: object } }
              : { subject: { symbol: object }, predicate: relation, object: { symbol: subject } },
          ],
        },
      };
    }
    // "Is X a Y", "are X Y": a question of kinds, answered by is-a chains alone.
    const asksKind = this.lemmas[0] === 'be';
    for (const subject of asksKind ? [] : subjects)
      for (const object of objects) {
        const direct = this.#relationsBetween(subject, object).filter(
          (id) => !this.vocabulary.classRelations.includes(id),
        );
        if (direct.length > 0) {
          const relation = direct[0]!;
          const forward = this.graph.positionOf(subject, relation, object) !== -1;
          return {
            query: {
              form: 'yes-no',
              patterns: [
                forward
                  ? { subject: { symbol: subject }, predicate: relation, object: { symbol: object } }
                  : { subject: { symbol: object }, predicate: relation, object: { symbol: subject } },
              ],
            },
            usedWords: this.#relationWords(relation),
          };
        }
      }
    const classObjects = objects.filter((id) => this.#isClass(id));
    for (const subject of subjects)
      for (const object of classObjects)
        if (this.#ancestors(subject).has(object)) return { query: isAQuery(subject, isA, object) };
    if (classObjects.length > 0 || asksKind) {
      if (classObjects.length === 0)
        throw new Unanswerable(
          `nothing in this graph is a kind of ${objectMention.words}, so it cannot say what is one`,
        );
      const subject = this.#resolve(subjectMention, subjects, this.mentions);
      return { query: isAQuery(subject, isA, this.#resolve(objectMention, classObjects, this.mentions)) };
    }
    // Not a class: the relations other things have to it, and whether the subject or one of its classes has it.
    const object = this.#resolve(objectMention, objects, this.mentions);
    const subject = this.#resolve(subjectMention, subjects, this.mentions);
    const around = this.#pickRelation(
      this.#relationsAround(object).filter((entry) => entry.isObject),
      object,
    );
    for (const ancestor of this.#ancestors(subject))
      if (ancestor !== subject && this.graph.positionOf(ancestor, around.relation, object) !== -1)
        return {
          query: {
            form: 'yes-no',
            patterns: [
              isAQuery(subject, isA, ancestor).patterns[0]!,
              { subject: { symbol: ancestor }, predicate: around.relation, object: { symbol: object } },
            ],
          },
          usedWords: this.#relationWords(around.relation),
        };
    return {
      query: {
        form: 'yes-no',
        patterns: [{ subject: { symbol: subject }, predicate: around.relation, object: { symbol: object } }],
      },
      usedWords: this.#relationWords(around.relation),
    };
  }

  /** Of the relations around a symbol, the one the question's loose words name, or the only one; else the user chooses. */
  #pickRelation<T extends { relation: number }>(candidates: T[], about: number): T {
    const loose = new Set(this.loose.map((word) => word.lemma));
    const named = candidates.filter((candidate) =>
      [...this.#relationWords(candidate.relation)].some((word) => loose.has(word)),
    );
    const pool = named.length > 0 ? named : candidates;
    const distinct = [...new Set(pool.map((candidate) => candidate.relation))];
    if (distinct.length === 1) return pool[0]!;
    if (distinct.length === 0)
      throw new Unanswerable(
        `nothing in this graph links ${this.label(about)} to anything by a relation the question could mean`,
      );
    throw new Unanswerable(
      `${this.label(about)} is linked by ${distinct.map((id) => this.label(id)).join(' and by ')}: which one does the question mean?`,
      [{ words: this.label(about), symbols: distinct.map((id) => this.#note(id)) }],
    );
  }

  #list(form: 'list' | 'count'): Built {
    const entityMentions = this.#entityMentions();
    const relationMentions = this.mentions.filter((mention) => mention.relations.length > 0);
    const isA = this.vocabulary.classRelations[0];
    const patterns: TypedPattern[] = [];
    const usedWords = new Set<string>();
    const x = { variable: 'x' };
    // A lookup: a relation the question names, about a thing it names ("the currency of Japan", "countries that have the euro as currency").
    for (const relationMention of relationMentions) {
      const things = entityMentions.filter((mention) => mention !== relationMention);
      for (const thing of things) {
        for (const relation of relationMention.relations) {
          for (const id of thing.entities) {
            const asSubject = this.graph.matchPositions(id, relation, undefined).length > 0;
            const asObject = this.graph.matchPositions(undefined, relation, id).length > 0;
            if (!asSubject && !asObject) continue;
            // Both ways stated: the word order decides ("what orbits the Sun" ?x orbits Sun; "what does the Sun orbit" Sun orbits ?x).
            const subjectFirst =
              asSubject && (!asObject || thing.start < relationMention.start || this.#hasAuxiliaryBefore(thing));
            patterns.push(
              subjectFirst
                ? { subject: { symbol: id }, predicate: relation, object: x }
                : { subject: x, predicate: relation, object: { symbol: id } },
            );
            const typeMention = entityMentions.find(
              (mention) =>
                mention !== thing &&
                mention !== relationMention &&
                mention.entities.some((candidate) => this.#isClass(candidate)),
            );
            if (typeMention && isA !== undefined)
              patterns.push({
                subject: x,
                predicate: isA,
                object: { symbol: this.#resolve(typeMention, typeMention.entities, this.mentions, true) },
                chain: true,
              });
            return { query: { form, find: 'x', patterns } };
          }
        }
      }
    }
    // Stated of its classes: "what does a whale eat" may be said of cetaceans.
    for (const relationMention of relationMentions)
      for (const thing of entityMentions.filter((mention) => mention !== relationMention))
        for (const relation of relationMention.relations)
          for (const id of thing.entities)
            for (const ancestor of this.#ancestors(id)) {
              if (ancestor === id || this.graph.matchPositions(ancestor, relation, undefined).length === 0) continue;
              return {
                query: {
                  form,
                  find: 'x',
                  patterns: [
                    { subject: { symbol: id }, predicate: isA!, object: { symbol: ancestor }, chain: true },
                    { subject: { symbol: ancestor }, predicate: relation, object: x },
                  ],
                },
              };
            }
    // The kind asked for: the first thing named that has kinds ("mammals", "countries").
    const typeMention = entityMentions.find((mention) => mention.entities.some((id) => this.#isClass(id)));
    const named = relationMentions.filter((mention) => mention.entities.length === 0);
    if (named.length > 0 && (!typeMention || entityMentions.length > 1)) {
      const things = entityMentions.filter((mention) => mention !== typeMention).map((mention) => mention.words);
      throw new Unanswerable(
        `this graph has no fact of ${named.map((mention) => `"${mention.words}"`).join(', ')} about ${things.join(', ') || 'what the question names'}`,
      );
    }
    if (typeMention && named.length > 0 && isA !== undefined) {
      const kind = this.#resolve(typeMention, typeMention.entities, this.mentions, true);
      if (this.lemmas[0] === 'where' || this.#hasAuxiliaryBefore(typeMention)) {
        // "What do whales eat", "where do penguins live": the values, for the kind and every kind of it.
        const relation = named[0]!.relations[0]!;
        return {
          query: {
            form,
            find: 'x',
            patterns: [
              { subject: { variable: 'kind' }, predicate: isA, object: { symbol: kind }, chain: true, orSelf: true },
              { subject: { variable: 'kind' }, predicate: relation, object: x },
            ],
          },
        };
      }
      // "Which planets have moons": those with any value of the relation.
      patterns.push({ subject: x, predicate: isA, object: { symbol: kind }, chain: true });
      for (const [index, mention] of named.entries())
        patterns.push({ subject: x, predicate: mention.relations[0]!, object: { variable: `value${index + 1}` } });
      return { query: { form, find: 'x', patterns } };
    }
    if (!typeMention) {
      if (entityMentions.length === 0)
        throw new Unanswerable(
          `the question names the relation ${relationMentions.map((mention) => `"${mention.words}"`).join(', ')} but no thing this graph knows to ask it about`,
        );
      const thing = entityMentions[0]!;
      const id = this.#resolve(thing, thing.entities, this.mentions);
      const around = this.#pickRelation(this.#relationsAround(id), id);
      for (const word of this.#relationWords(around.relation)) usedWords.add(word);
      patterns.push(
        around.isObject
          ? { subject: x, predicate: around.relation, object: { symbol: id } }
          : { subject: { symbol: id }, predicate: around.relation, object: x },
      );
      return { query: { form, find: 'x', patterns }, usedWords };
    }
    if (isA === undefined)
      throw new Unanswerable('this graph has no is-a relation, so it says nothing about kinds of things');
    const others = entityMentions.filter((mention) => mention !== typeMention);
    const kind = this.#resolve(typeMention, typeMention.entities, others, true);
    patterns.push({ subject: x, predicate: isA, object: { symbol: kind }, chain: true });
    for (const other of others) {
      const id = this.#resolve(other, other.entities, this.mentions);
      if (this.#isClass(id) && this.#relationsAround(id).filter((entry) => entry.isObject).length === 0) {
        patterns.push({ subject: x, predicate: isA, object: { symbol: id }, chain: true });
        continue;
      }
      // Only the relations that reach the kind asked for: Panama's currencies, not its languages.
      const members = this.#members(kind);
      const around = this.#pickRelation(
        this.#relationsAround(id).filter((entry) =>
          this.graph
            .matchPositions(entry.isObject ? undefined : id, entry.relation, entry.isObject ? id : undefined)
            .some((position) =>
              members.has(
                entry.isObject ? this.graph.columns.subjects[position]! : this.graph.columns.objects[position]!,
              ),
            ),
        ),
        id,
      );
      for (const word of this.#relationWords(around.relation)) usedWords.add(word);
      patterns.push(
        around.isObject
          ? { subject: x, predicate: around.relation, object: { symbol: id } }
          : { subject: { symbol: id }, predicate: around.relation, object: x },
      );
    }
    return { query: { form, find: 'x', patterns }, usedWords };
  }

  /** Everything a class has under it by is-a chains. */
  #members(kind: number): Set<number> {
    const members = new Set<number>();
    let frontier = [kind];
    while (frontier.length > 0) {
      const next: number[] = [];
      for (const node of frontier)
        for (const position of this.graph.positionsTo(node)) {
          if (!this.vocabulary.classRelations.includes(this.graph.columns.predicates[position]!)) continue;
          const member = this.graph.columns.subjects[position]!;
          if (!members.has(member)) {
            members.add(member);
            next.push(member);
          }
        }
      frontier = next;
    }
    return members;
  }

  /** Whether "do/does/did" comes before a mention: "what currency does Japan use" asks Japan's. */
  #hasAuxiliaryBefore(mention: Mention): boolean {
    return this.words.slice(0, mention.start).some((word) => word.lemma === 'do');
  }
}

type Built = { query: TypedQuery; usedWords?: ReadonlySet<string> };

class Unanswerable extends Error {
  constructor(
    message: string,
    readonly choices?: Reading['choices'],
  ) {
    super(message);
  }
}

function isAQuery(subject: number, isA: number, object: number): TypedQuery {
  return {
    form: 'yes-no',
    patterns: [{ subject: { symbol: subject }, predicate: isA, object: { symbol: object }, chain: true }],
  };
}

function isCapitals(text: string): boolean {
  return text.length >= 2 && /^\p{Lu}+$/u.test(text);
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
