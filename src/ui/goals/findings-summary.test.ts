import { describe, expect, it } from 'vitest';
import type { Fact, SymbolRef } from '#core/api.ts';
import { findingsCountText, groupFindings, selectionCountText } from './findings-summary.ts';

const symbols = new Map<string, SymbolRef>();
function symbol(label: string): SymbolRef {
  if (!symbols.has(label)) symbols.set(label, { id: symbols.size + 1, label, kind: 'entity' });
  return symbols.get(label)!;
}
function fact(subject: string, predicate: string, object: string, confidence = 1): Fact {
  return { subject: symbol(subject), predicate: symbol(predicate), object: symbol(object), confidence };
}

describe('groupFindings', () => {
  it('groups facts sharing a predicate and an object, in the order they were found', () => {
    const groups = groupFindings([
      fact('GoldenRetriever', 'is-a', 'Mammal', 0.9),
      fact('Mars', 'orbits', 'Sun'),
      fact('SiameseCat', 'is-a', 'Mammal', 0.81),
      fact('GoldenRetriever', 'is-a', 'Dog'),
    ]);
    expect(groups.map((group) => [group.label, group.items.map((item) => item.text)])).toEqual([
      ['is-a Mammal', ['GoldenRetriever (0.90)', 'SiameseCat (0.81)']],
      ['orbits Sun', ['Mars (1.00)']],
      ['is-a Dog', ['GoldenRetriever (1.00)']],
    ]);
  });

  it('gives no groups for a goal with no findings', () => {
    expect(groupFindings([])).toEqual([]);
  });
});

describe('findingsCountText', () => {
  it('counts the findings, saying when only some are listed', () => {
    expect(findingsCountText(1, 1)).toBe('1 finding');
    expect(findingsCountText(12, 12)).toBe('12 findings');
    expect(findingsCountText(200, 1350)).toBe('200 of 1,350 findings');
    // A goal keeps 2,000 findings at most: that many is a cap, never a count.
    expect(findingsCountText(200, 2000)).toBe('200 of at least 2,000 findings');
  });
});

describe('selectionCountText', () => {
  it('says how many findings the filter keeps, how many are listed, and of how many', () => {
    expect(selectionCountText(3, 3, 1228)).toBe('3 matching findings (of 1,228)');
    expect(selectionCountText(200, 950, 1228)).toBe('200 of 950 matching findings (of 1,228)');
    expect(selectionCountText(1, 1, 46)).toBe('1 matching finding (of 46)');
    expect(selectionCountText(0, 0, 46)).toBe('No finding matches (of 46)');
  });
});
