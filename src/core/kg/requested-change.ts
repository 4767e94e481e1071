import { z } from 'zod';
import type { KnowledgeGraph } from './graph.ts';
import { factsOfText } from './sentence-facts.ts';
import type { Triple } from './triple.ts';
import { GraphVocabulary } from './vocabulary.ts';

/** A change to the graph that a goal asks for in so many words: a fact to assert or to retract, as labels. */
export const requestedChangeSchema = z.object({
  op: z.enum(['assert', 'retract']),
  subject: z.string().min(1).max(200),
  predicate: z.string().min(1).max(200),
  object: z.string().min(1).max(200),
});
export type RequestedChange = z.infer<typeof requestedChangeSchema>;

/** The most changes one goal may ask for: a goal is a request, not an import (the Knowledge screen imports files). */
export const MAX_REQUESTED_CHANGES = 20;

const ASSERT_VERBS = ['assert', 'record', 'remember', 'note', 'learn', 'add', 'store'];
const RETRACT_VERBS = ['retract', 'forget', 'unlearn', 'remove', 'delete'];
const REQUEST = new RegExp(
  String.raw`^\s*(?:please\s+)?(${[...ASSERT_VERBS, ...RETRACT_VERBS].join('|')})\s+(?:that\s+|the\s+fact\s+that\s+)?(.+)$`,
  'iu',
);

/**
 * The changes a goal's description asks for: "Remember that Tux is a penguin", "Forget that a
 * whale is a fish. Whales have gills". The facts are the simple sentences text_ingest reads (see
 * sentence-facts.ts). Undefined when the description is no such request (or states no fact).
 */
export function requestedChangesOf(
  description: string,
  isKnown?: (label: string) => boolean,
): RequestedChange[] | undefined {
  const match = REQUEST.exec(description.normalize('NFKC'));
  if (!match?.[1] || !match[2]) return undefined;
  const op = RETRACT_VERBS.includes(match[1].toLowerCase()) ? 'retract' : 'assert';
  const facts = factsOfText(match[2], { limit: MAX_REQUESTED_CHANGES, ...(isKnown ? { isKnown } : {}) });
  if (facts.length === 0) return undefined;
  return facts.map(({ subject, predicate, object }) => ({ op, subject, predicate, object }));
}

/**
 * The triple a change is about, if the graph holds it: under the predicate of that name, or one
 * the vocabulary says it with ("whale is a cetacean" is held as Whale rdfs:subClassOf Cetacean).
 */
export function heldTriple(graph: KnowledgeGraph, change: RequestedChange): Triple | undefined {
  const [subject, object] = [change.subject, change.object].map((label) => graph.symbolByLabel(label)?.id);
  if (subject === undefined || object === undefined) return undefined;
  const named = graph.symbolByLabel(change.predicate)?.id;
  const predicates = new Set([
    ...(named !== undefined ? [named] : []),
    ...GraphVocabulary.of(graph).relationNamed(change.predicate).ids,
  ]);
  for (const predicate of predicates) {
    const triple = graph.triple(subject, predicate, object);
    if (triple) return triple;
  }
  return undefined;
}

/** Whether the graph already is as the change asks: the fact held (assert) or gone (retract). */
export function isChangeMade(graph: KnowledgeGraph, change: RequestedChange): boolean {
  return (heldTriple(graph, change) !== undefined) === (change.op === 'assert');
}

/** "assert Tux is-a Penguin". */
export function describeChange(change: RequestedChange): string {
  return `${change.op} ${change.subject} ${change.predicate} ${change.object}`;
}
