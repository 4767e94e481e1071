import type { FactKind } from './fact-kind.ts';

/** What the summary reads of a fact (an outline item has it). */
type SummarizedFact = { subject: string; predicate: string; object: string; kind: FactKind };

/** One group of the summary: what its facts say ("a kind of Mammal"), how many, and the first few subjects. */
export type SummaryGroup = { label: string; count: number; names: string[] };

/**
 * The summary a long write-up opens with: its biggest groups, and how many facts the others hold
 * (classifications, and the rest).
 */
export type OutlineSummary = { groups: SummaryGroup[]; otherClassificationCount: number; otherCount: number };

// A handful of groups and names reads at a glance; more would be the wall the summary replaces.
const MAX_GROUPS = 5;
const MAX_NAMES = 3;

/**
 * Groups facts by what they say: classifications by their class ("a kind of Mammal"), every other
 * fact by its relation ("has part", "lives in"). The biggest groups come first (ties in the order
 * first found); the facts of the groups past the first few are counted together, classifications
 * apart from the rest.
 */
export function summarize(items: readonly SummarizedFact[]): OutlineSummary {
  const byLabel = new Map<string, { count: number; names: Set<string>; isClassification: boolean }>();
  for (const item of items) {
    const label = item.kind === 'classification' ? `a kind of ${item.object}` : item.predicate.replace(/[-_]+/g, ' ');
    const group = byLabel.get(label) ?? {
      count: 0,
      names: new Set<string>(),
      isClassification: item.kind === 'classification',
    };
    group.count += 1;
    if (group.names.size < MAX_NAMES) group.names.add(item.subject);
    byLabel.set(label, group);
  }
  const groups = [...byLabel].sort(([, left], [, right]) => right.count - left.count);
  const folded = groups.slice(MAX_GROUPS).map(([, group]) => group);
  const countOf = (wanted: boolean) =>
    folded.filter((group) => group.isClassification === wanted).reduce((sum, group) => sum + group.count, 0);
  return {
    groups: groups.slice(0, MAX_GROUPS).map(([label, { count, names }]) => ({ label, count, names: [...names] })),
    otherClassificationCount: countOf(true),
    otherCount: countOf(false),
  };
}
