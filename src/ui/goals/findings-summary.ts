import type { Fact, FindingsSort, SymbolRef } from '#core/api.ts';
import { MAX_FINDINGS } from '#core/api.ts';

/** Each order of the findings list, as its menu says it. */
export const FINDINGS_SORT_LABELS: Readonly<Record<FindingsSort, string>> = {
  found: 'Order found',
  name: 'Name',
  kind: 'Kind',
  confidence: 'Confidence',
  source: 'Source',
};

/** Findings that share a predicate and an object: "is-a Mammal: GoldenRetriever, SiameseCat, …". */
export type FindingGroup = {
  /** The shared part, predicate then object: "is-a Mammal". */
  label: string;
  items: { subject: SymbolRef; confidence: number; text: string }[];
};

/**
 * Groups a goal's findings by predicate and object, in the order the agent found them (the
 * ones matching the goal's criteria come first), so a list of facts reads as a summary.
 */
export function groupFindings(findings: readonly Fact[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  for (const fact of findings) {
    const key = `${fact.predicate.id} ${fact.object.id}`;
    let group = groups.get(key);
    if (!group) {
      group = { label: `${fact.predicate.label} ${fact.object.label}`, items: [] };
      groups.set(key, group);
    }
    group.items.push({
      subject: fact.subject,
      confidence: fact.confidence,
      text: `${fact.subject.label} (${fact.confidence.toFixed(2)})`,
    });
  }
  return [...groups.values()];
}

/** How many findings are listed: "1 finding", "12 findings", or "200 of 350 findings" when the list is cut short. */
export function findingsCountText(shown: number, total: number): string {
  const count = Math.max(shown, total);
  const noun = count === 1 ? 'finding' : 'findings';
  // A goal keeps at most MAX_FINDINGS: that many is a cap, not a count.
  const atLeast = total >= MAX_FINDINGS ? 'at least ' : '';
  return shown < total
    ? `${shown.toLocaleString('en')} of ${atLeast}${total.toLocaleString('en')} ${noun}`
    : `${atLeast}${count.toLocaleString('en')} ${noun}`;
}

/** How many findings a filter keeps, and how many are listed: "3 of 12 matching findings (of 1,228)". */
export function selectionCountText(shown: number, matching: number, total: number): string {
  const of = `(of ${total.toLocaleString('en')})`;
  if (matching === 0) return `No finding matches ${of}`;
  const noun = matching === 1 ? 'matching finding' : 'matching findings';
  return shown < matching
    ? `${shown.toLocaleString('en')} of ${matching.toLocaleString('en')} ${noun} ${of}`
    : `${matching.toLocaleString('en')} ${noun} ${of}`;
}
