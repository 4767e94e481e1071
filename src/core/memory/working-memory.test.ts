import { describe, expect, it } from 'vitest';
import { addToMemory, consultedEntries, retention } from './working-memory.ts';
import type { MemoryEntry } from '#core/records/memory-entry.ts';

const entry = (id: number, overrides: Partial<MemoryEntry> = {}): MemoryEntry => ({
  id,
  sessionId: 's',
  content: `entry ${id}`,
  symbols: [],
  kind: 'observation',
  timestamp: id,
  relevance: 0.4,
  sourceCycle: 10,
  referenceCount: 0,
  ...overrides,
});

describe('working memory', () => {
  it('evicts what holds it least: low relevance, seldom used, old', () => {
    const used = entry(1, { referenceCount: 3 });
    const unused = entry(2);
    const stale = entry(3, { relevance: 0.45, sourceCycle: 1 });
    const fresh = entry(4, { sourceCycle: 11 });
    expect(retention(used, 11)).toBeGreaterThan(retention(unused, 11));
    expect(retention(stale, 11)).toBeLessThan(retention(unused, 11));
    const { entries, evicted } = addToMemory([used, unused, stale], [fresh], 2);
    // The stale entry goes first (0.45 - 0.10), then the unused one (0.40 - 0.01); the used one stays (0.40 + 0.15 - 0.01).
    expect(evicted.map((gone) => gone.id)).toEqual([3, 2]);
    expect(entries.map((kept) => kept.id)).toEqual([1, 4]);
  });

  it('consults the entries made for the goal or about its symbols', () => {
    const entries = [
      entry(1, { goalId: 1 }),
      entry(2, { goalId: 2, symbols: [7] }),
      entry(3, { goalId: 2, symbols: [8] }),
    ];
    expect(consultedEntries(entries, 1, [7]).map((consulted) => consulted.id)).toEqual([1, 2]);
  });
});
