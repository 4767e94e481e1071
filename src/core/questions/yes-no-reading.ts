import type { TypedQuery } from './reading-schema.ts';
import { type Built, type Mention, MentionedQuestion, Unanswerable } from './mentioned-question.ts';
import { labelWords, STOP_WORDS } from './words.ts';

/** A yes-or-no question ("is a bat a mammal", "does Japan use the yen") as a query of one or two facts. */
export function yesNoReading(reader: MentionedQuestion): Built {
  const entityMentions = reader.entityMentions();
  if (entityMentions.length < 2)
    throw new Unanswerable(
      entityMentions.length === 0
        ? 'the question names no thing this graph knows'
        : `the question names only "${entityMentions[0]!.words}" of what this graph knows; a yes or no needs two things`,
    );
  const [first, second] = entityMentions.slice(-2) as [Mention, Mention];
  // "Is the yen Germany's currency": the last word names the relation, said of the thing before it.
  if (entityMentions.length > 2 && second.relations.length > 0 && reader.isPossessive(first))
    return namedRelationReading(reader, second, entityMentions[0]!, first, true);
  const subjectMention = entityMentions.length > 2 ? entityMentions[0]! : first;
  const objectMention = second;
  // A word between the two things that names a relation: "is the Swiss franc the currency of Switzerland" has-currency.
  const relationMention = reader.mentions.find(
    (mention) => mention.relations.length > 0 && mention !== subjectMention && mention !== objectMention,
  );
  const isA = reader.isA();
  // An ambiguous word takes the meaning that makes the question's symbols meet ("bat" the animal, asked about mammals).
  const subjects = subjectMention.entities;
  const objects = objectMention.entities;
  if (relationMention) return namedRelationReading(reader, relationMention, subjectMention, objectMention);
  // "Is German spoken in France and Switzerland": a yes or no here joins two things, not three.
  if (entityMentions.length > 2)
    throw new Unanswerable(
      `the question names ${entityMentions.map((mention) => mention.words).join(', ')}: a yes or no can be asked of two things at a time`,
    );
  // "Is X a Y", "are X Y": a question of kinds, answered by is-a chains alone; but "is the euro
  // used in Germany" names no kind, so it asks how the two are linked, as "does Germany use the euro".
  const asksKind = reader.lemmas[0] === 'be' && objects.some((id) => reader.isClass(id));
  for (const subject of asksKind ? [] : subjects)
    for (const object of objects) {
      const direct = reader
        .relationsBetween(subject, object)
        .filter((id) => !reader.vocabulary.classRelations.includes(id));
      if (direct.length > 0) {
        const relation = direct[0]!;
        const forward = reader.graph.positionOf(subject, relation, object) !== -1;
        return {
          query: {
            form: 'yes-no',
            patterns: [
              forward
                ? { subject: { symbol: subject }, predicate: relation, object: { symbol: object } }
                : { subject: { symbol: object }, predicate: relation, object: { symbol: subject } },
            ],
          },
          usedWords: reader.relationWords(relation),
        };
      }
    }
  const classObjects = objects.filter((id) => reader.isClass(id));
  for (const subject of subjects)
    for (const object of classObjects)
      if (reader.ancestors(subject).has(object)) return { query: isAQuery(subject, isA, object) };
  if (classObjects.length > 0) {
    const subject = reader.resolve(subjectMention, subjects, reader.mentions);
    return { query: isAQuery(subject, isA, reader.resolve(objectMention, classObjects, reader.mentions)) };
  }
  // Not a class: the relations other things have to it, and whether the subject or one of its classes has it.
  let object = reader.resolve(objectMention, objects, reader.mentions);
  let subject = reader.resolve(subjectMention, subjects, reader.mentions);
  let incoming = reader.relationsAround(object).filter((entry) => entry.isObject);
  // Said the other way round ("is the euro used in Switzerland"): the thing the graph states facts of is the subject.
  const reversed = reader.relationsAround(subject).filter((entry) => entry.isObject);
  if (incoming.length === 0 && reversed.length > 0) {
    [subject, object] = [object, subject];
    incoming = reversed;
  }
  const around = reader.pickRelation(incoming, object);
  for (const ancestor of reader.ancestors(subject))
    if (ancestor !== subject && reader.graph.positionOf(ancestor, around.relation, object) !== -1)
      return {
        query: {
          form: 'yes-no',
          patterns: [
            isAQuery(subject, isA, ancestor).patterns[0]!,
            { subject: { symbol: ancestor }, predicate: around.relation, object: { symbol: object } },
          ],
        },
        usedWords: reader.relationWords(around.relation),
      };
  const narrower = unsaidQualifiers(reader, around.relation, object);
  if (narrower.length > 0 && reader.graph.positionOf(subject, around.relation, object) === -1)
    throw new Unanswerable(
      `the relation this graph has here is ${reader.label(around.relation)}, narrower than the question (which does not say ${narrower.map((word) => `"${word}"`).join(', ')}), so it cannot say no of ${reader.label(subject)}`,
    );
  return {
    query: {
      form: 'yes-no',
      patterns: [{ subject: { symbol: subject }, predicate: around.relation, object: { symbol: object } }],
    },
    usedWords: reader.relationWords(around.relation),
  };
}

