import type { Fact } from '#core/api.ts';

/** A triple as a line of text, subject, predicate and object by label: "GoldenRetriever is-a Dog". */
export function tripleText(fact: Pick<Fact, 'subject' | 'predicate' | 'object'>): string {
  return `${fact.subject.label} ${fact.predicate.label} ${fact.object.label}`;
}

/** A triple with its confidence, the way the agent writes premises: "GoldenRetriever is-a Dog (1.00)". */
export function factText(fact: Pick<Fact, 'subject' | 'predicate' | 'object' | 'confidence'>): string {
  return `${tripleText(fact)} (${fact.confidence.toFixed(2)})`;
}
