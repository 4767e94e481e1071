import type { TypedPattern } from './reading-schema.ts';
import { type Built, type Mention, MentionedQuestion, Unanswerable } from './mentioned-question.ts';

/** A question that lists or counts ("which planets have moons", "how many mammals swim") as a query for ?x. */
export function listReading(reader: MentionedQuestion, form: 'list' | 'count'): Built {
  const entityMentions = reader.entityMentions();
  const relationMentions = reader.mentions.filter((mention) => mention.relations.length > 0);
  const isA = reader.vocabulary.classRelations[0];
  const patterns: TypedPattern[] = [];
  const usedWords = new Set<string>();
  const x = { variable: 'x' };
  // A lookup: a relation the question names, about a thing it names ("the currency of Japan", "countries that have the euro as currency").
  for (const relationMention of relationMentions) {
    const things = entityMentions.filter((mention) => mention !== relationMention);
    for (const thing of things) {
      for (const relation of relationMention.relations) {
        for (const id of thing.entities) {
          const asSubject = reader.graph.matchPositions(id, relation, undefined).length > 0;
          const asObject = reader.graph.matchPositions(undefined, relation, id).length > 0;
          if (!asSubject && !asObject) continue;
          // Both ways stated: the word order decides ("what orbits the Sun" ?x orbits Sun; "what does the Sun orbit" Sun orbits ?x).
          const subjectFirst =
            asSubject && (!asObject || thing.start < relationMention.start || reader.hasAuxiliaryBefore(thing));
          patterns.push(
            subjectFirst
              ? { subject: { symbol: id }, predicate: relation, object: x }
              : { subject: x, predicate: relation, object: { symbol: id } },
          );
          const typeMention = entityMentions.find(
            (mention) =>
              mention !== thing &&
              mention !== relationMention &&
              mention.entities.some((candidate) => reader.isClass(candidate)),
          );
          if (typeMention && isA !== undefined)
            patterns.push({
              subject: x,
              predicate: isA,
              object: { symbol: reader.resolve(typeMention, typeMention.entities, reader.mentions, true) },
              chain: true,
            });
          // "countries that use the euro and have German as an official language": the euro too.
          const rest = entityMentions.filter(
            (mention) => mention !== thing && mention !== typeMention && mention !== relationMention,
          );
          if (rest.length > 0) {
            if (!typeMention || isA === undefined)
              throw new Unanswerable(
                `the question also names ${rest.map((mention) => mention.words).join(', ')}, which this reading could not join to the rest`,
              );
            const kind = reader.resolve(typeMention, typeMention.entities, reader.mentions, true);
            for (const other of rest) patterns.push(constraintOf(reader, other, kind, usedWords));
          }
          return { query: { form, find: 'x', patterns }, usedWords };
        }
      }
    }
  }
  // Stated of its classes: "what does a whale eat" may be said of cetaceans.
  for (const relationMention of relationMentions)
    for (const thing of entityMentions.filter((mention) => mention !== relationMention))
      for (const relation of relationMention.relations)
        for (const id of thing.entities)
          for (const ancestor of reader.ancestors(id)) {
            if (ancestor === id || reader.graph.matchPositions(ancestor, relation, undefined).length === 0) continue;
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
  const typeMention = entityMentions.find((mention) => mention.entities.some((id) => reader.isClass(id)));
  const named = relationMentions.filter((mention) => mention.entities.length === 0);
  if (named.length > 0 && (!typeMention || entityMentions.length > 1)) {
    const things = entityMentions.filter((mention) => mention !== typeMention).map((mention) => mention.words);
    throw new Unanswerable(
      `this graph has no fact of ${named.map((mention) => `"${mention.words}"`).join(', ')} about ${things.join(', ') || 'what the question names'}`,
    );
  }
  if (typeMention && named.length > 0 && isA !== undefined) {
    const kind = reader.resolve(typeMention, typeMention.entities, reader.mentions, true);
    if (reader.lemmas[0] === 'where' || reader.hasAuxiliaryBefore(typeMention)) {
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
    const id = reader.resolve(thing, thing.entities, reader.mentions);
    const around = reader.pickRelation(reader.relationsAround(id), id);
    for (const word of reader.relationWords(around.relation)) usedWords.add(word);
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
  const kind = reader.resolve(typeMention, typeMention.entities, others, true);
  patterns.push({ subject: x, predicate: isA, object: { symbol: kind }, chain: true });
  for (const other of others) patterns.push(constraintOf(reader, other, kind, usedWords));
  return { query: { form, find: 'x', patterns }, usedWords };
}

/** What another thing named asks of ?x, a member of the kind: a class it is in, or the relation that reaches it. */
function constraintOf(reader: MentionedQuestion, other: Mention, kind: number, usedWords: Set<string>): TypedPattern {
  const x = { variable: 'x' };
  const id = reader.resolve(other, other.entities, reader.mentions);
  if (reader.isClass(id) && reader.relationsAround(id).filter((entry) => entry.isObject).length === 0)
    return { subject: x, predicate: reader.isA(), object: { symbol: id }, chain: true };
  // Only the relations that reach the kind asked for: Panama's currencies, not its languages.
  const members = reader.members(kind);
  const around = reader.pickRelation(
    reader
      .relationsAround(id)
      .filter((entry) =>
        reader.graph
          .matchPositions(entry.isObject ? undefined : id, entry.relation, entry.isObject ? id : undefined)
          .some((position) =>
            members.has(
              entry.isObject ? reader.graph.columns.subjects[position]! : reader.graph.columns.objects[position]!,
            ),
          ),
      ),
    id,
  );
  for (const word of reader.relationWords(around.relation)) usedWords.add(word);
  return around.isObject
    ? { subject: x, predicate: around.relation, object: { symbol: id } }
    : { subject: { symbol: id }, predicate: around.relation, object: x };
}