/**
 * The words of a relation's name that narrow it beyond what the question says: "official" of
 * official-language, asked "is Spanish spoken in the United States". A language that is not
 * official may still be spoken, so the graph's silence is no "no". A word naming the value's
 * class (currency, for the euro) or a bare "have" narrows nothing.
 */
function unsaidQualifiers(reader: MentionedQuestion, relation: number, value: number): string[] {
  const said = new Set(reader.lemmas);
  const classWords = new Set([...reader.ancestors(value)].flatMap((id) => labelWords(reader.label(id))));
  return labelWords(reader.label(relation)).filter(
    (word) => !said.has(word) && !classWords.has(word) && !STOP_WORDS.has(word),
  );
}

function isAQuery(subject: number, isA: number, object: number): TypedQuery {
  return {
    form: 'yes-no',
    patterns: [{ subject: { symbol: subject }, predicate: isA, object: { symbol: object }, chain: true }],
  };
}

/** Words after a relation's noun that say it of the second thing: "the currency of Switzerland" (but "live in the ocean"). */
const OF_WORDS = new Set(['of', 'in', 'for', 'at', 'on']);

/**
 * A yes or no about a relation the question names between two things. Between them, its words
 * say the way round: "is Ganymede larger than Mercury" Ganymede larger-than Mercury, but "is the
 * Swiss franc the currency of Switzerland" and "is Mars orbited by Phobos" turn it round. A fact stated the
 * other way round is no proof: Ganymede larger than Mercury does not make Mercury larger.
 */
function namedRelationReading(
  reader: MentionedQuestion,
  relationMention: Mention,
  subjectMention: Mention,
  objectMention: Mention,
  possessive = false,
): Built {
  const between =
    possessive || (relationMention.start > subjectMention.start && relationMention.end <= objectMention.start);
  // "the currency used in France": a participle between the noun and "in" is passed over.
  const next = reader.words[relationMention.end];
  const participle = next !== undefined && /(?:ed|en)$/.test(next.text.toLowerCase());
  const after = reader.words[relationMention.end + (participle ? 1 : 0)]?.lemma ?? '';
  const isNoun = ['a', 'an', 'the'].includes(reader.words[relationMention.start - 1]?.lemma ?? '');
  // "Is Mars orbited by Phobos": the passive names the relation's subject last.
  const reversed = possessive || after === 'by' || (isNoun && OF_WORDS.has(after));
  const fact = (subject: number, relation: number, object: number): Built => ({
    query: {
      form: 'yes-no',
      patterns: [{ subject: { symbol: subject }, predicate: relation, object: { symbol: object } }],
    },
  });
  const ordered = (subject: number, object: number): [number, number] =>
    reversed ? [object, subject] : [subject, object];
  // An ambiguous word takes the meaning that makes the question's symbols meet.
  for (const subject of subjectMention.entities)
    for (const object of objectMention.entities)
      for (const relation of relationMention.relations) {
        const [from, to] = ordered(subject, object);
        if (reader.graph.positionOf(from, relation, to) !== -1) return fact(from, relation, to);
        if (!between && reader.graph.positionOf(to, relation, from) !== -1) return fact(to, relation, from);
      }
  const subject = reader.resolve(subjectMention, subjectMention.entities, reader.mentions);
  const object = reader.resolve(objectMention, objectMention.entities, reader.mentions);
  const relation = relationMention.relations[0]!;
  if (between) {
    const [from, to] = ordered(subject, object);
    return fact(from, relation, to);
  }
  // Named elsewhere: the way round the graph states this relation of the subject.
  const forward = reader.graph
    .positionsFrom(subject)
    .some((position) => reader.graph.columns.predicates[position] === relation);
  return forward ? fact(subject, relation, object) : fact(object, relation, subject);
}
