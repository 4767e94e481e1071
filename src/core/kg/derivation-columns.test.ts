import { describe, expect, it } from 'vitest';
import { columnsOfEntries, derivationColumns, entriesOfColumns, isDerivationColumns } from './derivation-columns.ts';
import type { Derivation } from './inference-rules.ts';
import type { DerivationEntry } from './provenance.ts';

// None, one or two premises per fact, two rules interleaved.
const derivations: Derivation[] = Array.from({ length: 7 }, (_, index) => ({
  subject: index,
  predicate: 2,
  object: 100 + index,
  confidence: 0.5 + index / 20,
  rule: index % 2 === 0 ? 'is-a-transitive' : 'part-of-transitive',
  premises: Array.from({ length: index % 3 }, (_, premise) => ({
    subject: index,
    predicate: 2,
    object: 10 + premise,
    confidence: 1 - premise / 4,
  })),
}));

const listed: DerivationEntry[] = derivations.map(({ subject, predicate, object, confidence, rule, premises }) => ({
  fact: [subject, predicate, object],
  confidence,
  rule,
  premises: premises.map((premise) => [premise.subject, premise.predicate, premise.object, premise.confidence]),
}));

describe('derivations in columns', () => {
  it('list back each fact with its confidence, rule and premises, in order', () => {
    const columns = derivationColumns(derivations);
    expect(isDerivationColumns(columns)).toBe(true);
    expect(columns.rules).toEqual(['is-a-transitive', 'part-of-transitive']);
    expect(entriesOfColumns(columns)).toEqual(listed);
  });

  it('are the same built from the rules as from a list', () => {
    expect(columnsOfEntries(listed)).toEqual(derivationColumns(derivations));
    expect(entriesOfColumns(columnsOfEntries([]))).toEqual([]);
  });

  it('are told from a list', () => {
    expect(isDerivationColumns(listed)).toBe(false);
    expect(isDerivationColumns(undefined)).toBe(false);
  });
});
