import type { KnowledgeGraph } from '#core/kg/graph.ts';
import { answerReading } from './answer.ts';
import { displayName } from './answer-view.ts';
import { readQuestion } from './reading.ts';
import { vocabularyOf } from './vocabulary.ts';

/** How many "is a" facts are looked at, at most: enough to find a graph's main classes, in milliseconds at any size. */
const MAX_FACTS_SCANNED = 200_000;

/** A name a question can carry: short, on one line, not a number or an address. */
function isAskable(name: string): boolean {
  return name.length >= 2 && name.length <= 40 && !/[\n\r?<>]|^\d+$|^[a-z]+:\/\//i.test(name);
}

/**
 * Questions a newcomer can ask of this graph and get an answer to, the start screen's examples:
 * its biggest class listed, a chain of "is a" facts proved, the common ground of two members of
 * one class, then a count. Each is read and answered here first; one that the reader cannot
 * place or the graph cannot answer is never offered. An empty graph, or one with no "is a"
 * facts, has none.
 */
export function exampleQuestions(graph: KnowledgeGraph, count = 3): string[] {
  const { classRelations } = vocabularyOf(graph);
  const { subjects, objects } = graph.columns;
  // Each class's direct members, and each member's classes.
  const members = new Map<number, number[]>();
  const parents = new Map<number, number[]>();
  let scanned = 0;
  for (const relation of classRelations) {
    for (const position of graph.positionsWith(relation)) {
      if (++scanned > MAX_FACTS_SCANNED) break;
      const [member, kind] = [subjects[position]!, objects[position]!];
      if (member === kind || graph.symbol(kind)?.kind !== 'entity') continue;
      (members.get(kind) ?? members.set(kind, []).get(kind)!).push(member);
      (parents.get(member) ?? parents.set(member, []).get(member)!).push(kind);
    }
  }
  const name = (id: number) => displayName(graph, id);
  const askable = (ids: readonly number[]) => ids.filter((id) => isAskable(name(id)));
  // Classes by how many things they hold over their whole "is a" tree, the biggest first (as a newcomer would browse).
  const classes = askable([...members.keys()])
    .map((kind) => ({ kind, size: descendantCount(kind, members) }))
    .sort((a, b) => b.size - a.size || a.kind - b.kind)
    .map(({ kind }) => kind);

  const lists = classes.map((kind) => `Find every ${name(kind)}`);
  // A thing two "is a" steps below a class: the proof is a chain, which only inference finds.
  const chains = function* () {
    for (const kind of classes)
      for (const middle of members.get(kind)!)
        for (const member of askable(members.get(middle) ?? []))
          if (!members.has(member) && member !== kind && !parents.get(member)!.includes(kind))
            yield `Is ${name(member)} ${/^[aeiou]/i.test(name(kind)) ? 'an' : 'a'} ${name(kind)}?`;
  };
  // Two members of one class that are not classes themselves, the smallest class first (siblings share the most).
  const commonGround = function* () {
    for (const kind of [...classes].reverse()) {
      const [first, second] = askable(members.get(kind)!.filter((member) => !members.has(member)));
      if (first !== undefined && second !== undefined)
        yield `What do ${name(first)} and ${name(second)} have in common?`;
    }
  };
  const counts = classes.slice(1).map((kind) => `How many ${name(kind)} are there?`);

  const examples: string[] = [];
  for (const candidates of [lists, chains(), commonGround(), counts]) {
    if (examples.length === count) break;
    const question = firstAnswered(graph, candidates);
    if (question !== undefined) examples.push(question);
  }
  return examples;
}

/** How many things a class holds over its whole "is a" tree, counted up to a bound (a big class is big enough). */
function descendantCount(kind: number, members: ReadonlyMap<number, number[]>, bound = 10_000): number {
  const seen = new Set<number>([kind]);
  const queue = [kind];
  while (queue.length > 0 && seen.size <= bound)
    for (const member of members.get(queue.pop()!) ?? [])
      if (!seen.has(member)) {
        seen.add(member);
        queue.push(member);
      }
  return seen.size - 1;
}

/** The first of a few candidate questions that the reader places whole and the graph answers (not "no", not none). */
function firstAnswered(graph: KnowledgeGraph, candidates: Iterable<string>, tries = 8): string | undefined {
  let tried = 0;
  for (const question of candidates) {
    if (tried++ === tries) return undefined;
    const reading = readQuestion(graph, question);
    if (!reading.ok || reading.value.choices?.length) continue;
    const answer = answerReading(graph, reading.value);
    const isEmpty =
      answer.kind === 'none' ||
      (answer.kind === 'entities' && answer.entities.length === 0) ||
      (answer.kind !== 'entities' && (answer.value === false || answer.value === 0));
    if (!isEmpty) return question;
  }
  return undefined;
}
