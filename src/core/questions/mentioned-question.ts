import type { KnowledgeGraph } from '#core/kg/graph.ts';
import type { ChosenSymbol } from '#core/records/goal.ts';
import { chosenFor } from './chosen-symbols.ts';
import type { Reading, TypedQuery } from './reading-schema.ts';
import { displayName } from './answer-view.ts';
import { MAX_PHRASE_WORDS, type Vocabulary } from './vocabulary.ts';
import { labelWords, lemmaVariants, NEGATIONS, QUESTION_WORDS, STOP_WORDS, type Word, wordsOf } from './words.ts';

// A question's words placed on the graph's symbols, and what the query builders ask of the graph about them.

/** A run of a question's words that names symbols: entities, relations, or both ("currency"). */
export type Mention = { words: string; start: number; end: number; entities: number[]; relations: number[] };

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

/** A question read word by word: the runs that name symbols (mentions) and the words that name none (loose). */
export class MentionedQuestion {
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
    /** The symbols the user chose for ambiguous words: taken over the reader's own guess. */
    readonly chosen: readonly ChosenSymbol[] = [],
  ) {
    this.lemmas = words.map((word) => word.lemma);
    this.negated = this.lemmas.some((lemma) => NEGATIONS.has(lemma));
    this.label = (id: number) => displayName(graph, id);
    this.#findMentions();
    this.#joinQualifiedNames();
  }

  /**
   * "The Japanese yen" where the graph calls it Yen: a name right before another, both single
   * things tied by a common neighbour (Japan speaks Japanese and uses the yen), is part of the
   * second's name, not a thing the answer must also be linked to.
   */
  #joinQualifiedNames() {
    for (let index = this.mentions.length - 2; index >= 0; index--) {
      const [qualifier, named] = [this.mentions[index]!, this.mentions[index + 1]!];
      const isSingleThing = (mention: Mention) =>
        mention.relations.length === 0 &&
        mention.entities.length > 0 &&
        !mention.entities.some((id) => this.isClass(id));
      if (
        qualifier.end !== named.start ||
        this.isPossessive(qualifier) ||
        !isSingleThing(qualifier) ||
        !isSingleThing(named)
      )
        continue;
      const around = qualifier.entities.flatMap((id) => [...this.#neighbours(id)]);
      const tied = named.entities.some((id) => {
        const neighbours = this.#neighbours(id);
        return around.some((other) => neighbours.has(other) || qualifier.entities.includes(other));
      });
      if (!tied) continue;
      this.mentions.splice(index, 2, { ...named, words: `${qualifier.words} ${named.words}`, start: qualifier.start });
    }
  }

  /** The things a symbol has a fact with, but for its names and classes. */
  #neighbours(id: number): Set<number> {
    const { subjects, objects, predicates } = this.graph.columns;
    const counts = (position: number) =>
      !this.vocabulary.nameRelations.has(predicates[position]!) &&
      !this.vocabulary.classRelations.includes(predicates[position]!);
    return new Set([
      ...this.graph
        .positionsFrom(id)
        .filter(counts)
        .map((position) => objects[position]!),
      ...this.graph
        .positionsTo(id)
        .filter(counts)
        .map((position) => subjects[position]!),
    ]);
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
        // A variant that is a stop word names nothing: "used" is "use", never "us" (the United States).
        const forms = [last, ...lemmaVariants(last).filter((variant) => !STOP_WORDS.has(variant))];
        for (const form of forms) {
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
        found ??= this.#chosenMention(span, start);
        if (found) found = this.#withChoice(found);
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

  /** A run the graph's names do not place, but for which the user chose a symbol. */
  #chosenMention(span: Word[], start: number): Mention | undefined {
    const words = span.map((word) => word.text).join(' ');
    const id = chosenFor(this.chosen, words);
    return id === undefined ? undefined : { words, start, end: start + span.length, entities: [], relations: [] };
  }

  /**
   * A mention narrowed to the symbol the user chose for its words. A relation chosen for a
   * thing's name ("Japan": by has-currency) leaves the name as it is and picks the relation (see pickRelation).
   */
  #withChoice(mention: Mention): Mention {
    const id = chosenFor(this.chosen, mention.words);
    const symbol = id === undefined ? undefined : this.graph.symbol(id);
    if (!symbol) return mention;
    const isCandidate = mention.entities.includes(symbol.id) || mention.relations.includes(symbol.id);
    if (!isCandidate && mention.entities.length + mention.relations.length > 0 && symbol.kind === 'relation')
      return mention;
    return symbol.kind === 'relation'
      ? { ...mention, entities: [], relations: [symbol.id] }
      : { ...mention, entities: [symbol.id], relations: [] };
  }

  /** Whether a mention's last word was written with "'s" ("Germany's"), which the words leave out. */
  isPossessive(mention: Mention): boolean {
    const last = this.words[mention.end - 1];
    return last !== undefined && /^['’]s/i.test(this.question.normalize('NFKC').slice(last.end));
  }

  entityMentions(): Mention[] {
    return this.mentions.filter((mention) => mention.entities.length > 0);
  }

  note(id: number) {
    const symbol = this.graph.symbol(id);
    return { symbol: id, label: displayName(this.graph, id), ...(symbol?.iri ? { iri: symbol.iri } : {}) };
  }

  /** The main "is a" relation: is-a where the graph has it, else the first of rdf:type and rdfs:subClassOf. */
  isA(): number {
    const isA = this.vocabulary.classRelations[0];
    if (isA === undefined)
      throw new Unanswerable('this graph has no is-a relation, so it says nothing about kinds of things');
    return isA;
  }

  isClass(id: number): boolean {
    const { predicates } = this.graph.columns;
    return this.graph
      .positionsTo(id)
      .some((position) => this.vocabulary.classRelations.includes(predicates[position]!));
  }

  /** The classes of a symbol, nearest first (its is-a chains). */
  ancestors(id: number): Set<number> {
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
  relatedness(candidate: number, others: readonly number[]): number {
    const ancestors = this.ancestors(candidate);
    let score = 0;
    for (const other of others) {
      if (ancestors.has(other) || this.ancestors(other).has(candidate)) score += 2;
      else if (
        this.graph.positionsFrom(candidate).some((position) => this.graph.columns.objects[position] === other) ||
        this.graph.positionsTo(candidate).some((position) => this.graph.columns.subjects[position] === other)
      )
        score += 1;
    }
    return score;
  }

  /** One symbol for a mention: the only one, or the one the question's other symbols tie it to; else the user chooses. */
  resolve(mention: Mention, candidates: readonly number[], others: readonly Mention[], wantClass = false): number {
    let pool = wantClass ? candidates.filter((id) => this.isClass(id)) : [...candidates];
    if (pool.length === 0) pool = [...candidates];
    if (pool.length === 1) return pool[0]!;
    const otherIds = others.filter((other) => other !== mention).flatMap((other) => [...other.entities]);
    const scored = pool.map((id) => ({ id, score: this.relatedness(id, otherIds) })).sort((a, b) => b.score - a.score);
    if (scored[0]!.score > scored[1]!.score) return scored[0]!.id;
    // Still even: the one the words name first ("cat" is the cat, for which "big cat" is only another name).
    const tied = scored.filter((entry) => entry.score === scored[0]!.score);
    const key = labelWords(mention.words).join(' ');
    const named = tied.filter((entry) => labelWords(this.label(entry.id)).join(' ') === key);
    if (named.length === 1) return named[0]!.id;
    throw new Unanswerable(`"${mention.words}" may mean ${pool.map((id) => this.label(id)).join(' or ')}; say which`, [
      { words: mention.words, symbols: pool.map((id) => this.note(id)) },
    ]);
  }

  /** Relations joining two symbols, either way, that are not names nor "is a". */
  relationsBetween(a: number, b: number): number[] {
    const found = new Set<number>();
    const { subjects, objects, predicates } = this.graph.columns;
    for (const position of this.graph.positionsFrom(a)) if (objects[position] === b) found.add(predicates[position]!);
    for (const position of this.graph.positionsTo(a)) if (subjects[position] === b) found.add(predicates[position]!);
    return [...found].filter((id) => !this.vocabulary.nameRelations.has(id));
  }

  /** Relations whose facts have this symbol as object (`in`) or subject (`out`), but for names and "is a". */
  relationsAround(id: number): { relation: number; isObject: boolean }[] {
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
  relationWords(relation: number): Set<string> {
    return new Set(wordsOf(this.label(relation).replace(/[_-]+/g, ' ')).map((word) => word.lemma));
  }

  /** Of the relations around a symbol, the one the question's loose words name, or the only one; else the user chooses. */
  pickRelation<T extends { relation: number }>(candidates: T[], about: number): T {
    const loose = new Set(this.loose.map((word) => word.lemma));
    const named = candidates.filter((candidate) =>
      [...this.relationWords(candidate.relation)].some((word) => loose.has(word)),
    );
    const chosen = candidates.filter((candidate) => this.chosen.some((choice) => choice.symbol === candidate.relation));
    const pool = chosen.length > 0 ? chosen : named.length > 0 ? named : candidates;
    const distinct = [...new Set(pool.map((candidate) => candidate.relation))];
    if (distinct.length === 1) return pool[0]!;
    if (distinct.length === 0)
      throw new Unanswerable(
        `nothing in this graph links ${this.label(about)} to anything by a relation the question could mean`,
      );
    throw new Unanswerable(
      `${this.label(about)} is linked by ${distinct.map((id) => this.label(id)).join(' and by ')}: which one does the question mean?`,
      [{ words: this.label(about), symbols: distinct.map((id) => this.note(id)) }],
    );
  }

  /** Everything a class has under it by is-a chains. */
  members(kind: number): Set<number> {
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
  hasAuxiliaryBefore(mention: Mention): boolean {
    return this.words.slice(0, mention.start).some((word) => word.lemma === 'do');
  }
}

/** A query and the loose words it accounts for (a relation's label words). */
export type Built = { query: TypedQuery; usedWords?: ReadonlySet<string> };

/** A question that cannot be read faithfully: the reason, and the meanings to choose from where a word has several. */
export class Unanswerable extends Error {
  constructor(
    message: string,
    readonly choices?: Reading['choices'],
  ) {
    super(message);
  }
}

function isCapitals(text: string): boolean {
  return text.length >= 2 && /^\p{Lu}+$/u.test(text);
}
