import type { Derivation } from './inference-rules.ts';
import type { DerivationColumns, DerivationEntry } from './provenance.ts';

// A provenance record's derivations as typed-array columns, the form they are stored in:
// IndexedDB clones every value it writes and reads, and copies a typed array whole where it
// clones thousands of small arrays one by one.

/** The columns of derivations as the rules gave them: an inference builds its records so, with no list made first. */
export function derivationColumns(derivations: readonly Derivation[]): DerivationColumns {
  let premiseCount = 0;
  for (const derivation of derivations) premiseCount += derivation.premises.length;
  const columns = allocate(derivations.length, premiseCount);
  const ruleIndexOf = ruleIndexer(columns.rules);
  let end = 0;
  for (let index = 0; index < derivations.length; index++) {
    const { subject, predicate, object, confidence, rule, premises } = derivations[index]!;
    columns.facts[3 * index] = subject;
    columns.facts[3 * index + 1] = predicate;
    columns.facts[3 * index + 2] = object;
    columns.confidences[index] = confidence;
    columns.ruleIndexes[index] = ruleIndexOf(rule);
    for (const premise of premises) {
      columns.premiseFacts[3 * end] = premise.subject;
      columns.premiseFacts[3 * end + 1] = premise.predicate;
      columns.premiseFacts[3 * end + 2] = premise.object;
      columns.premiseConfidences[end++] = premise.confidence;
    }
    columns.premiseEnds[index] = end;
  }
  return columns;
}

/** The columns of listed derivations (a record written with its list, as a snapshot's are). */
export function columnsOfEntries(entries: readonly DerivationEntry[]): DerivationColumns {
  let premiseCount = 0;
  for (const entry of entries) premiseCount += entry.premises.length;
  const columns = allocate(entries.length, premiseCount);
  const ruleIndexOf = ruleIndexer(columns.rules);
  let end = 0;
  for (let index = 0; index < entries.length; index++) {
    const { fact, confidence, rule, premises } = entries[index]!;
    columns.facts[3 * index] = fact[0];
    columns.facts[3 * index + 1] = fact[1];
    columns.facts[3 * index + 2] = fact[2];
    columns.confidences[index] = confidence;
    columns.ruleIndexes[index] = ruleIndexOf(rule);
    for (const premise of premises) {
      columns.premiseFacts[3 * end] = premise[0];
      columns.premiseFacts[3 * end + 1] = premise[1];
      columns.premiseFacts[3 * end + 2] = premise[2];
      columns.premiseConfidences[end++] = premise[3];
    }
    columns.premiseEnds[index] = end;
  }
  return columns;
}

/** The derivations the columns hold, listed: each fact with its confidence, rule and premises. */
export function entriesOfColumns(columns: DerivationColumns): DerivationEntry[] {
  const { facts, premiseFacts, premiseConfidences, premiseEnds } = columns;
  const entries: DerivationEntry[] = [];
  let start = 0;
  for (let index = 0; index < columns.confidences.length; index++) {
    const end = premiseEnds[index]!;
    const premises: DerivationEntry['premises'] = [];
    for (let premise = start; premise < end; premise++)
      premises.push([
        premiseFacts[3 * premise]!,
        premiseFacts[3 * premise + 1]!,
        premiseFacts[3 * premise + 2]!,
        premiseConfidences[premise]!,
      ]);
    entries.push({
      fact: [facts[3 * index]!, facts[3 * index + 1]!, facts[3 * index + 2]!],
      confidence: columns.confidences[index]!,
      rule: columns.rules[columns.ruleIndexes[index]!]!,
      premises,
    });
    start = end;
  }
  return entries;
}

/** Whether a stored value is derivations in columns (a record stored before they were is a list). */
export function isDerivationColumns(value: unknown): value is DerivationColumns {
  return typeof value === 'object' && value !== null && (value as DerivationColumns).facts instanceof Int32Array;
}

function allocate(count: number, premiseCount: number): DerivationColumns {
  return {
    facts: new Int32Array(3 * count),
    confidences: new Float64Array(count),
    rules: [],
    ruleIndexes: new Int32Array(count),
    premiseEnds: new Int32Array(count),
    premiseFacts: new Int32Array(3 * premiseCount),
    premiseConfidences: new Float64Array(premiseCount),
  };
}

/** The index of a rule in the rules listed so far, listing it on first sight. */
function ruleIndexer(rules: string[]): (rule: string) => number {
  const indexes = new Map<string, number>();
  return (rule) => {
    let index = indexes.get(rule);
    if (index === undefined) {
      index = rules.push(rule) - 1;
      indexes.set(rule, index);
    }
    return index;
  };
}
