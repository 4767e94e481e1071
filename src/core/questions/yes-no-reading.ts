import type { TypedQuery } from './reading-schema.ts';
import { type Built, type Mention, MentionedQuestion, Unanswerable } from './mentioned-question.ts';

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
  if (relationMention) {
    for (const subject of subjects)
      for (const object of objects)
        for (const relation of relationMention.relations) {
          if (reader.graph.positionOf(object, relation, subject) !== -1)
            return {
              query: {
                form: 'yes-no',
                patterns: [{ subject: { symbol: object }, predicate: relation, object: { symbol: subject } }],
              },
            };
          if (reader.graph.positionOf(subject, relation, object) !== -1)
            return {
              query: {
                form: 'yes-no',
                patterns: [{ subject: { symbol: subject }, predicate: relation, object: { symbol: object } }],
              },
            };
        }
    const subject = reader.resolve(subjectMention, subjects, reader.mentions);
    const object = reader.resolve(objectMention, objects, reader.mentions);
    const relation = relationMention.relations[0]!;
    // The way round the graph states this relation: "French official language of Switzerland" is stored Switzerland official-language French.
    const forward = reader.graph
      .positionsFrom(subject)
      .some((position) => reader.graph.columns.predicates[position] === relation);
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
  return {
    query: {
      form: 'yes-no',
      patterns: [{ subject: { symbol: subject }, predicate: around.relation, object: { symbol: object } }],
    },
    usedWords: reader.relationWords(around.relation),
  };
}

function isAQuery(subject: number, isA: number, object: number): TypedQuery {
  return {
    form: 'yes-no',
    patterns: [{ subject: { symbol: subject }, predicate: isA, object: { symbol: object }, chain: true }],
  };
}
