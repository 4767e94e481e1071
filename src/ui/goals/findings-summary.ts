import type { Fact, SymbolRef } from '#core/api.ts';
import { MAX_FINDINGS } from '#core/api.ts';

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
