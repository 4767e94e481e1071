import type { Finding, FindingsSort } from '#core/api.ts';
import { PROVENANCE_KIND_WORDS } from '#core/kg/provenance.ts';

/** The source of a finding in words ("Inferred", "Starter graph"), or none when its provenance is not known. */
const sourceWords = (finding: Finding) => (finding.source === undefined ? '' : PROVENANCE_KIND_WORDS[finding.source]);

const byText = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true });

const ORDER: Record<Exclude<FindingsSort, 'found'>, (a: Finding, b: Finding) => number> = {
  name: (a, b) =>
    byText(a.subject.label, b.subject.label) ||
    byText(a.predicate.label, b.predicate.label) ||
    byText(a.object.label, b.object.label),
  // The kind of fact: what it says of its subject ("is-a Mammal"), as the list groups them.
  kind: (a, b) =>
    byText(a.predicate.label, b.predicate.label) ||
    byText(a.object.label, b.object.label) ||
    byText(a.subject.label, b.subject.label),
  confidence: (a, b) => b.confidence - a.confidence || byText(a.subject.label, b.subject.label),
  source: (a, b) => byText(sourceWords(a), sourceWords(b)) || byText(a.subject.label, b.subject.label),
};

/**
 * A goal's findings as the user asked to see them: those whose subject, relation, object or
 * source (in words) holds every word of the filter, case aside, sorted by name, kind,
 * confidence (the highest first) or source; "found" keeps the order the agent found them in.
 */
export function selectFindings(findings: readonly Finding[], sort: FindingsSort, filter: string): Finding[] {
  const words = filter.toLocaleLowerCase('en').split(/\s+/).filter(Boolean);
  const matching =
    words.length === 0
      ? [...findings]
      : findings.filter((finding) => {
          const text =
            `${finding.subject.label} ${finding.predicate.label} ${finding.object.label} ${sourceWords(finding)}`.toLocaleLowerCase(
              'en',
            );
          return words.every((word) => text.includes(word));
        });
  // Array.prototype.sort is stable: equal findings keep the order they were found in.
  return sort === 'found' ? matching : matching.sort(ORDER[sort]);
}
